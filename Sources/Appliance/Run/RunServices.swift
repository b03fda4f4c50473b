import Foundation
import Logging
import Pipeline
import ServiceLifecycle
import UnixSignals

/// The frame loop as a service: its thread runs until the source ends or the group shuts down.
/// On shutdown it tells systemd STOPPING=1 and lets the current frame finish.
struct FrameLoopService: Service {
    let loop: FrameLoop
    let notifier: SystemdNotifier
    let logger: Logger

    func run() async throws {
        let loop = self.loop
        let notifier = self.notifier
        let outcome: Result<Void, RunError> = await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    do throws(RunError) {
                        try loop.run()
                        continuation.resume(returning: .success(()))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                thread.name = "nodwire-frames"
                thread.stackSize = 8 << 20   // the landmark fitter recurses over a deep cascade
                thread.start()
            }
        } onCancelOrGracefulShutdown: {
            notifier.stopping()
            loop.stop()
        }
        notifier.stopping()
        let done = loop.current
        logger.info("frame loop ended", metadata: ["frames": "\(done.frames)", "frames_with_face": "\(done.framesWithFace)",
                                                   "skipped": "\(done.source.skipped)", "budget_skipped": "\(done.budgetSkipped)"])
        try outcome.get()
    }
}

/// Every `interval` seconds: a STATUS= line for systemd (and a debug log line) with the frame rate, the
/// CPU used and what is seen.
struct StatusService: Service {
    let loop: FrameLoop
    let notifier: SystemdNotifier
    let sourceName: String
    let interval: Double
    let logger: Logger
    /// Added to the line when there is something to say (the MQTT link's trouble).
    var note: (@Sendable () -> String?)?
    /// Ends every status line while it holds (`NodwireConfig.noOutputsWarning`).
    var warning: String? = nil

    func run() async throws {
        let (loop, notifier, sourceName, interval, logger, note, warning) = (self.loop, self.notifier, self.sourceName, self.interval, self.logger, self.note, self.warning)
        do {
            try await cancelWhenGracefulShutdown {
                var previous = loop.current
                var previousAt = MonotonicClock.now()
                var previousCPU = ProcessCPUClock.now()
                while true {
                    try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                    let now = MonotonicClock.now()
                    let cpu = ProcessCPUClock.now()
                    let current = loop.current
                    var text = StatusLine.text(previous: previous, current: current, seconds: now - previousAt,
                                               cpuSeconds: cpu - previousCPU, now: now, source: sourceName)
                    if let extra = note?() { text += ", \(extra)" }
                    if let warning { text += "; \(warning)" }
                    notifier.status(text)
                    logger.debug("status: \(text)")
                    (previous, previousAt, previousCPU) = (current, now, cpu)
                }
            }
        } catch is CancellationError {}
    }
}

/// Reloads the config file on SIGHUP. A file the loader refuses is logged and ignored (the running
/// settings stay); an accepted one changes the log level and format at once and gives the frame loop
/// new gesture (and vision) settings.
struct ReloadService: Service {
    /// Made before the group starts, so a SIGHUP is caught from before READY=1 on.
    let hangups: UnixSignalsSequence
    let configPath: String?
    let initial: NodwireConfig
    let loop: FrameLoop
    let logControl: LogControl
    let logger: Logger

    func run() async throws {
        var running = initial
        for await _ in hangups.cancelOnGracefulShutdown() {
            guard let path = configPath else {
                logger.warning("SIGHUP: nothing to reload (run was started without --config)")
                continue
            }
            switch ConfigReload.prepare(path: path, running: running) {
            case let .refused(message):
                logger.error("config reload refused, the running settings stay: \(message)")
            case let .accepted(config, update, changes, restartNeeded):
                logControl.apply(config.logging)
                if let update { loop.update(update) }
                running = config
                let what = changes.isEmpty ? "no changes" : "changed " + changes.joined(separator: ", ")
                logger.notice("config reloaded from \(path): \(what)")
                if !restartNeeded.isEmpty {
                    logger.warning("these take effect at the next start: \(restartNeeded.joined(separator: ", "))")
                }
            }
        }
    }
}

/// Ends the event outputs after the frame loop: what is buffered is sent, the socket file removed.
/// (The group shuts services down in reverse order, so this one, listed first, goes last.)
struct EventOutputService: Service {
    let server: EventSocketServer?
    let stdout: StdoutEventWriter?

    func run() async throws {
        server?.start()
        try? await gracefulShutdown()
        server?.stop()
        stdout?.finish()
    }
}

/// The status line: "25.0 fps, CPU 31%, vision 4.2 ms/frame, face tracked" or why there are no frames.
enum StatusLine {
    static func text(previous: FrameLoopSnapshot, current: FrameLoopSnapshot, seconds: Double, cpuSeconds: Double,
                     now: Double, source: String) -> String {
        let frames = current.frames - previous.frames
        let cpu = seconds > 0 ? Int((100 * cpuSeconds / seconds).rounded()) : 0
        if current.commandPaused { return "paused on request, camera off, CPU \(cpu)%" }
        if let g = current.governor, g.mode == .paused {
            return "paused (\(g.battery == .paused ? "battery critical" : "too hot")), camera off, CPU \(cpu)%"
        }
        if let problem = current.sourceProblem { return "no frames from \(source): \(problem), CPU \(cpu)%" }
        guard frames > 0, seconds > 0 else {
            guard let last = current.lastFrameAt else { return "waiting for the first frame from \(source), CPU \(cpu)%" }
            return "no frames from \(source) for \(Int(now - last)) s, CPU \(cpu)%"
        }
        let rate = Double(frames) / seconds
        let vision = (current.visionMilliseconds - previous.visionMilliseconds) / Double(frames)
        var text = "\(EventJSON.number(rate, 1)) fps, CPU \(cpu)%, vision \(EventJSON.number(vision, 1)) ms/frame, \(current.face.rawValue)"
        let skipped = current.source.skipped - previous.source.skipped
        if skipped > 0 { text += ", \(skipped) \(skipped == 1 ? "frame" : "frames") skipped (too slow)" }
        if let g = current.governor {
            if g.mode == .idle { text += ", idle (no face) at \(EventJSON.number(g.targetRate, 1)) fps" }
            if g.overBudget { text += ", over the CPU budget of \(EventJSON.number(g.budgetPercent, 1))%" }
            if g.battery == .reduced { text += ", battery low" }
            if g.thermal == .reduced { text += ", hot" }
        }
        return text
    }
}
