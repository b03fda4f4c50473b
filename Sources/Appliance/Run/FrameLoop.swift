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

    /// Frames processed (face search, landmarks, gestures).
    var frames = 0
    var framesWithFace = 0
    /// Frames passed over because the governor's rate did not call for them (or it paused the loop).
    var budgetSkipped = 0
    /// Sum of the vision CPU time of all frames, milliseconds.
    var visionMilliseconds = 0.0
    /// MonotonicClock time of the last frame; nil before the first.
    var lastFrameAt: Double?
    var face = Face.none
    var source = LiveSourceCounters()
    /// Why the source gives no frames now (the camera is away), nil while it does.
    var sourceProblem: String?
    var governor: GovernorStatus?
    /// Paused by a command (MQTT), not by the governor.
    var commandPaused = false
    /// The last processed frame's time (the recording's or the camera's clock, as events have it) and the
    /// head there (nil without a face): what the setup page plots, against the resting pose and the zones.
    var frameTime = 0.0
    var pose: Angles?
    var neutral: Angles?
    /// The gesture settings in use (the guided fit starts from them), and their zones (the page's plot).
    var gestures = GestureSettings()
    var zones: GestureSettings.Zones { gestures.zones }
}

/// The newest processed frame and what was seen in it, kept for the setup page's live picture.
struct LoopPicture: Sendable {
    var frame: LumaFrame
    var face: FaceObservation?
}

/// Keeps the live picture for the setup page (the frame loop's and a replay's): only until `wantedUntil`
/// (someone asked for it lately), at most one every `interval`, so no viewer costs no copy at all.
struct PictureKeeper: Sendable {
    static let interval = 0.15
    private var wantedUntil = -Double.infinity
    private var takenAt = -Double.infinity
    private var picture: LoopPicture?

    /// The newest picture kept (nil until one is), and keep keeping them for `seconds` from `now`.
    mutating func watch(for seconds: Double, now: Double) -> LoopPicture? {
        wantedUntil = now + seconds
        return picture
    }

    /// A processed frame: kept if someone is watching and the last one is old enough; dropped when nobody is.
    mutating func offer(_ frame: LumaFrame, face: FaceObservation?, now: Double) {
        if now < wantedUntil && now - takenAt >= Self.interval {
            // A copy of the pixels happens only when the source next writes into `frame`.
            picture = LoopPicture(frame: frame, face: face)
            takenAt = now
        } else if now >= wantedUntil {
            picture = nil
        }
    }
}

/// Settings the frame loop takes between two frames after a reload: a new engine, a new vision processor
/// when vision settings changed (made, and so checked, by whoever asks), a new budget.
struct LoopUpdate: @unchecked Sendable {
    var gestures: GestureSettings
    var processor: FaceProcessor?
    var budget: BudgetSettings
}

/// The synchronous heart of `nodwire run`, on a thread of its own (vision is CPU work that must not sit
/// in the async pool): newest frame → governor (process it or not) → face and pose → gesture engine →
/// every event to the outputs and the stream. It tells systemd READY=1 after the first frame and
/// WATCHDOG=1 while it goes round (frames, or a camera it is trying to get back).
///
/// Safety: the outputs see every event before the stream does; when the loop stops watching (camera
/// lost, paused, settings replaced, shutdown) it first closes what the engine has open (look_stop,
/// face_lost), so no hold outlives the face; a camera outage also puts every output into its fault state.
final class FrameLoop: @unchecked Sendable {
    private let source: any LiveFrameSource
    private let sinks: [any EventSink]
    private let outputs: OutputRunner?
    private let notifier: SystemdNotifier
    private let logger: Logger
    private var processor: FaceProcessor
    private var engine: GestureEngine
    private var governed: GovernedLoop
    private let readSensors: Bool
    private let lock = NSLock()
    private var snapshot = FrameLoopSnapshot()
    private var pendingUpdate: LoopUpdate?
    /// Lines for the stream from elsewhere (the MQTT link's connection news), sent by the loop itself so
    /// the sinks keep a single caller.
    private var notes: [(type: String, reason: String?)] = []
    /// Asked for by commands (MQTT), taken between frames.
    private var recalibrationRequested = false
    private var pauseRequested = false
    private let stopped = StopSignal()
    /// Added to frame times for the governor: a source whose clock stood still during a pause (a recording)
    /// must not take the governor's time backwards.
    private var clockOffset = 0.0
    private var pausedUntil: Double?
    private var pictures = PictureKeeper()
    /// Where the head samples go while the setup page records a guided fit.
    private var tap: SampleTap?

    init(source: any LiveFrameSource, processor: FaceProcessor, gestures: GestureSettings, budget: BudgetSettings,
         readSensors: Bool = true, outputs: OutputRunner?, sinks: [any EventSink], notifier: SystemdNotifier, logger: Logger) {
        self.source = source
        self.processor = processor
        engine = GestureEngine(settings: gestures)
        snapshot.gestures = gestures
        governed = GovernedLoop(settings: budget, startTime: 0, readSensors: readSensors)
        self.readSensors = readSensors
        self.outputs = outputs
        self.sinks = sinks
        self.notifier = notifier
        self.logger = logger
    }

    var current: FrameLoopSnapshot { lock.withLock { snapshot } }

    /// Asks the loop to end after the current frame; any thread.
    func stop() {
        stopped.raise()
        source.interrupt()
    }

    /// A line for the stream (`{"frame":…,"time":…,"type":type,"reason":reason}`), sent before the next frame; any thread.
    func note(_ type: String, reason: String?) { lock.withLock { notes.append((type, reason)) } }

    /// Learn the resting pose again, from the next frame on; any thread.
    func requestRecalibration() { lock.withLock { recalibrationRequested = true } }

    /// Stop watching (camera off, what is open closed) from the next frame on, until resumed; any thread.
    func setPaused(_ on: Bool) { lock.withLock { pauseRequested = on } }

    /// The newest frame kept for a viewer (nil until one is), and keep keeping them for `seconds`; any thread.
    func watchPicture(for seconds: Double = 3) -> LoopPicture? {
        lock.withLock { pictures.watch(for: seconds, now: MonotonicClock.now()) }
    }

    /// Records every processed frame's head sample into `tap` from the next frame on (nil stops); any thread.
    func record(into tap: SampleTap?) { lock.withLock { self.tap = tap } }

    /// Hands new settings to the loop, applied before the next frame; any thread.
    func update(_ update: LoopUpdate) { lock.withLock { pendingUpdate = update } }

    /// Runs until the source ends, `stop()` is called, or the source or an output fails (thrown; the
    /// outputs are safe by then).
    func run() throws(RunError) {
        var frame = LumaFrame(width: 1, height: 1)
        defer {
            try? endEngine(at: frame, reason: "stopping")
            source.close()
            if let outputs {
                for e in outputs.shutdown() { logger.error("releasing the outputs: \(e)") }
            }
        }
        var lastPing = -Double.infinity
        var sourceDown: String?
        var ready = false
        while !stopped.isRaised {
            let step = try source.nextNewest(into: &frame)
            let now = MonotonicClock.now()
            for n in lock.withLock({ () -> [(type: String, reason: String?)] in defer { notes = [] }; return notes }) {
                publishLine(EventJSON.line(n.type, frame: frame.index, time: frame.time, reason: n.reason))
            }
            let (recalibrate, hold) = lock.withLock { () -> (Bool, Bool) in
                defer { recalibrationRequested = false }
                return (recalibrationRequested, pauseRequested)
            }
            if hold {
                guard try pauseByCommand(at: frame, lastPing: &lastPing) else { return }
                continue
            }
            if recalibrate, case .frame = step {
                logger.notice("recalibrating on request: learning the resting pose again")
                try restartEngine(at: frame, reason: "recalibrate")
            }
            switch step {
            case .ended:
                return
            case let .unavailable(why):
                if sourceDown == nil { try sourceLost(why, at: frame) } else if why != sourceDown { logger.info("still no frames: \(why)") }
                sourceDown = why
                lock.withLock { snapshot.sourceProblem = why }
                if !ready {
                    // Waiting for a camera at start (--wait-for-camera): the service is up, its outputs
                    // safe, its status saying why; systemd must not count that as a failed start.
                    ready = true
                    notifier.ready()
                }
                ping(now, &lastPing)
                continue
            case .frame:
                if let until = pausedUntil {
                    clockOffset = max(clockOffset, until - frame.time)
                    pausedUntil = nil
                }
                if sourceDown != nil {
                    sourceDown = nil
                    lock.withLock { snapshot.sourceProblem = nil }
                    try sourceBack(at: frame)
                }
            }
            if let update = lock.withLock({ () -> LoopUpdate? in defer { pendingUpdate = nil }; return pendingUpdate }) {
                try apply(update, at: frame)
            }
            if let failure = outputs?.failure { throw .outputs(failure.message, exitCode: failure.exitCode) }

            // The governor runs on the frames' own clock (seconds since the first, from the camera or the
            // recording's pace), so what it measures is what the source delivered.
            let t = frame.time + clockOffset
            let decision = governed.offer(frameAt: t)
            try takeNotices()
            if decision == .skip, !source.wantsEveryFrame || governed.status.mode == .paused {
                lock.withLock {
                    snapshot.budgetSkipped += 1
                    snapshot.governor = governed.status
                    snapshot.source = source.counters
                }
                ping(now, &lastPing)
                if governed.status.mode == .paused {
                    guard try pause(at: frame, lastPing: &lastPing) else { return }
                }
                continue
            }

            let result = processor.process(frame)
            governed.processed(frameAt: t, cpuSeconds: result.cpuMilliseconds / 1000, faceSeen: result.face != nil)
            try takeNotices()
            let sample = HeadSample(result)
            for event in engine.process(sample) { try publish(event) }
            let (first, tap): (Bool, SampleTap?) = lock.withLock {
                snapshot.frames += 1
                if result.face != nil { snapshot.framesWithFace += 1 }
                snapshot.visionMilliseconds += result.cpuMilliseconds
                snapshot.lastFrameAt = now
                snapshot.face = !engine.state.facePresent ? .none : engine.state.calibrating ? .calibrating : .tracked
                snapshot.source = source.counters
                snapshot.governor = governed.status
                snapshot.frameTime = frame.time
                snapshot.pose = result.face.map { Angles(yaw: $0.pose.yaw, pitch: $0.pose.pitch) }
                snapshot.neutral = engine.state.neutral
                pictures.offer(frame, face: result.face, now: now)
                return (snapshot.frames == 1, self.tap)
            }
            tap?.add(sample, frame: frame)
            if first {
                logger.info("receiving frames from \(source.name): \(source.details)")
                if !ready { notifier.ready() }
                ready = true
            }
            ping(now, &lastPing)
        }
    }

    /// Keep-alives only from the loop itself: if it stops going round, systemd's watchdog notices.
    private func ping(_ now: Double, _ last: inout Double) {
        if let interval = notifier.watchdogInterval, now - last >= interval {
            notifier.watchdog()
            last = now
        }
    }

    private func publish(_ event: GestureEvent) throws(RunError) {
        // The outputs first: a switch must not lag behind what a reader of the stream is told.
        do { try outputs?.handle(event) } catch {
            let failure = error as? Failure ?? Failure(message: "\(error)", exitCode: 74)
            publishLine(EventJSON.line(event))
            throw .outputs(failure.message, exitCode: failure.exitCode)
        }
        publishLine(EventJSON.line(event))
        switch event.kind {
        case .move: break
        case .unheard: logger.debug("unheard", metadata: ["frame": "\(event.frame)", "why": "\(event.unheard?.sentence ?? "")"])
        default: logger.info("\(event.kind.rawValue)", metadata: Self.metadata(event))
        }
    }

    private func publishLine(_ line: String) {
        for sink in sinks { sink.deliver(line: line) }
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
    private func endEngine(at frame: LumaFrame, reason: String) throws(RunError) {
        if let look = engine.state.activeLook {
            try publish(GestureEvent(.lookStop, frame: frame.index, time: frame.time, direction: look, reason: reason))
        }
        if engine.state.facePresent {
            try publish(GestureEvent(.faceLost, frame: frame.index, time: frame.time, reason: reason))
        }
    }

    /// The loop stops watching for a while (or for good with these settings): the old engine ends cleanly
    /// for its consumers, and a new one learns the resting pose again when frames come back (the camera
    /// may have been moved, the person may have changed).
    private func restartEngine(at frame: LumaFrame, reason: String, settings: GestureSettings? = nil) throws(RunError) {
        try endEngine(at: frame, reason: reason)
        engine = GestureEngine(settings: settings ?? engine.settings)
        lock.withLock { snapshot.gestures = engine.settings }   // the settings change only here, not each frame
    }

    /// The camera went away: say so, close what is open, every output to safe (fault) until it is back.
    private func sourceLost(_ why: String, at frame: LumaFrame) throws(RunError) {
        logger.error("no frames from \(source.name): \(why)")
        publishLine(EventJSON.line("camera_lost", frame: frame.index, time: frame.time, reason: why))
        try restartEngine(at: frame, reason: "camera_lost")
        outputs?.fault()
        lock.withLock { snapshot.face = .none }
    }

    private func sourceBack(at frame: LumaFrame) throws(RunError) {
        logger.notice("frames from \(source.name) again: \(source.details)", metadata: ["restarts": "\(source.counters.restarts)"])
        publishLine(EventJSON.line("camera_found", frame: frame.index, time: frame.time))
        do { try outputs?.clearFault() } catch {
            throw .outputs("\(error)", exitCode: (error as? Failure)?.exitCode ?? 74)
        }
    }

    /// Critical battery or heat: the engine ends as if the face were lost, the camera is switched off, and
    /// the governor is asked once a second (it reads the sensors) until it allows frames again.
    /// False if the loop was stopped meanwhile.
    private func pause(at frame: LumaFrame, lastPing: inout Double) throws(RunError) -> Bool {
        let s = governed.status
        let why = s.battery == .paused ? "battery critical" : "too hot"
        logger.warning("paused: \(why); the camera is off until it is over")
        publishLine(EventJSON.line("paused", frame: frame.index, time: frame.time, reason: why))
        try restartEngine(at: frame, reason: "paused")
        source.suspend()
        let start = MonotonicClock.now()
        var t = frame.time + clockOffset
        while governed.status.mode == .paused {
            if stopped.wait(until: MonotonicClock.now() + 1) { return false }
            let now = MonotonicClock.now()
            // No frames: the frames' clock goes on with the wall clock.
            t = frame.time + clockOffset + now - start
            _ = governed.offer(frameAt: t)
            try takeNotices()
            lock.withLock { snapshot.governor = governed.status }
            ping(now, &lastPing)
        }
        pausedUntil = t
        logger.notice("resumed: \(governed.status.mode.rawValue) at \(EventJSON.number(governed.status.targetRate, 1)) fps")
        publishLine(EventJSON.line("resumed", frame: frame.index, time: frame.time))
        return true
    }

    /// Paused by a command: like a governor pause (the engine ends, the camera is off) until resumed.
    /// False if the loop was stopped meanwhile.
    private func pauseByCommand(at frame: LumaFrame, lastPing: inout Double) throws(RunError) -> Bool {
        logger.notice("paused on request; the camera is off until resumed")
        publishLine(EventJSON.line("paused", frame: frame.index, time: frame.time, reason: "command"))
        try restartEngine(at: frame, reason: "paused")
        source.suspend()
        lock.withLock { snapshot.commandPaused = true; snapshot.face = .none }
        let start = MonotonicClock.now()
        while lock.withLock({ pauseRequested }) {
            if stopped.wait(until: MonotonicClock.now() + 0.25) { return false }
            ping(MonotonicClock.now(), &lastPing)
        }
        // The frames' clock goes on with the wall clock, as in a governor pause.
        pausedUntil = frame.time + clockOffset + MonotonicClock.now() - start
        lock.withLock { snapshot.commandPaused = false }
        logger.notice("resumed on request")
        publishLine(EventJSON.line("resumed", frame: frame.index, time: frame.time, reason: "command"))
        return true
    }

    /// The governor's notices go to the log; a low battery also to the status LED.
    private func takeNotices() throws(RunError) {
        for notice in governed.takeNotices() {
            switch notice {
            case .budget(met: false, _, _), .battery(.paused, _), .thermal(.paused, _): logger.warning("budget: \(notice)")
            case .sensorProblem: logger.warning("budget: \(notice)")
            default: logger.notice("budget: \(notice)")
            }
            if case let .battery(severity, _) = notice {
                do { try outputs?.setLowBattery(severity != .normal) } catch {
                    throw .outputs("\(error)", exitCode: (error as? Failure)?.exitCode ?? 74)
                }
            }
        }
    }

    /// New gesture settings start a new engine, which learns the resting pose again. Its consumers see
    /// the old one end cleanly first: a look in progress stops and the face counts as lost, with reason
    /// config_reload, so every look_start still has its look_stop. A new budget starts a new governor.
    private func apply(_ update: LoopUpdate, at frame: LumaFrame) throws(RunError) {
        if let p = update.processor { processor = p }
        if update.budget != governed.governor.settings {
            governed = GovernedLoop(settings: update.budget, startTime: frame.time, readSensors: readSensors)
            logger.info("new budget in use: \(EventJSON.number(update.budget.cpuPercent, 1)) % of a core, up to \(EventJSON.number(update.budget.activeRate, 1)) fps")
        }
        guard update.gestures != engine.settings else { return }
        try restartEngine(at: frame, reason: "config_reload", settings: update.gestures)
        logger.info("new gesture settings in use; learning the resting pose again")
    }
}
