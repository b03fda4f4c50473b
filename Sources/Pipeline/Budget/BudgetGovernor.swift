/// How far a condition (battery, heat) has pushed the loop back.
public enum Severity: Int, Sendable, Comparable, CustomStringConvertible {
    case normal = 0, reduced = 1, paused = 2

    public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    public var description: String { ["normal", "reduced", "paused"][rawValue] }

    /// The level for `badness` (higher is worse: degrees, or percent of charge used), entered at each threshold
    /// and left only once back below it by `margin`, so a reading hovering at a threshold cannot flap.
    static func next(from current: Severity, badness: Double, reducedAt: Double, pausedAt: Double, margin: Double) -> Severity {
        var level: Severity = badness >= pausedAt ? .paused : badness >= reducedAt ? .reduced : .normal
        if current == .paused, level < .paused, badness > pausedAt - margin { level = .paused }
        if current >= .reduced, level < .reduced, badness > reducedAt - margin { level = .reduced }
        return level
    }
}

/// What the loop is doing.
public enum LoopMode: String, Sendable {
    /// A face is present or was recently: processing at the governed rate.
    case active
    /// No face for a while: the detector alone, at the idle rate.
    case idle
    /// Battery or heat critical: no processing.
    case paused
}

/// The governor's state, for the caller to act on and log.
public struct GovernorStatus: Sendable, Equatable {
    public var mode = LoopMode.active
    /// Frames a second to process now (0 when paused).
    public var targetRate: Double
    /// The CPU budget in force, percent of one core: the setting, or less when a runtime target caps it.
    public var budgetPercent: Double
    /// The cap from the battery runtime target, percent of one core, while it applies (on battery).
    public var runtimeCapPercent: Double?
    /// Process CPU use over the last window, percent of one core.
    public var measuredPercent: Double?
    /// The budget cannot be met even at the slowest allowed rate.
    public var overBudget = false
    public var battery = Severity.normal
    public var thermal = Severity.normal
    public var batteryPercent: Double?
    public var celsius: Double?
}

/// Chooses the processing rate. Pure: the caller feeds it measurements and times.
///
/// The process CPU use is modelled as fixed costs (capture, bookkeeping: whatever does not scale with the rate)
/// plus processed rate × cost of a frame. Each decision takes the cost of a frame from the frames' own CPU time
/// (recent frames, so a change of scene or load shows at once), the fixed costs from the measured process use
/// minus the frames' share over the window, and sets the rate that would use `aim` of the budget. Without the
/// frames' own times it takes measured use over processed rate as the cost, which overestimates by the fixed
/// costs; repeated decisions still converge as long as those stay inside the budget. Steps are limited (down to
/// a quarter, up to double) so one noisy window cannot swing the rate far, and small corrections are halved.
public struct BudgetGovernor: Sendable {
    public let settings: BudgetSettings
    /// The rate the CPU budget allows while active, from `minimumRate` to `activeRate`.
    public private(set) var governedRate: Double
    public private(set) var status: GovernorStatus
    private var lastFace: Double

    /// Share of the budget aimed at, so that measurement noise stays inside it.
    public static let aim = 0.95
    /// Measured use above the budget by more than this share, at the slowest rate, is reported as unmeetable.
    public static let tolerance = 0.10

    public init(settings: BudgetSettings, startTime: Double) {
        self.settings = settings
        governedRate = settings.activeRate
        lastFace = startTime
        status = GovernorStatus(targetRate: settings.activeRate, budgetPercent: settings.cpuPercent)
    }

    /// A processed frame saw a face, or not. A face makes the loop active at once.
    public mutating func observe(faceSeen: Bool, at time: Double) {
        if faceSeen { lastFace = time }
        refresh(at: time)
    }

    /// A reading of the power supplies: the low and critical levels, and the runtime target's CPU cap.
    public mutating func observe(supply: PowerSupplyReading) {
        let b = settings.battery
        status.batteryPercent = supply.capacityPercent
        if supply.onBattery, let percent = supply.capacityPercent {
            status.battery = .next(from: status.battery, badness: -percent, reducedAt: -b.lowPercent,
                                   pausedAt: -b.criticalPercent, margin: b.hysteresisPercent)
        } else {
            status.battery = .normal
        }
        // A plain power bank reports nothing, so the runtime cap applies unless a supply says it is on external power.
        let external = supply.externalPowerOnline == true || supply.status == .charging || supply.status == .full
        let capacity = b.capacityWh > 0 ? b.capacityWh : supply.fullEnergyWh
        if !external, let capacity, let watts = PowerModel.allowedWatts(capacityWh: capacity, runtimeHours: b.runtimeHours) {
            status.runtimeCapPercent = max(0, settings.power.model.cpuPercent(allowedWatts: watts))
        } else {
            status.runtimeCapPercent = nil
        }
        status.budgetPercent = min(settings.cpuPercent, status.runtimeCapPercent ?? .infinity)
    }

    /// The hottest zone's temperature (nil: no sensor, no limit).
    public mutating func observe(celsius: Double?) {
        let t = settings.thermal
        status.celsius = celsius
        status.thermal = celsius.map {
            .next(from: status.thermal, badness: $0, reducedAt: t.hotCelsius, pausedAt: t.criticalCelsius, margin: t.hysteresisCelsius)
        } ?? .normal
    }

    /// One decision from the measured process CPU use and processed rate over the last window.
    /// - Parameters:
    ///   - frameSharePercent: the processed frames' own CPU time over the window, percent of a core (nil: unknown).
    ///   - recentFrameCost: CPU seconds of a recent processed frame, on average (nil: unknown).
    public mutating func adjust(cpuPercent: Double?, processedRate: Double, frameSharePercent: Double? = nil,
                                recentFrameCost: Double? = nil, at time: Double) {
        status.measuredPercent = cpuPercent
        guard let used = cpuPercent else { return refresh(at: time) }
        let budget = status.budgetPercent
        if processedRate > 0, used > 0 {
            var wanted: Double
            if let share = frameSharePercent, let cost = recentFrameCost, cost > 0 {
                let fixed = max(0, used - share)
                wanted = max(0, budget * Self.aim - fixed) / (cost * 100)
            } else {
                wanted = processedRate * budget * Self.aim / used
            }
            // Small corrections are mostly counting noise (a frame more or less in the window): take half.
            if abs(wanted - governedRate) < governedRate * 0.15 { wanted = (wanted + governedRate) / 2 }
            governedRate = min(max(wanted, governedRate / 4, settings.minimumRate), governedRate * 2, settings.activeRate)
        } else if processedRate > 0 {
            governedRate = min(governedRate * 2, settings.activeRate)
        }
        refresh(at: time)
        let atFloor = status.targetRate <= floorRate + 1e-9
        if status.mode == .paused || !atFloor || used <= budget {
            status.overBudget = false
        } else if used > budget * (1 + Self.tolerance) {
            status.overBudget = true
        }
    }

    /// The slowest rate the current mode allows.
    private var floorRate: Double {
        status.mode == .idle ? min(settings.idleRate, settings.minimumRate) : settings.minimumRate
    }

    /// Mode and target rate from the latest observations.
    public mutating func refresh(at time: Double) {
        if status.battery == .paused || status.thermal == .paused {
            status.mode = .paused
            status.targetRate = 0
            status.overBudget = false
            return
        }
        status.mode = time - lastFace >= settings.idleAfter ? .idle : .active
        var rate = status.mode == .idle ? min(settings.idleRate, governedRate) : governedRate
        if status.battery == .reduced { rate = min(rate, settings.battery.lowRate) }
        if status.thermal == .reduced { rate = min(rate, settings.thermal.hotRate) }
        status.targetRate = rate
    }
}
