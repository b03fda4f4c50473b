/// Settings of the governed loop: how often frames are processed, how much CPU that may cost, and what a
/// draining battery or a hot board do to it. Each default suits a Pi on mains power with a 30 fps camera.
/// docs/budgets.md explains how the governor uses them.
public struct BudgetSettings: Sendable, Equatable {
    /// Frames processed a second while a face is present (or was, less than `idleAfter` ago): every frame
    /// of a 30 fps camera. Gestures are judged on the frames they get: at 15 fps the rendered sets lost a fifth
    /// of their nods (docs/budgets.md, "Why 30 fps"); the budget still lowers it when it must.
    public var activeRate = 30.0
    /// Frames a second once no face has been seen for `idleAfter` seconds: only the detector runs, looking for one.
    public var idleRate = 2.0
    /// Seconds without a face before the loop drops to `idleRate`. A face brings it back at once.
    public var idleAfter = 10.0
    /// Slowest rate the governor may choose while a face is present. Below about 4 fps a nod's swings
    /// (up to 0.6 s each) get one frame or none, so the budget is reported as unmeetable rather than gone below.
    public var minimumRate = 4.0
    /// Most CPU the loop may use, in percent of one core (100 = one whole core), measured over `window`.
    public var cpuPercent = 50.0
    /// Seconds of process CPU time averaged for each decision; the governor decides every half window.
    public var window = 2.0
    /// Seconds between readings of the battery and temperature files.
    public var sensorInterval = 5.0

    public var battery = BatterySettings()
    public var power = PowerSettings()
    public var thermal = ThermalSettings()

    public init() {}

    /// Contradictions between settings, as (config key, what is wrong).
    public func problems() -> [(key: String, message: String)] {
        var p: [(key: String, message: String)] = []
        func need(_ ok: Bool, _ key: String, _ message: String) { if !ok { p.append((key, message)) } }
        need(minimumRate <= activeRate, "budget.minimum_rate", "must not exceed budget.active_rate (\(activeRate))")
        need(idleRate <= activeRate, "budget.idle_rate", "must not exceed budget.active_rate (\(activeRate))")
        need(battery.criticalPercent < battery.lowPercent, "budget.battery.critical_percent",
             "must be below budget.battery.low_percent (\(battery.lowPercent))")
        need(thermal.hotCelsius < thermal.criticalCelsius, "budget.thermal.hot_celsius",
             "must be below budget.thermal.critical_celsius (\(thermal.criticalCelsius))")
        return p
    }
}

/// What the battery does to the loop. Only applies while running on the battery (not charging, no mains).
public struct BatterySettings: Sendable, Equatable {
    /// Where the kernel lists power supplies (batteries, mains, USB); a UPS HAT with a driver shows up here.
    public var supplyRoot = "/sys/class/power_supply"
    /// Hours the appliance should last on a full battery; 0 sets no runtime target. With a capacity this gives an
    /// allowed average power, which the power model turns into a CPU cap.
    public var runtimeHours = 0.0
    /// Usable battery energy, watt-hours; 0 takes what the battery reports (energy_full, or charge_full times
    /// voltage_min_design), and no runtime target applies if it reports neither.
    public var capacityWh = 0.0
    /// At or below this charge, percent, the rate is capped at `lowRate`.
    public var lowPercent = 20.0
    /// At or below this charge processing pauses, so what is left goes to shutting down cleanly.
    public var criticalPercent = 7.0
    /// Percent the charge must climb back above a level before the loop leaves it (a sagging cell reads unsteadily).
    public var hysteresisPercent = 3.0
    /// Frames a second at low battery.
    public var lowRate = 5.0

    public init() {}
}

/// Boards with a power model of their own (figures and sources in `PowerModel`).
public enum Board: String, CaseIterable, Sendable {
    case pi4, pi5, zero2w, custom
}

/// Which power model turns an allowed average power into a CPU cap.
public struct PowerSettings: Sendable, Equatable {
    /// The board; `custom` uses `custom`'s figures.
    public var board = Board.pi4
    /// The figures used when `board` is `custom` (starts as the Pi 4's).
    public var custom = PowerModel.pi4

    public init() {}

    public var model: PowerModel {
        switch board {
        case .pi4: return .pi4
        case .pi5: return .pi5
        case .zero2w: return .zero2W
        case .custom: return custom
        }
    }
}

/// What heat does to the loop. The hottest thermal zone counts.
public struct ThermalSettings: Sendable, Equatable {
    /// Where the kernel lists thermal zones (thermal_zone*/temp, millidegrees Celsius).
    public var zoneRoot = "/sys/class/thermal"
    /// At or above this, degrees Celsius, the rate is capped at `hotRate`. The Pi firmware starts slowing the
    /// CPU at 80 °C; backing off earlier keeps gestures working instead of the firmware halving everything.
    public var hotCelsius = 75.0
    /// At or above this processing pauses until the board cools (the firmware's hard limit is 85 °C).
    public var criticalCelsius = 82.0
    /// Degrees the temperature must fall below a level before the loop leaves it.
    public var hysteresisCelsius = 5.0
    /// Frames a second while hot.
    public var hotRate = 5.0

    public init() {}
}
