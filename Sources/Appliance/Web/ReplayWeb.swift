import Foundation
import Gestures
import Logging
import Pipeline
import ServiceLifecycle

/// The setup page's view of a replay: the snapshot and the picture that `FrameLoop` keeps for `nodwire
/// run`, kept here from the replay's own frames (the replay's output stays what it is without a page),
/// and every event line to the pages.
final class ReplayWatch: LoopView, @unchecked Sendable {
    let hub: WebHub
    private let lock = NSLock()
    private var snapshot = FrameLoopSnapshot()
    private var pictures = PictureKeeper()

    init(hub: WebHub) { self.hub = hub }

    var current: FrameLoopSnapshot { lock.withLock { snapshot } }

    func watchPicture(for seconds: Double) -> LoopPicture? {
        lock.withLock { pictures.watch(for: seconds, now: MonotonicClock.now()) }
    }

    /// A frame the governor passed over.
    func skipped(governor: GovernorStatus?) {
        lock.withLock {
            snapshot.budgetSkipped += 1
            snapshot.governor = governor
        }
    }

    /// A processed frame, and the engine after it.
    func processed(_ frame: LumaFrame, _ result: FrameResult, engine: GestureEngine, governor: GovernorStatus?) {
        let now = MonotonicClock.now()
        lock.withLock {
            snapshot.frames += 1
            if result.face != nil { snapshot.framesWithFace += 1 }
            snapshot.visionMilliseconds += result.cpuMilliseconds
            snapshot.lastFrameAt = now
            snapshot.face = !engine.state.facePresent ? .none : engine.state.calibrating ? .calibrating : .tracked
            snapshot.governor = governor
            snapshot.frameTime = frame.time
            snapshot.pose = result.face.map { Angles(yaw: $0.pose.yaw, pitch: $0.pose.pitch) }
            snapshot.neutral = engine.state.neutral
            snapshot.gestures = engine.settings
            pictures.offer(frame, face: result.face, now: now)
        }
    }

    func deliver(_ event: GestureEvent) { hub.deliver(line: EventJSON.line(event)) }
}

/// The setup page beside `nodwire replay --realtime` when the config enables `[web]` (for trying the page
/// on a recording): served as `nodwire run` serves it, from the first frame to the end of the replay.
/// Signals keep their meaning for the replay (no handler of the page's takes them over).
final class ReplayWeb: @unchecked Sendable {
    let watch: ReplayWatch
    private let settings: WebSettings
    private let token: String?
    private let logger: Logger
    private let ended = StopSignal()
    private let lock = NSLock()
    private var group: ServiceGroup?
    private var failure: (any Error)?

    /// The page's side for this replay, or nil: without `[web]`, or without `realtime` (then it says once,
    /// on stderr, that it does not serve the page). A token file that cannot be read is refused here (78),
    /// before any frame.
    static func make(_ config: NodwireConfig, realtime: Bool) throws(Failure) -> ReplayWeb? {
        guard config.web.enable else { return nil }
        guard realtime else {
            FileHandle.standardError.write(Data("nodwire: the config enables [web], but replay serves the setup page only with --realtime (without it the recording runs faster than real time); not serving it\n".utf8))
            return nil
        }
        return ReplayWeb(config, token: try WebSetup.token(config.web))
    }

    private init(_ config: NodwireConfig, token: String?) {
        settings = config.web
        self.token = token
        logger = LogControl(config.logging).logger("nodwire")
        watch = ReplayWatch(hub: WebHub(capacity: config.web.clientBufferBytes, logger: logger))
    }

    /// Serves the page and returns once it is served; throws (69) if the address cannot be had.
    /// `outputs`: the replay's outputs (`--outputs`), which the page shows and may pulse.
    func start(outputs: OutputRunner?, pulsable: [String], sourceName: String) throws(Failure) {
        let ready = StopSignal()
        let service = WebSetup.service(settings, token: token, hub: watch.hub, loop: watch, outputs: outputs, pulsable: pulsable,
                                       sourceName: sourceName, logger: logger, onRunning: { ready.raise() })
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "nodwire.services") { _ in SwiftLogNoOpLogHandler() }))
        lock.withLock { self.group = group }
        Task.detached { [self] in
            do { try await group.run() } catch { lock.withLock { failure = error } }
            ended.raise()
            ready.raise()
        }
        guard ready.wait(until: MonotonicClock.now() + 60) else {
            throw Failure(message: "web.listen \(settings.listen): the setup page did not start within 60 s", exitCode: 69)
        }
        if let failure = lock.withLock({ failure }) {
            throw failure as? Failure ?? Failure(message: "web.listen \(settings.listen): cannot serve the setup page: \(failure)", exitCode: 69)
        }
    }

    /// Ends the page's streams and the server; waits (a few seconds at most) until they are.
    func stop() {
        guard let group = lock.withLock({ group }) else { return }
        Task.detached { await group.triggerGracefulShutdown() }
        _ = ended.wait(until: MonotonicClock.now() + 5)
    }
}
