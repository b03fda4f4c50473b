/// A board's power draw, simply: a floor while idle, a step for each fully busy core, and the camera.
/// Real draw also depends on clocks, Wi-Fi, USB and HATs; the model is for budgeting, not for billing.
public struct PowerModel: Sendable, Equatable {
    /// Whole board idle, headless, watts.
    public var idleWatts: Double
    /// Added by one core kept 100 % busy, watts.
    public var wattsPerBusyCore: Double
    /// Added by the camera streaming, watts.
    public var cameraWatts: Double

    public init(idleWatts: Double, wattsPerBusyCore: Double, cameraWatts: Double) {
        self.idleWatts = idleWatts
        self.wattsPerBusyCore = wattsPerBusyCore
        self.cameraWatts = cameraWatts
    }

    /// Raspberry Pi's documentation asks 250 mA for a Camera Module: 1.25 W at 5 V. An upper bound for
    /// budgeting (a stated requirement, not a measurement of streaming draw).
    public static let cameraModuleWatts = 1.25

    /// Pi 4 Model B. Raspberry Pi's documentation (power supply page, table of typical draw) gives 0.6 A idle
    /// and 1.2 A under stress on all four cores, at 5.1 V: 3.06 W idle, (6.12 - 3.06) / 4 = 0.77 W a busy core.
    public static let pi4 = PowerModel(idleWatts: 3.06, wattsPerBusyCore: 0.77, cameraWatts: cameraModuleWatts)

    /// Pi 5. Estimate: Raspberry Pi publishes no such table for it. Reported idle measurements range 2.1-3.3 W
    /// (meter and firmware dependent) and sustained full load about 7.7-8.5 W; we take 2.7 W idle and
    /// (8.3 - 2.7) / 4 = 1.4 W a busy core.
    public static let pi5 = PowerModel(idleWatts: 2.7, wattsPerBusyCore: 1.4, cameraWatts: cameraModuleWatts)

    /// Pi Zero 2 W. Idle 120 mA at 5 V = 0.6 W, measured by CNX Software (Raspberry Pi OS Bullseye, 2021).
    /// Busy core estimate: 0.5 W (all four busy ≈ 2.6 W, between Raspberry Pi's "typical active" 350 mA = 1.75 W
    /// and published stress readings of roughly 500-600 mA).
    public static let zero2W = PowerModel(idleWatts: 0.6, wattsPerBusyCore: 0.5, cameraWatts: cameraModuleWatts)

    /// A runtime target in hours on a battery of so many watt-hours allows this average power (nil without either).
    public static func allowedWatts(capacityWh: Double, runtimeHours: Double) -> Double? {
        guard capacityWh > 0, runtimeHours > 0 else { return nil }
        return capacityWh / runtimeHours
    }

    /// Draw with `cpuPercent` of one core busy (100 = one core), watts.
    public func watts(cpuPercent: Double) -> Double {
        idleWatts + cameraWatts + wattsPerBusyCore * cpuPercent / 100
    }

    /// The CPU, percent of one core, that keeps the average draw at `allowedWatts`: what is left after idle and
    /// the camera, divided by the cost of a busy core. Negative when even an idle board with its camera draws more.
    public func cpuPercent(allowedWatts: Double) -> Double {
        (allowedWatts - idleWatts - cameraWatts) / wattsPerBusyCore * 100
    }
}
