import Foundation
import Gestures
import Hummingbird
import Logging
import Pipeline

/// The guided fit on the setup page: the same steps and rules as `nodwire calibrate --gestures`.
/// With a camera, the page shows each prompt while the frame loop hands over every head sample (a
/// `SampleTap`: it appends and never waits); at the end the fit is worked out here, off the loop. With a
/// labelled recording as the source (`run --source clip.y4m`, its NAME.labels.json beside it) the fit runs
/// on that recording at once, its labels as the prompts: the way to try the whole thing without a person.
/// Saving writes only the fitted settings (old file kept as .bak) and reloads them as SIGHUP does.
final class WebFit: @unchecked Sendable {
    enum Phase {
        case idle
        case recording(SampleTap, FitSchedule)
        case working
        case done(FitReport)
        case failed(String)
    }

    struct Reply { var ok: Bool; var message: String }

    /// Paces a person may choose: shorter for someone who tires, longer for someone who needs time.
    static let paces = 0.25...2.0

    let loop: FrameLoop
    let configPath: String?
    /// A labelled recording being played, whose labels are the prompts.
    let labelledClip: (video: String, labels: String)?
    /// The settings nodwire was started with (the recording fit runs its own pipeline with them).
    let config: NodwireConfig
    let logger: Logger
    /// Saving and reloading, as the page's own settings form does.
    var tuning: WebTuning
    private let lock = NSLock()
    private var phase = Phase.idle

    /// Where sessions are kept as clips when asked (web.sessions_dir), and at what frame rate.
    var sessionsDir: String { config.web.sessionsDir }
    let frameRate: Double
    /// The last kept session (or why it could not be kept), for the page.
    private var kept: String?

    init(loop: FrameLoop, configPath: String?, sourcePath: String?, config: NodwireConfig, frameRate: Double = 15, logger: Logger) {
        self.loop = loop
        self.configPath = configPath
        self.frameRate = frameRate
        self.config = config
        self.logger = logger
        tuning = WebTuning(configPath: configPath, logger: logger)
        labelledClip = sourcePath.flatMap { video in
            let labels = ClipLabels.path(beside: video)
            return FileManager.default.fileExists(atPath: labels) ? (video, labels) : nil
        }
    }

    func start(pace: Double, keep: Bool = false) -> Reply {
        guard Self.paces.contains(pace) else {
            return Reply(ok: false, message: "pace \(EventJSON.number(pace, 2)) is not allowed: from \(Self.paces.lowerBound) (quick) to \(Self.paces.upperBound) (slow)")
        }
        let busy: Bool = lock.withLock { if case .working = phase { return true }; return false }
        guard !busy else { return Reply(ok: false, message: "a fit is being worked out; wait for it") }
        if let clip = labelledClip {
            replacePhase(with: .working)
            let settings = loop.current.gestures
            Thread.detachNewThread { [self] in
                let outcome = Result { try Self.fitRecording(clip, settings: settings, config: config) }
                lock.withLock {
                    switch outcome {
                    case let .success(p): phase = .done(FitReport(proposal: p, current: settings))
                    case let .failure(e): phase = .failed("\(e)")
                    }
                }
            }
            logger.notice("web: guided fit on the recording \(clip.video), its labels as the prompts")
            return Reply(ok: true, message: "fitting on the recording \(clip.video) with its labels as the prompts")
        }
        var clipPath: String?
        if keep {
            guard !sessionsDir.isEmpty else {
                return Reply(ok: false, message: "web.sessions_dir is not set: a session can be kept as a clip only in a folder the config names")
            }
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sessionsDir, isDirectory: &folder), folder.boolValue,
                  FileManager.default.isWritableFile(atPath: sessionsDir) else {
                return Reply(ok: false, message: "web.sessions_dir \(sessionsDir): not a folder this service may write (docs/web.md)")
            }
            let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
            clipPath = "\(sessionsDir)/fit-\(stamp).y4m"
        }
        // A session under way ends (and its clip goes) before the new one's clip is opened: both may have
        // the same name within a second.
        replacePhase(with: .idle)
        let clip = clipPath.map { SessionClipWriter(path: $0, frameRate: frameRate) }
        let tap = SampleTap(clip: clip)
        lock.withLock { phase = .recording(tap, FitSchedule(scale: pace)) }
        loop.record(into: tap)
        logger.notice("web: guided fit started\(clip.map { ", keeping the session as \($0.path)" } ?? "")")
        return Reply(ok: true, message: "started: follow the prompts")
    }

    func cancel() -> Reply {
        replacePhase(with: .idle)
        return Reply(ok: true, message: "the fit was stopped; nothing was changed")
    }

    /// Moves to `next`, ending a session under way first (a Stop, or a new Start over it): the loop stops
    /// handing it samples, and a clip it was keeping is closed (its thread ends) and removed, because a
    /// session stopped half way is not kept.
    private func replacePhase(with next: Phase) {
        loop.record(into: nil)
        let running: SampleTap? = lock.withLock {
            defer { phase = next; kept = nil }
            if case let .recording(tap, _) = phase { return tap }
            return nil
        }
        if let clip = running?.clip {
            _ = clip.finish()
            try? FileManager.default.removeItem(atPath: clip.path)
        }
    }

    /// The state for the page; finishes a live session whose prompts are over.
    func json() -> String {
        let current: Phase = lock.withLock { phase }
        switch current {
        case .idle:
            return "{\"state\":\"idle\",\"source\":\"\(labelledClip == nil ? "live" : "recording")\",\"can_save\":\(configPath != nil)}"
        case .working:
            return "{\"state\":\"working\"}"
        case let .failed(message):
            return "{\"state\":\"failed\",\"message\":\(EventJSON.quoted(message))}"
        case let .done(report):
            let clip = lock.withLock { kept }
            return "{\"state\":\"done\",\"can_save\":\(configPath != nil),\"report\":\(report.json),\"text\":\(EventJSON.quoted(report.text)),"
                + "\"kept\":\(clip.map(EventJSON.quoted) ?? "null")}"
        case let .recording(tap, schedule):
            let t = tap.first.flatMap { a in tap.last.map { $0.time - a.time } } ?? 0
            if t > schedule.duration || tap.count >= SampleTap.limit {
                finish(tap, schedule)
                return json()
            }
            let p = schedule.prompt(at: t)
            return "{\"state\":\"recording\",\"step\":\(p.step.map { "\"\($0.rawValue)\"" } ?? "null"),\"prompt\":\(EventJSON.quoted(p.text)),"
                + "\"seconds_left\":\(EventJSON.number(p.secondsLeft, 1)),\"progress\":\(EventJSON.number(min(1, t / schedule.duration), 3)),"
                + "\"face\":\(loop.current.face != .none)}"
        }
    }

    private func finish(_ tap: SampleTap, _ schedule: FitSchedule) {
        loop.record(into: nil)
        let samples = tap.all
        let settings = loop.current.gestures
        let t0 = samples.first?.time ?? 0
        let recording = FitRecording(entries: samples.map { .init(sample: $0, step: schedule.step(at: $0.time - t0)) })
        let keptClip = tap.clip.map { keep($0, schedule: schedule, start: t0) }
        let next: Phase
        do { next = .done(FitReport(proposal: try GestureFit.propose(recording, from: settings), current: settings)) } catch {
            next = .failed("\(error)")
        }
        lock.withLock {
            // Only the session that was running (a cancel or a new start in between wins).
            if case let .recording(running, _) = phase, running === tap { phase = next; kept = keptClip }
        }
    }

    /// Ends the session's clip and writes its prompts beside it; says where, or why not.
    private func keep(_ clip: SessionClipWriter, schedule: FitSchedule, start: Double) -> String {
        switch clip.finish() {
        case let .failure(f):
            logger.error("web: the session could not be kept: \(f.message)")
            return "not kept: \(f.message)"
        case let .success(times):
            let labels = ClipLabels.path(beside: clip.path)
            let json = FitLabels.json(times.map { schedule.step(at: $0 - start) }, frameRate: clip.frameRate, source: "nodwire run: guided fit on the setup page")
            do { try json.write(toFile: labels, atomically: true, encoding: .utf8) } catch {
                return "not kept: \(labels): \(error.localizedDescription)"
            }
            let note = clip.dropped > 0 ? " (\(clip.dropped) frames dropped: the disk fell behind)" : ""
            logger.notice("web: session kept as \(clip.path) and \(labels)\(note)")
            return "\(clip.path) and \(labels)\(note)"
        }
    }

    /// Writes the proposal's changed settings into the config file and reloads it.
    func save() -> Reply {
        let report: FitReport? = lock.withLock { if case let .done(r) = phase { return r }; return nil }
        guard let report else { return Reply(ok: false, message: "there is no finished fit to save: run one first") }
        let reply = tuning.write(report.values, what: "guided fit")
        return Reply(ok: reply.status == .ok, message: reply.message)
    }

    /// The fit on a whole labelled recording, every frame, through the pipeline as `nodwire replay` runs it,
    /// with a processor of its own.
    static func fitRecording(_ clip: (video: String, labels: String), settings: GestureSettings, config: NodwireConfig) throws -> FitProposal {
        let steps = FitLabels.steps(try ClipLabels.read(path: clip.labels))
        var recording = FitRecording()
        _ = try Replay(file: clip.video, settings: config, processor: try ConfigReload.processor(config.vision))
            .run(onFrame: { recording.append(HeadSample($0), step: steps[$0.index]) }, onEvent: { _ in })
        return try GestureFit.propose(recording, from: settings, reaction: 0)
    }

    /// `GET /api/fit`, `POST /api/fit/start` (form: `pace`), `/api/fit/cancel`, `/api/fit/save`.
    static func routes(_ router: Router<WebContext>, fit: WebFit, gate: @escaping @Sendable (Request, WebContext, Bool, String?) -> Response?) {
        router.get("/api/fit") { request, context in
            gate(request, context, false, nil) ?? WebServer.json(.ok, fit.json())
        }
        for action in ["start", "cancel", "save"] {
            router.post("/api/fit/\(action)") { request, context in
                var request = request
                let form = String(buffer: try await request.collectBody(upTo: context.maxUploadSize))
                if let refused = gate(request, context, true, WebServer.formField("token", in: form)) { return refused }
                let reply: Reply
                switch action {
                case "start":
                    let text = WebServer.formField("pace", in: form) ?? "1"
                    guard let pace = Double(text) else {
                        return WebServer.json(.badRequest, "{\"ok\":false,\"message\":\(EventJSON.quoted("pace \(EventJSON.quoted(text)) is not a number: from \(paces.lowerBound) to \(paces.upperBound)"))}")
                    }
                    reply = fit.start(pace: pace, keep: WebServer.formField("keep", in: form) == "1")
                case "cancel": reply = fit.cancel()
                default: reply = fit.save()
                }
                return WebServer.json(reply.ok ? .ok : .conflict, "{\"ok\":\(reply.ok),\"message\":\(EventJSON.quoted(reply.message))}")
            }
        }
    }
}
