import Foundation
import Gestures
import Logging
import Pipeline

/// What the frame loop has done, shared with the status reporter. Counts only go up.
struct FrameLoopSnapshot: Equatable, Sendable {
    enum Face: String, Sendable {
        case none = "no face"
        case calibrating = "face found, calibrating"
        case tracked = "face tracked"
    }

    var frames = 0
    var framesWithFace = 0
    /// Sum of the vision CPU time of all frames, milliseconds.
    var visionMilliseconds = 0.0
    /// MonotonicClock time of the last frame; nil before the first.
    var lastFrameAt: Double?
    var face = Face.none
    var source = LiveSourceCounters()
}

/// Settings the frame loop takes between two frames after a reload: a new engine, and a new vision
/// processor when vision settings changed (made, and so checked, by whoever asks).
struct LoopUpdate: @unchecked Sendable {
    var gestures: GestureSettings
    var processor: FaceProcessor?
}

/// The synchronous heart of `nodwire run`, on a thread of its own (vision is CPU work that must not sit
/// in the async pool): newest frame → face and pose → gesture engine → every event to the sinks.
/// It tells systemd READY=1 after the first frame and WATCHDOG=1 while frames keep coming.
final class FrameLoop: @unchecked Sendable {
    private let source: any LiveFrameSource
    private let sinks: [any EventSink]
    private let notifier: SystemdNotifier
    private let logger: Logger
    private var processor: FaceProcessor
    private var engine: GestureEngine
    private let lock = NSLock()
    private var snapshot = FrameLoopSnapshot()
    private var pendingUpdate: LoopUpdate?
    private var stopped = false

    init(source: any LiveFrameSource, processor: FaceProcessor, gestures: GestureSettings, sinks: [any EventSink],
         notifier: SystemdNotifier, logger: Logger) {
        self.source = source
        self.processor = processor
        engine = GestureEngine(settings: gestures)
        self.sinks = sinks
        self.notifier = notifier
        self.logger = logger
    }

    var current: FrameLoopSnapshot { lock.withLock { snapshot } }

    /// Asks the loop to end after the current frame; any thread.
    func stop() {
        lock.withLock { stopped = true }
        source.interrupt()
    }

    /// Hands new settings to the loop, applied before the next frame; any thread.
    func update(_ update: LoopUpdate) { lock.withLock { pendingUpdate = update } }

    /// Runs until the source ends, `stop()` is called, or the source fails (thrown).
    func run() throws(RunError) {
        var frame = LumaFrame(width: max(1, source.width), height: max(1, source.height))
        defer {
            endEngine(at: frame, reason: "stopping")
            source.close()
        }
        var lastPing = -Double.infinity
        while !lock.withLock({ stopped }) {
            guard try source.nextNewest(into: &frame) else { break }
            if let update = lock.withLock({ () -> LoopUpdate? in defer { pendingUpdate = nil }; return pendingUpdate }) {
                apply(update, at: frame)
            }
            let result = processor.process(frame)
            let events = engine.process(HeadSample(result))
            for event in events { publish(event) }
            let now = MonotonicClock.now()
            let first: Bool = lock.withLock {
                snapshot.frames += 1
                if result.face != nil { snapshot.framesWithFace += 1 }
                snapshot.visionMilliseconds += result.cpuMilliseconds
                snapshot.lastFrameAt = now
                snapshot.face = !engine.state.facePresent ? .none : engine.state.calibrating ? .calibrating : .tracked
                snapshot.source = source.counters
                return snapshot.frames == 1
            }
            if first {
                logger.info("receiving frames from \(source.name): \(source.width)x\(source.height) at \(EventJSON.number(source.frameRate, 2)) fps")
                notifier.ready()
            }
            // Keep-alives only from here: if frames stop, systemd's watchdog notices.
            if let interval = notifier.watchdogInterval, now - lastPing >= interval {
                notifier.watchdog()
                lastPing = now
            }
        }
    }

    private func publish(_ event: GestureEvent) {
        let line = EventJSON.line(event)
        for sink in sinks { sink.deliver(event, line: line) }
        if event.kind != .move { logger.info("\(event.kind.rawValue)", metadata: Self.metadata(event)) }
    }

    private static func metadata(_ e: GestureEvent) -> Logger.Metadata {
        var m: Logger.Metadata = ["frame": "\(e.frame)"]
        if let d = e.direction { m["direction"] = "\(d.rawValue)" }
        if let d = e.distance { m["distance"] = "\(EventJSON.number(d, 1))" }
        if let c = e.cycles { m["cycles"] = "\(c)" }
        if let r = e.reason { m["reason"] = "\(r)" }
        return m
    }

    /// Closes what the engine has open for its consumers (outputs must not stay switched on): a look in
    /// progress stops and the face counts as lost, with `reason`.
    private func endEngine(at frame: LumaFrame, reason: String) {
        if let look = engine.state.activeLook {
            publish(GestureEvent(.lookStop, frame: frame.index, time: frame.time, direction: look, reason: reason))
        }
        if engine.state.facePresent {
            publish(GestureEvent(.faceLost, frame: frame.index, time: frame.time, reason: reason))
        }
    }

    /// New gesture settings start a new engine, which learns the resting pose again. Its consumers see
    /// the old one end cleanly first: a look in progress stops and the face counts as lost, with reason
    /// config_reload, so every look_start still has its look_stop.
    private func apply(_ update: LoopUpdate, at frame: LumaFrame) {
        if let p = update.processor { processor = p }
        guard update.gestures != engine.settings else { return }
        endEngine(at: frame, reason: "config_reload")
        engine = GestureEngine(settings: update.gestures)
        logger.info("new gesture settings in use; learning the resting pose again")
    }
}
