import ArgumentParser
import Foundation
import Gestures
import Pipeline

/// `nodwire replay FILE.y4m`: the whole pipeline on a recording, one JSON event a line on stdout.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Runs the gesture pipeline on a recording and prints each event as a JSON line.",
        discussion: """
        Events: face_found, face_lost, calibrated, look_start, look_stop, look, nod, shake (and move with --moves).
        Each has "frame" (0-based, in the file), "time" (seconds, from the file's frame rate) and "type".
        Left and right are the person's own (their right is the image's left unless vision.mirrored is set).
        """
    )

    @Argument(help: "A YUV4MPEG2 recording (8-bit; Cmono or C420/C422/C444, any size).")
    var file: String

    @Option(help: "A config file (see `nodwire config defaults`).")
    var config: String?

    @Flag(help: ArgumentHelp("Pace frames at the recording's rate instead of as fast as possible, inside the config's CPU budget.",
                             discussion: "With [web] enabled in the config, also serves the setup page while it plays (docs/web.md)."))
    var realtime = false

    @Flag(help: "Also print a move event for every frame (pointer, neutral, offset, proportional speed).")
    var moves = false

    @Flag(help: "Print a JSON summary on stderr at the end: frames, frames with a face, CPU ms a frame, wall time; governed, also the budget, measured CPU %, processed, skipped and late frames.")
    var stats = false

    @OptionGroup var outputOptions: ReplayOutputOptions

    @Option(help: ArgumentHelp("CPU budget, percent of one core: the governor skips frames to stay inside it (docs/budgets.md).",
                               discussion: "With --realtime the config's budget.cpu_percent applies without this option.",
                               valueName: "percent"))
    var budget: Double?

    @Option(help: ArgumentHelp("Process at most this many frames a second, the rest dropped as a device at this rate drops them.",
                               discussion: "`nodwire evaluate --rate` scores the same; without it every frame is processed.", valueName: "fps"))
    var rate: Double?

    @Option(help: ArgumentHelp("Begin this many seconds in, as if the face were first seen there.",
                               discussion: "`nodwire evaluate --start` scores the same; event frames stay the file's.", valueName: "seconds"))
    var start: Double?

    func run() throws {
        var settings = try loadConfig(config)
        if let rate { try checkRate(rate) }
        if let start { try checkStart(start) }
        if moves { settings.gestures.moves.enabled = true }
        let web = try ReplayWeb.make(settings, realtime: realtime)
        let output = LineOutput()
        // --budget governs, with the outputs too; --realtime the config's budget.
        let governed = try budgetSettings(settings, percent: budget, realtime: realtime)
        if outputOptions.outputs {
            return try OutputReplay(file: file, settings: settings, processor: makeProcessor(settings.vision),
                                    options: outputOptions, realtime: realtime, stats: stats, web: web, rate: rate,
                                    start: start ?? 0, budget: governed).run(output)
        }
        let processor = try makeProcessor(settings.vision)
        try web?.start(outputs: nil, pulsable: [], sourceName: file)
        defer { web?.stop() }
        let summary = try Replay(file: file, settings: settings, processor: processor, budget: governed, watch: web?.watch, rate: rate,
                                 start: start ?? 0)
            .run(realtime: realtime) { output.write(EventJSON.line($0)) }
        output.flush()
        if stats { FileHandle.standardError.write(Data((summary.json + "\n").utf8)) }
    }
}

/// The pipeline over a recording: frames → face and pose → gesture events, as fast as it can or paced.
struct Replay {
    struct Summary {
        var frames = 0
        /// Frames that went through the pipeline (all of them, unless a rate or budget dropped some).
        var processed = 0
        var framesWithFace = 0
        /// The recording's frames per second.
        var frameRate = 0.0
        var cost = CostSummary(expectedCount: 4096)
        var wallSeconds = 0.0
        /// The governed loop's own account, when a budget applied.
        var loop: GovernedLoop?

        var json: String {
            "{\"frames\":\(frames),\"frames_processed\":\(processed),\"frames_with_face\":\(framesWithFace),"
                + "\"cpu_ms_per_frame\":{\"median\":\(EventJSON.number(cost.median ?? 0, 3)),\"p99\":\(EventJSON.number(cost.percentile(0.99) ?? 0, 3))},"
                + "\"wall_seconds\":\(EventJSON.number(wallSeconds, 3))\(loop.map { ",\"budget\":" + $0.summaryJSON } ?? "")}"
        }
    }

    let file: String
    let settings: NodwireConfig
    let processor: FaceProcessor
    /// Governs the rate when set (frames are skipped to stay inside the CPU budget); nil processes every frame.
    var budget: BudgetSettings? = nil
    /// The setup page's view of the replay (`--realtime` with [web]), told every frame and event.
    var watch: ReplayWatch? = nil
    /// Process at most this many frames a second, the rest dropped as a device running at this rate drops them
    /// (`nodwire evaluate --rate`); nil processes every frame the budget allows.
    var rate: Double? = nil
    /// Seconds into the recording where processing begins (`nodwire evaluate --start`): the frames before are
    /// read and counted, never processed, as if the camera first saw the face then.
    var start: Double = 0

    /// Frame times are sums of rounded periods: a frame this close before `start` is at it.
    static let startTolerance = 1e-6

    /// The first frame at or after `start` seconds, at `frameRate`.
    static func firstFrame(at start: Double, frameRate: Double) -> Int {
        start > 0 ? Int((start * frameRate - startTolerance * frameRate).rounded(.up)) : 0
    }

    /// `beforeFrame` gets each frame's time before it is processed (the outputs wait for it there);
    /// `onFrame` each processed frame's vision result (`nodwire evaluate` scores its pose).
    func run(realtime: Bool = false, beforeFrame: (Double) throws -> Void = { _ in },
             onFrame: (FrameResult) throws -> Void = { _ in },
             onEvent: (GestureEvent) throws -> Void) throws -> Summary {
        var source: Y4MReader
        do { source = try Y4MReader(path: file) } catch { throw Failure(message: "\(error)", exitCode: 66) }
        var engine = GestureEngine(settings: settings.gestures)
        var frame = source.makeFrame()
        var summary = Summary()
        summary.frameRate = source.frameRate
        var loop = budget.map { GovernedLoop(settings: $0, startTime: 0, readSensors: false) }
        var pacer = FramePacer()
        let wallStart = MonotonicClock.now()
        while true {
            do { guard try source.next(into: &frame) else { break } } catch { throw Failure(message: "\(error)", exitCode: 65) }
            summary.frames += 1
            if frame.time < start - Self.startTolerance { continue }
            if realtime {
                let due = wallStart + (frame.time - start) - MonotonicClock.now()
                if due > 0 { Thread.sleep(forTimeInterval: due) }
                // Governed, a frame whose successor is already due is stale: the newest frame wins.
                if loop != nil, -due > 1 / source.frameRate { loop?.droppedLate(); continue }
            }
            try beforeFrame(frame.time)
            if let rate, !pacer.shouldProcess(at: frame.time, rate: rate) { continue }
            if loop?.offer(frameAt: frame.time) == .skip {
                reportNotices(&loop)
                watch?.skipped(governor: loop?.status)
                continue
            }
            let result = processor.process(frame)
            summary.processed += 1
            loop?.processed(frameAt: frame.time, cpuSeconds: result.cpuMilliseconds / 1000, faceSeen: result.face != nil)
            reportNotices(&loop)
            summary.cost.add(result.cpuMilliseconds)
            if result.face != nil { summary.framesWithFace += 1 }
            try onFrame(result)
            let events = engine.process(HeadSample(result))
            watch?.processed(frame, result, engine: engine, governor: loop?.status)
            for event in events {
                try onEvent(event)
                watch?.deliver(event)
            }
        }
        summary.wallSeconds = MonotonicClock.now() - wallStart
        summary.loop = loop
        return summary
    }
}

extension HeadSample {
    /// What the gesture engine needs of one frame's vision result.
    init(_ r: FrameResult) {
        self.init(frame: r.index, time: r.time, pose: r.face.map {
            Gestures.HeadPose(yaw: $0.pose.yaw, pitch: $0.pose.pitch, pointerX: $0.pose.pointer.x, pointerY: $0.pose.pointer.y,
                              faceSize: $0.box.width, sightYaw: $0.pose.sightYaw, sightPitch: $0.pose.sightPitch,
                              eyesRight: $0.pose.eyesRight, eyesUp: $0.pose.eyesUp, cornerDrop: $0.pose.cornerDrop)
        }, newFace: r.face?.isNewFace ?? false)
    }
}

/// Buffered stdout writes, flushed at the end and whenever the buffer grows, so event lines are never torn.
final class LineOutput {
    private var buffer = ""
    func write(_ line: String) {
        buffer += line
        buffer += "\n"
        if buffer.utf8.count > 4096 { flush() }
    }
    func flush() {
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}
