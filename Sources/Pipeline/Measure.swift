#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time of the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID): what a frame really cost,
/// whatever else the machine was doing.
public enum ThreadCPUClock {
    public static func now() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }
}

/// Monotonic wall-clock time in seconds (CLOCK_MONOTONIC), for pacing and rates.
public enum MonotonicClock {
    public static func now() -> Double { seconds(CLOCK_MONOTONIC) }
}

/// CPU time of the whole process (all threads), in seconds (CLOCK_PROCESS_CPUTIME_ID): what the governor keeps
/// inside its budget, capture and bookkeeping included.
public enum ProcessCPUClock {
    public static func now() -> Double { seconds(CLOCK_PROCESS_CPUTIME_ID) }
}

/// A POSIX clock's reading in seconds.
private func seconds(_ clock: clockid_t) -> Double {
    var t = timespec()
    clock_gettime(clock, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Collects per-frame costs and reports median and tail. Storage is reserved up front.
public struct CostSummary: Sendable {
    private var samples: [Double] = []

    public init(expectedCount: Int = 1024) { samples.reserveCapacity(expectedCount) }

    public mutating func add(_ value: Double) { samples.append(value) }
    public var count: Int { samples.count }

    /// The value below which `fraction` of the samples lie (nearest rank); nil when empty.
    public func percentile(_ fraction: Double) -> Double? { nearestRank(samples, fraction) }

    public var median: Double? { percentile(0.5) }
    public var maximum: Double? { samples.max() }
}

/// The value below which `fraction` of the samples lie (nearest rank); nil when empty.
func nearestRank(_ samples: [Double], _ fraction: Double) -> Double? {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, rank))]
}
