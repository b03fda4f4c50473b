import Foundation
import Pipeline

/// What a live source has done so far, for the status line and the log.
struct LiveSourceCounters: Equatable, Sendable {
    /// Frames handed to the frame loop.
    var delivered = 0
    /// Frames passed over because a newer one was ready when the loop asked (the loop was late).
    var skipped = 0
    /// Times the source started over (a looping recording's rewinds, a camera's restarts).
    var restarts = 0
}

/// What `LiveFrameSource.nextNewest` came back with.
enum SourceStep: Equatable, Sendable {
    /// The frame was filled with the newest picture.
    case frame
    /// The source ended (a recording without --loop) or was interrupted for shutdown.
    case ended
    /// No picture for now (the camera is away; the source is trying again on its own): why, for people.
    /// Returned at least once a second while it lasts, so the loop stays alive (watchdog, status).
    case unavailable(String)
}

/// Frames for `nodwire run`, always the newest: the camera, or a recording paced at its real rate.
///
/// The frame loop owns a source and calls it from its own thread: `open()` once, `nextNewest(into:)` until
/// it returns `.ended`, `close()` once. Only `interrupt()` may be called from any other thread: it makes a
/// waiting or later `nextNewest` return `.ended` promptly (for shutdown).
protocol LiveFrameSource: AnyObject, Sendable {
    /// Where frames come from, for messages ("camera 0", a file path).
    var name: String { get }
    /// What it delivers, for the log once frames arrive: "400x300 at 25 fps".
    var details: String { get }
    var counters: LiveSourceCounters { get }

    func open() throws(RunError)
    /// Waits for a frame newer than the last one delivered and fills `frame` with the newest there is
    /// (older ones are skipped, not queued). `index` counts source frames from 0 over the whole run and
    /// `time` is seconds since the first one, both only ever increasing, also across a camera's restarts.
    func nextNewest(into frame: inout LumaFrame) throws(RunError) -> SourceStep
    /// True when every frame must be processed (a recording played for a test): the loop then does not thin
    /// frames to its rate or CPU budget, so what it sees does not depend on the machine. It still pauses.
    var wantsEveryFrame: Bool { get }

    /// Stops capturing until the next `nextNewest` (the loop is paused: critical battery or heat).
    func suspend()
    func interrupt()
    func close()
}

extension LiveFrameSource {
    var wantsEveryFrame: Bool { false }
}

/// A flag one thread raises and others wait on with a deadline, waking at once when it is raised.
final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var raised = false

    var isRaised: Bool { condition.withLock { raised } }

    func raise() {
        condition.withLock {
            raised = true
            condition.broadcast()
        }
    }

    /// Sleeps until `deadline` (MonotonicClock seconds) or until raised; true if raised.
    func wait(until deadline: Double) -> Bool {
        condition.withLock {
            while !raised {
                let left = deadline - MonotonicClock.now()
                if left <= 0 { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left))
            }
            return raised
        }
    }
}

/// A Y4M recording played as if it were a camera: frame `i` becomes available `i / rate` seconds after the
/// first one was asked for, and a late loop gets the newest due frame, as from a camera. With `loop` it
/// starts over at the end (index and time keep counting up), so `run` can be tried without a camera.
/// With `everyFrame` a late loop is waited for instead: every frame is delivered, none before it is due,
/// and frame times stay the recording's, so what is seen does not depend on how fast this machine is.
final class PacedRecording: LiveFrameSource, @unchecked Sendable {
    let path: String
    let loop: Bool
    let everyFrame: Bool
    var wantsEveryFrame: Bool { everyFrame }
    var name: String { path }
    private(set) var width = 0
    private(set) var height = 0
    private(set) var frameRate = 0.0
    var details: String { "\(width)x\(height) at \(EventJSON.number(frameRate, 2)) fps" }
    var counters: LiveSourceCounters { lock.withLock { _counters } }

    private var reader: Y4MReader?
    private var start: Double?
    private var framesPerPass = 0
    private var passes = 0
    private var readInPass = 0
    private let stop = StopSignal()
    private let lock = NSLock()
    private var _counters = LiveSourceCounters()

    init(path: String, loop: Bool, everyFrame: Bool = false) {
        self.path = path
        self.loop = loop
        self.everyFrame = everyFrame
    }

    func open() throws(RunError) {
        let r = try Self.openReader(path)
        width = r.width
        height = r.height
        frameRate = r.frameRate
        reader = r
    }

    private static func openReader(_ path: String) throws(RunError) -> Y4MReader {
        do { return try Y4MReader(path: path) } catch {
            if case .cannotOpen = error { throw .source("\(error)", exitCode: 66) }
            throw .source("\(error)", exitCode: 65)
        }
    }

    func nextNewest(into frame: inout LumaFrame) throws(RunError) -> SourceStep {
        guard var r = reader else { return .ended }
        defer { reader = r }
        let start = self.start ?? MonotonicClock.now()
        self.start = start
        let period = 1 / frameRate
        while !stop.isRaised {
            let more: Bool
            do { more = try r.next(into: &frame) } catch { throw .source("\(error)", exitCode: 65) }
            if !more {
                guard loop else { return .ended }
                guard readInPass > 0 else { throw .source("\(path): the recording has no frames to loop", exitCode: 65) }
                framesPerPass = readInPass
                readInPass = 0
                passes += 1
                r = try Self.openReader(path)
                lock.withLock { _counters.restarts += 1 }
                continue
            }
            readInPass += 1
            frame.index += passes * framesPerPass
            frame.time = Double(frame.index) * period
            let due = start + frame.time
            let now = MonotonicClock.now()
            if !everyFrame, now >= due + period {
                // The next frame is already due: a camera would have overwritten this one.
                lock.withLock { _counters.skipped += 1 }
                continue
            }
            if due > now, stop.wait(until: due) { return .ended }
            lock.withLock { _counters.delivered += 1 }
            return .frame
        }
        return .ended
    }

    /// A recording keeps its pace while paused: frames that come due meanwhile are skipped.
    func suspend() {}

    func interrupt() { stop.raise() }

    func close() { reader = nil }
}
