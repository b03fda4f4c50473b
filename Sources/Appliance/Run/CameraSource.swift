import Foundation
import Pipeline

/// The camera as a `LiveFrameSource` for `nodwire run`: the newest frame each time, and when the camera goes
/// away (unplugged, stalled, taken by another program) it is closed and opened again on the keeper's backoff
/// schedule, while `nextNewest` reports `.unavailable` so the loop can say so and keep its watchdog fed.
///
/// Frame numbers and times go on across restarts: a reopened camera counts from 0 again, so each restart
/// continues after the last delivered frame, its time after the outage's real length.
final class CameraSource<Camera: LumaCamera>: LiveFrameSource, @unchecked Sendable {
    let name: String
    /// Seconds without a frame before an open camera counts as stalled (and is reopened).
    let frameTimeout: Double
    var counters: LiveSourceCounters { lock.withLock { _counters } }
    var details: String { lock.withLock { _details } }

    private var keeper: CameraKeeper<Camera>
    private let describe: (Camera) -> String
    private let stop = StopSignal()
    private let lock = NSLock()
    private var _counters = LiveSourceCounters()
    private var _details = ""
    /// The camera object frames come from now; another one means the camera was opened again.
    private var current: ObjectIdentifier?
    private var opens = 0
    private var indexBase = 0
    private var timeBase = 0.0
    /// The last delivered frame: its run-wide index and time, and the monotonic time it came.
    private var last: (index: Int, time: Double, at: Double)?
    /// Frames the cameras opened before this one dropped, so drops add up over restarts.
    private var droppedEarlier = 0

    /// - Parameters:
    ///   - describe: what the camera delivers, for the log ("636x480-BGR888 (asked 640x480), 30 fps asked").
    ///   - open: opens and starts the camera (`CameraCapture(settings:)`).
    init(name: String, frameTimeout: Double = 2, schedule: BackoffSchedule = BackoffSchedule(),
         clock: @escaping () -> Double = MonotonicClock.now,
         describe: @escaping (Camera) -> String, open: @escaping () throws(CameraError) -> Camera) {
        self.name = name
        self.frameTimeout = frameTimeout
        self.describe = describe
        keeper = CameraKeeper(schedule: schedule, clock: clock, open: open)
    }

    /// The first try: a camera that cannot be opened at start is refused with its own message and exit code
    /// (under systemd, Restart= tries again); later losses are retried here.
    func open() throws(RunError) {
        guard keeper.current() != nil else {
            if case let .waiting(_, _, error) = keeper.state { throw .source(error.description, exitCode: error.exitCode) }
            throw .source("\(name): cannot open the camera", exitCode: 69)
        }
    }

    func nextNewest(into frame: inout LumaFrame) throws(RunError) -> SourceStep {
        while !stop.isRaised {
            if let wait = keeper.retryIn, wait > 0 {
                // Away: wait for the next try, but come back within a second to say so.
                if stop.wait(until: MonotonicClock.now() + min(wait, 1)) { return .ended }
                if keeper.retryIn ?? 0 > 0 { return .unavailable(outage) }
                continue
            }
            guard keeper.next(into: &frame, timeout: frameTimeout), let camera = keeper.camera else {
                return stop.isRaised ? .ended : .unavailable(outage)
            }
            delivered(&frame, from: camera)
            return .frame
        }
        return .ended
    }

    /// Why there are no frames, and when the next try is.
    private var outage: String {
        guard case let .waiting(failures, _, error) = keeper.state else { return "\(name): no frames" }
        let retry = keeper.retryIn.map { "; trying again in \(EventJSON.number($0, 1)) s (try \(failures + 1))" } ?? ""
        return "\(error)\(retry)"
    }

    private func delivered(_ frame: inout LumaFrame, from camera: Camera) {
        let now = MonotonicClock.now()
        let id = ObjectIdentifier(camera)
        let counts = camera.counters
        if id != current {
            // A newly opened camera: continue after the last frame, the gap as long as it really was.
            if let last {
                indexBase = last.index + 1
                timeBase = last.time + max(now - last.at, 0)
            }
            droppedEarlier = lock.withLock { _counters.skipped }
            current = id
            opens += 1
            let text = describe(camera)
            lock.withLock {
                _details = text
                if opens > 1 { _counters.restarts += 1 }
            }
        }
        frame.index += indexBase
        frame.time += timeBase
        last = (frame.index, frame.time, now)
        lock.withLock {
            _counters.delivered += 1
            _counters.skipped = droppedEarlier + counts.dropped
        }
    }

    func suspend() {
        keeper.close()
        current = nil
    }

    func interrupt() { stop.raise() }

    func close() { keeper.close() }
}

extension CameraSource where Camera == CameraCapture {
    /// The configured camera, opened with `CameraCapture`.
    convenience init(settings: CameraSettings) {
        self.init(name: "camera \(settings.camera)", describe: { capture in
            let s = capture.stream
            var text = "\(s.text)"
            if s.adjusted { text += " (asked \(capture.settings.width)x\(capture.settings.height))" }
            text += capture.requestedFrameRate.map { " at \(EventJSON.number($0, 1)) fps" } ?? " at the camera's own rate"
            return text + " from \(capture.camera.label)"
        }, open: { () throws(CameraError) in try CameraCapture(settings: settings) })
    }
}
