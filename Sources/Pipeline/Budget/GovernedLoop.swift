/// Something the caller should log or turn into an event: the loop changed what it does, and why.
public enum BudgetNotice: Sendable, Equatable, CustomStringConvertible {
    case mode(LoopMode, targetRate: Double)
    /// The budget cannot be met even at the slowest allowed rate (`met` false), or is met again.
    case budget(met: Bool, measuredPercent: Double, budgetPercent: Double)
    case battery(Severity, percent: Double?)
    case thermal(Severity, celsius: Double?)
    /// The battery runtime target caps the CPU at this many percent of a core (nil: no longer).
    case runtimeCap(percent: Double?)
    /// A sensor file could not be used; the loop runs on without it.
    case sensorProblem(SysfsProblem)

    public var description: String {
        switch self {
        case let .mode(m, rate): return "loop \(m.rawValue) at \(Self.format(rate)) fps"
        case let .budget(met, used, budget):
            return met ? "CPU \(Self.format(used)) % is within the budget of \(Self.format(budget)) % again"
                : "CPU budget of \(Self.format(budget)) % of a core cannot be met even at the slowest rate: using \(Self.format(used)) %"
        case let .battery(s, percent): return "battery \(percent.map { Self.format($0) + " %" } ?? "level unknown"): \(s)"
        case let .thermal(s, celsius): return "temperature \(celsius.map { Self.format($0) + " °C" } ?? "unknown"): \(s)"
        case let .runtimeCap(p): return p.map { "battery runtime target caps the CPU at \(Self.format($0)) % of a core" } ?? "no battery runtime cap"
        case let .sensorProblem(p): return "ignoring \(p)"
        }
    }

    static func format(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}

/// Whether to process the frame just offered.
public enum FrameDecision: Sendable, Equatable {
    case process
    /// Dropped: not due at the target rate, or the loop is paused. Frames are never queued.
    case skip
}

/// The governed loop, independent of where frames come from (a recording now, the camera later): offer each
/// newest frame with its timestamp, process it if told to, report what it cost and whether a face was seen.
/// The loop measures itself, reads the battery and temperature every `sensorInterval`, and lets the governor
/// choose the rate. Times are the caller's monotonic seconds; CPU readings come from an injected clock.
public struct GovernedLoop: Sendable {
    public private(set) var governor: BudgetGovernor
    public private(set) var stats: LoopStats
    private var pacer = FramePacer()
    private var windowRate: FrameRateMeter
    /// Processed frames' CPU seconds over the window.
    private var frameCosts: TimeWindow<Double>
    private let processCPU: @Sendable () -> Double
    private let supplies: PowerSupplyReader?
    private let thermal: ThermalReader?
    private var nextDecision: Double
    private var nextSensorRead: Double
    private var notices: [BudgetNotice] = []
    private var reported: GovernorStatus
    private var reportedProblems: Set<String> = []

    /// - Parameters:
    ///   - processCPU: process CPU seconds so far (ProcessCPUClock.now on a real loop).
    ///   - readSensors: read the battery and thermal folders named in the settings (off for a replay).
    public init(settings: BudgetSettings, startTime: Double, processCPU: @escaping @Sendable () -> Double = { ProcessCPUClock.now() },
                readSensors: Bool = true) {
        governor = BudgetGovernor(settings: settings, startTime: startTime)
        stats = LoopStats(window: settings.window)
        windowRate = FrameRateMeter(span: settings.window)
        frameCosts = TimeWindow(span: settings.window)
        self.processCPU = processCPU
        supplies = readSensors ? PowerSupplyReader(root: settings.battery.supplyRoot) : nil
        thermal = readSensors ? ThermalReader(root: settings.thermal.zoneRoot) : nil
        nextDecision = startTime + settings.window / 2
        nextSensorRead = startTime
        reported = governor.status
    }

    public var status: GovernorStatus { governor.status }

    /// The newest frame, taken at `time`: process it now, or drop it.
    public mutating func offer(frameAt time: Double) -> FrameDecision {
        stats.offered(at: time, processCPU: processCPU())
        if time >= nextSensorRead {
            readSensors()
            nextSensorRead = time + governor.settings.sensorInterval
        }
        if time >= nextDecision {
            let (share, recent) = frameCostsAt(time)
            governor.adjust(cpuPercent: stats.cpu.percent, processedRate: windowRate.rate(at: time), frameSharePercent: share,
                            recentFrameCost: recent, at: time)
            nextDecision = time + governor.settings.window / 2
        } else {
            governor.refresh(at: time)
        }
        collectNotices()
        if pacer.shouldProcess(at: time, rate: governor.status.targetRate) { return .process }
        stats.skip()
        return .skip
    }

    /// The frame offered at `time` was processed: its thread CPU seconds, and whether it showed a face.
    public mutating func processed(frameAt time: Double, cpuSeconds: Double, faceSeen: Bool) {
        stats.processed(at: time, cpuSeconds: cpuSeconds)
        windowRate.add(time)
        frameCosts.add(time, cpuSeconds)
        governor.observe(faceSeen: faceSeen, at: time)
        collectNotices()
    }

    /// A frame the caller dropped because a newer one was already waiting (it fell behind).
    public mutating func droppedLate() { stats.dropLate() }

    /// Notices since the last call, oldest first.
    public mutating func takeNotices() -> [BudgetNotice] {
        defer { notices = [] }
        return notices
    }

    /// The frames' share of a core over the span the CPU meter measured (frames processed after its first
    /// reading, before the current one), and the mean cost of the frames in the window's second half.
    private func frameCostsAt(_ time: Double) -> (share: Double?, recent: Double?) {
        guard let start = stats.cpu.windowStart, time > start else { return (nil, nil) }
        let measured = frameCosts.entries.filter { $0.time >= start && $0.time < time }
        let share = measured.reduce(0) { $0 + $1.value } / (time - start) * 100
        let recentHalf = measured.filter { $0.time > time - frameCosts.span / 2 }
        let recent = recentHalf.isEmpty ? Array(measured.suffix(1)) : recentHalf
        guard !recent.isEmpty else { return (share, nil) }
        return (share, recent.reduce(0) { $0 + $1.value } / Double(recent.count))
    }

    private mutating func readSensors() {
        var problems: [SysfsProblem] = []
        if let supplies {
            let reading = supplies.read()
            governor.observe(supply: reading)
            problems += reading.problems
        }
        if let thermal {
            let (celsius, p) = thermal.read()
            governor.observe(celsius: celsius)
            problems += p
        }
        // Each problem once, not at every reading.
        for p in problems where reportedProblems.insert(p.description).inserted { notices.append(.sensorProblem(p)) }
    }

    private mutating func collectNotices() {
        let s = governor.status
        defer { reported = s }
        if s.battery != reported.battery { notices.append(.battery(s.battery, percent: s.batteryPercent)) }
        if s.thermal != reported.thermal { notices.append(.thermal(s.thermal, celsius: s.celsius)) }
        if s.runtimeCapPercent != reported.runtimeCapPercent { notices.append(.runtimeCap(percent: s.runtimeCapPercent)) }
        if s.mode != reported.mode { notices.append(.mode(s.mode, targetRate: s.targetRate)) }
        if s.overBudget != reported.overBudget {
            notices.append(.budget(met: !s.overBudget, measuredPercent: s.measuredPercent ?? 0, budgetPercent: s.budgetPercent))
        }
    }
}
