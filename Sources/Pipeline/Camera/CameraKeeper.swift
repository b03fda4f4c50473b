#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A source of camera frames `CameraKeeper` can keep open: `CameraCapture`, or a stand-in in tests.
public protocol LumaCamera: AnyObject {
    /// Fills `frame` with the newest picture; throws when the camera is gone or stalls.
    func next(into frame: inout LumaFrame, timeout: Double) throws(CameraError)
    /// Frames captured, delivered and dropped since it started.
    var counters: CameraCounters { get }
}

extension CameraCapture: LumaCamera {}

/// How long to wait before trying a failed camera again: `first` seconds after the first failure, `factor`
/// times longer after each further one, never more than `maximum`. A pure function of the failure count.
public struct BackoffSchedule: Sendable, Equatable {
    public var first = 0.5
    public var factor = 2.0
    public var maximum = 30.0

    public init(first: Double = 0.5, factor: Double = 2.0, maximum: Double = 30.0) {
        self.first = first
        self.factor = factor
        self.maximum = maximum
    }

    /// Seconds to wait after `failures` failures in a row (0 before any).
    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        let d = first * pow(max(factor, 1), Double(failures - 1))
        return d.isFinite ? min(d, maximum) : maximum
    }
}

/// Keeps a camera open in a long-running loop: opens it when a try is due, closes it when it fails
/// (unplugged, stalled, busy), and waits per the schedule before the next try. It never sleeps: `state`
/// tells the loop what is going on and `retryIn` how long until the next try. The clock is injected.
public struct CameraKeeper<Camera: LumaCamera> {
    public enum State: Sendable, Equatable {
        /// Not tried yet.
        case idle
        case open
        /// `failures` tries in a row failed, the last with `error`; the next is due at `retryAt` (clock time).
        case waiting(failures: Int, retryAt: Double, error: CameraError)
    }

    public private(set) var state: State = .idle
    public private(set) var camera: Camera?
    public let schedule: BackoffSchedule
    private var failures = 0
    private let clock: () -> Double
    private let open: () throws(CameraError) -> Camera

    public init(schedule: BackoffSchedule = BackoffSchedule(), clock: @escaping () -> Double = MonotonicClock.now,
                open: @escaping () throws(CameraError) -> Camera) {
        self.schedule = schedule
        self.clock = clock
        self.open = open
    }

    /// Seconds until the next try (0 when one is due now), nil when the camera is open.
    public var retryIn: Double? {
        switch state {
        case .open: return nil
        case .idle: return 0
        case let .waiting(_, at, _): return max(0, at - clock())
        }
    }

    /// The open camera, opening it first if a try is due; nil while waiting.
    public mutating func current() -> Camera? {
        if let camera { return camera }
        if case let .waiting(_, at, _) = state, clock() < at { return nil }
        do {
            camera = try open()
            state = .open
            return camera
        } catch {
            fail(error)
            return nil
        }
    }

    /// Closes the camera on purpose (to save power): no failure, and the next `current()` opens it at once.
    public mutating func close() {
        camera = nil
        state = .idle
    }

    /// Records a failure of the camera (or of opening it): closes it and schedules the next try.
    public mutating func fail(_ error: CameraError) {
        camera = nil
        failures += 1
        state = .waiting(failures: failures, retryAt: clock() + schedule.delay(afterFailures: failures), error: error)
    }

    /// The next frame, or false while the camera is away (`state` says why, `retryIn` until when).
    /// A delivered frame resets the failure count, so the next outage starts at the shortest wait.
    public mutating func next(into frame: inout LumaFrame, timeout: Double = 2) -> Bool {
        guard let camera = current() else { return false }
        do {
            try camera.next(into: &frame, timeout: timeout)
            failures = 0
            return true
        } catch {
            fail(error)
            return false
        }
    }
}
