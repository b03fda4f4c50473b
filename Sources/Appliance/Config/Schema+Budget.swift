import Gestures
import Pipeline

/// The governed loop's settings (`BudgetSettings`): rates, CPU budget, battery, power model and heat.
extension ConfigSchema {
    /// The rates a device may process frames at (`budget.active_rate`, and `--rate` of `nodwire evaluate` and
    /// `nodwire replay`).
    static let activeRates: ClosedRange<Double> = 1...60

    static var budget: [SettingSpec] { [
        .double("budget.active_rate", \.budget.activeRate, activeRates, "Frames processed a second while a face is present (at most; the CPU budget may lower it)."),
        .double("budget.idle_rate", \.budget.idleRate, 0.2...30, "Frames a second, detector only, once no face has been seen for idle_after seconds."),
        .double("budget.idle_after", \.budget.idleAfter, 0...3600, "Seconds without a face before the idle rate; a face brings back the active rate at once."),
        .double("budget.minimum_rate", \.budget.minimumRate, 0.5...60, "Slowest rate the governor may choose with a face present; if the budget needs less it is reported as unmeetable."),
        .double("budget.cpu_percent", \.budget.cpuPercent, 1...400, "Most CPU the loop may use, percent of one core (100 = a whole core), over `window` seconds."),
        .double("budget.window", \.budget.window, 0.5...30, "Seconds of CPU use averaged for each decision; the governor decides every half window."),
        .double("budget.sensor_interval", \.budget.sensorInterval, 0.5...600, "Seconds between readings of the battery and temperature."),
        .path("budget.battery.supply_root", \.budget.battery.supplyRoot, "Folder of the kernel's power supplies (a UPS HAT with a driver shows up here); none found is fine."),
        .double("budget.battery.runtime_hours", \.budget.battery.runtimeHours, 0...10_000, "Hours to last on a full battery; with the capacity and the power model this caps the CPU. 0: no target."),
        .double("budget.battery.capacity_wh", \.budget.battery.capacityWh, 0...10_000, "Usable battery energy, watt-hours. 0: what the battery reports (energy_full or charge_full × voltage_min_design)."),
        .double("budget.battery.low_percent", \.budget.battery.lowPercent, 0...100, "On battery at or below this charge, the rate is capped at low_rate."),
        .double("budget.battery.critical_percent", \.budget.battery.criticalPercent, 0...100, "On battery at or below this charge, processing pauses."),
        .double("budget.battery.hysteresis_percent", \.budget.battery.hysteresisPercent, 0...50, "Percent the charge must climb back above a level before it is left."),
        .double("budget.battery.low_rate", \.budget.battery.lowRate, 0.2...60, "Frames a second at low battery."),
        .choice("budget.power.board", \.budget.power.board, "Power model: pi4, pi5 and zero2w have built-in figures (docs/budgets.md); custom uses the three below."),
        .double("budget.power.idle_watts", \.budget.power.custom.idleWatts, 0...50, "Board idle, watts (board = \"custom\" only)."),
        .double("budget.power.watts_per_core", \.budget.power.custom.wattsPerBusyCore, 0.01...20, "Watts added by one fully busy core (board = \"custom\" only)."),
        .double("budget.power.camera_watts", \.budget.power.custom.cameraWatts, 0...20, "Watts added by the streaming camera (board = \"custom\" only)."),
        .path("budget.thermal.zone_root", \.budget.thermal.zoneRoot, "Folder of the kernel's thermal zones (thermal_zone*/temp); none found is fine."),
        .double("budget.thermal.hot_celsius", \.budget.thermal.hotCelsius, 30...120, "At or above this, °C, the rate is capped at hot_rate (the Pi firmware slows the CPU at 80)."),
        .double("budget.thermal.critical_celsius", \.budget.thermal.criticalCelsius, 30...120, "At or above this processing pauses until the board cools."),
        .double("budget.thermal.hysteresis_celsius", \.budget.thermal.hysteresisCelsius, 0...30, "Degrees the temperature must fall below a level before it is left."),
        .double("budget.thermal.hot_rate", \.budget.thermal.hotRate, 0.2...60, "Frames a second while hot."),
    ] }

    /// Contradictions among the budget settings, with their keys.
    static func budgetProblems(_ c: NodwireConfig) -> [SettingProblem] {
        c.budget.problems().map { SettingProblem(key: $0.key, message: $0.message) }
    }
}
