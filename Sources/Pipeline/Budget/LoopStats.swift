/// Events in a sliding time span, newest last; for "how many in the last second" questions.
struct TimeWindow<Value>: Sendable where Value: Sendable {
    private(set) var entries: [(time: Double, value: Value)] = []
    let span: Double

    init(span: Double) { self.span = span }

    /// Adds an entry and forgets those older than the span, keeping one at or before the span's start.
    mutating func add(_ time: Double, _ value: Value) {
        entries.append((time, value))
        let start = time - span
        var drop = 0
        while drop + 1 < entries.count && entries[drop + 1].time <= start { drop += 1 }
        if drop > 0 { entries.removeFirst(drop) }
    }
}

/// Processing rate from frame timestamps: over the last `span` seconds and since the first frame.
public struct FrameRateMeter: Sendable {
    private var window: TimeWindow<Int>
    private var first: Double?
    private var last: Double?
    public private(set) var count = 0

    public init(span: Double = 1) { window = TimeWindow(span: span) }

    public mutating func add(_ time: Double) {
        if first == nil { first = time }
        last = time
        count += 1
        window.add(time, count)
    }

    /// Frames a second in the span ending at `now`: counted frames after the span's start, over the span
    /// (or over the time since the first frame, while that is shorter).
    public func rate(at now: Double) -> Double {
        guard let first else { return 0 }
        let start = now - window.span
        let inSpan = window.entries.filter { $0.time > start && $0.time <= now }.count
        let length = min(window.span, now - first)
        return length > 0 ? Double(inSpan) / length : 0
    }

    /// Frames a second from the first frame to the last.
    public var averageRate: Double {
        guard let first, let last, last > first else { return 0 }
        return Double(count - 1) / (last - first)
    }
}

/// Process CPU use over a sliding window, from (time, process CPU seconds) readings.
public struct CPUUsageMeter: Sendable {
    private var window: TimeWindow<Double>
    private var first: (time: Double, cpu: Double)?

    public init(window: Double) { self.window = TimeWindow(span: window) }

    public mutating func add(time: Double, cpuSeconds: Double) {
        if first == nil { first = (time, cpuSeconds) }
        window.add(time, cpuSeconds)
    }

    /// Percent of one core over the window ending at the last reading (nil until a quarter window is covered).
    public var percent: Double? {
        guard let a = window.entries.first, let b = window.entries.last, b.time - a.time >= window.span / 4 else { return nil }
        return (b.value - a.value) / (b.time - a.time) * 100
    }

    /// Time of the oldest reading in the window.
    var windowStart: Double? { window.entries.first?.time }

    /// Percent of one core since the first reading.
    public var averagePercent: Double? {
        guard let first, let b = window.entries.last, b.time > first.time else { return nil }
        return (b.value - first.cpu) / (b.time - first.time) * 100
    }
}

/// The costs of the last `capacity` frames (a ring: a loop that runs for months keeps a fixed amount),
/// plus a running mean of all.
public struct RecentCosts: Sendable {
    private var ring: [Double] = []
    private var next = 0
    private var total = 0.0
    public let capacity: Int
    /// Frames added, all told.
    public private(set) var count = 0

    public init(capacity: Int = 1024) {
        self.capacity = capacity
        ring.reserveCapacity(capacity)
    }

    public mutating func add(_ value: Double) {
        if ring.count < capacity { ring.append(value) } else { ring[next] = value }
        next = (next + 1) % capacity
        total += value
        count += 1
    }

    /// Over the recent frames: the value below which `fraction` of them lie (nearest rank); nil when empty.
    public func percentile(_ fraction: Double) -> Double? { nearestRank(ring, fraction) }

    public var median: Double? { percentile(0.5) }
    public var maximum: Double? { ring.max() }
    public var mean: Double? { count > 0 ? total / Double(count) : nil }
}

/// What the loop did: frames offered, processed and dropped, how fast, and what it cost.
public struct LoopStats: Sendable {
    /// Frames offered to the loop (each one the newest from the camera or file).
    public private(set) var captured = 0
    /// Frames dropped by the governor's pacing or a pause.
    public private(set) var skipped = 0
    /// Frames dropped because a newer one was already waiting (the caller fell behind).
    public private(set) var late = 0
    public var processed: Int { processedRate.count }
    public var dropped: Int { skipped + late }
    /// Processed frames: rate over the last second and since the first.
    public private(set) var processedRate = FrameRateMeter(span: 1)
    /// Thread CPU time of the recent processed frames, milliseconds.
    public private(set) var frameCost = RecentCosts()
    /// Process CPU use, percent of one core, over the governor's window and since the start.
    public private(set) var cpu: CPUUsageMeter

    public init(window: Double) { cpu = CPUUsageMeter(window: window) }

    mutating func offered(at time: Double, processCPU: Double) {
        captured += 1
        cpu.add(time: time, cpuSeconds: processCPU)
    }
    mutating func skip() { skipped += 1 }
    mutating func dropLate() { captured += 1; late += 1 }
    mutating func processed(at time: Double, cpuSeconds: Double) {
        processedRate.add(time)
        frameCost.add(cpuSeconds * 1000)
    }
}
