import ArgumentParser
import Foundation
import Gestures
import Pipeline

/// `nodwire calibrate`: shows what the camera sees of the person (a one-line display) and measures their
/// rest and comfortable range, then proposes — and with --save writes — the idle zone and look thresholds.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Shows the live head pose against the idle zone and thresholds, and fits them to a person.",
        discussion: """
        Sit as you will use it. Look straight ahead until the display says "calibrated", keep still a moment, \
        then turn your head comfortably left and right and tilt it up and down, once or twice each. Thresholds \
        are set at half of the smaller reach of each axis, the idle zone from how still the head is at rest. \
        An axis whose directions were not both shown keeps its values. With --save the config file's \
        gestures.zones settings are changed in place (other lines stay; the old file is kept as FILE.bak).

        With --gestures: the guided fit (docs/gestures.md). Prompts, one after the other: look straight, turn \
        left, right, up, down as far as is comfortable, nod "yes" a few times, shake "no" a few times, talk for \
        20 seconds. From that session it proposes the idle zone, look thresholds and nod/shake sizes for this \
        person, replays the session with them and says what was found and whether anything fired while \
        talking. --save writes them (the old file kept as FILE.bak); --record keeps the session as a labelled \
        clip. With --source, a labelled clip's timeline (NAME.labels.json beside it) gives the prompts.
        """
    )

    @Option(help: "The config file to start from and, with --save, to change.")
    var config: String?

    @Option(name: .customLong("source"), help: "A YUV4MPEG2 recording instead of the camera.")
    var sourceFile: String?

    @Option(help: "The camera: its number in `nodwire cameras` or its id (instead of camera.id in the config).")
    var camera: String?

    @Option(help: "Seconds to measure (from the first frame).")
    var seconds = 20.0

    @Flag(help: "With --source: as fast as possible instead of at the recording's rate.")
    var fast = false

    @Flag(help: "Write the proposed settings into the --config file (the old file is kept as FILE.bak).")
    var save = false

    @Flag(help: "The guided fit: prompts for neutral, range, nods, shakes and talking, and fits the gesture settings too.")
    var gestures = false

    @Option(help: "With --gestures: the pace of the prompts, 0.25 (quick) to 2 (twice the time for each step).")
    var pace = 1.0

    @Option(help: "With --gestures --source: the clip's labelled timeline (default: NAME.labels.json beside NAME.y4m).")
    var labels: String?

    @Option(help: "With --gestures: keep the session as PREFIX.y4m and PREFIX.labels.json (its prompts), to replay, score and fit again later.")
    var record: String?

    func validate() throws {
        if save && config == nil { throw ValidationError("--save needs --config FILE (the file to change)") }
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        if camera != nil && sourceFile != nil { throw ValidationError("--camera and --source exclude each other: frames come from one of them") }
        if fast && sourceFile == nil { throw ValidationError("--fast needs --source FILE.y4m (a camera runs at its own pace)") }
        if labels != nil && (sourceFile == nil || !gestures) { throw ValidationError("--labels needs --gestures and --source FILE.y4m (the timeline of that clip)") }
        if pace != 1 && !gestures { throw ValidationError("--pace needs --gestures (it paces the guided fit's prompts)") }
        guard WebFit.paces.contains(pace) else { throw ValidationError("--pace \(pace) is not allowed: from \(WebFit.paces.lowerBound) (quick) to \(WebFit.paces.upperBound) (slow)") }
        if record != nil && !gestures { throw ValidationError("--record needs --gestures (it keeps the guided session)") }
    }

    func run() throws {
        if gestures { return try runFit() }
        var settings = try loadConfig(config)
        if let camera { settings.camera.camera = CameraSelector(parsing: camera) }
        let processor = try makeProcessor(settings.vision)
        var engine = GestureEngine(settings: settings.gestures)
        var zones = PersonalZones()
        let display = PoseDisplay(zones: settings.gestures.zones)
        try eachFrame(camera: settings.camera, display: display) { frame in
            if frame.time > seconds { return false }
            let result = processor.process(frame)
            _ = engine.process(HeadSample(result))
            let state = engine.state
            if state.facePresent, !state.calibrating, let offset = state.offset { zones.add(offset: offset) }
            display.show(state: state, pose: result.face?.pose, time: frame.time)
            return true
        }
        display.finish()

        let (proposed, missing) = zones.proposal(from: settings.gestures.zones)
        let r = zones.reach
        print("reach (degrees from neutral): left \(fmt(r.left)), right \(fmt(r.right)), up \(fmt(r.up)), down \(fmt(r.down))")
        print("rest spread (rms): yaw \(fmt(zones.restSpread.yaw)), pitch \(fmt(zones.restSpread.pitch)) over \(zones.restCount) samples")
        if !missing.isEmpty { print("not shown far enough (\(fmt(PersonalZones.minimumReach))°): \(missing.map(\.rawValue).joined(separator: ", ")); that axis keeps its values") }
        let keys: [(String, Double)] = [("gestures.zones.idle_yaw", proposed.idleYaw), ("gestures.zones.idle_pitch", proposed.idlePitch),
                                        ("gestures.zones.threshold_yaw", proposed.thresholdYaw), ("gestures.zones.threshold_pitch", proposed.thresholdPitch)]
        for (key, value) in keys { print("\(key) = \(fmt(value))") }
        guard save, let config else { return }
        let saved = try ConfigFileSave.save(keys.map { ($0.0, ConfigValue.double($0.1)) }, to: config)
        print("saved to \(saved.path) (the old file is \(saved.backup)); a running nodwire takes it on SIGHUP (systemctl reload nodwire)")
    }

    private func fmt(_ v: Double) -> String { EventJSON.number(v, 1) }

    /// Every frame of --source (as fast as possible with --fast) or of the camera, until `body` says
    /// false or the recording ends; a camera that has no frames for a while is shown on the display.
    func eachFrame(camera: CameraSettings, display: PoseDisplay, _ body: (LumaFrame) throws(RunError) -> Bool) throws {
        do throws(RunError) {
            let source: any LiveFrameSource
            if let sourceFile {
                source = PacedRecording(path: sourceFile, loop: false)
            } else {
                do { try camera.validate() } catch { throw .source("\(error)", exitCode: ConfigError.exitCode) }
                source = CameraSource(settings: camera)
            }
            try source.open()
            defer { source.close() }
            var frame = LumaFrame(width: 1, height: 1)
            var reader = fast ? sourceFile.flatMap { try? Y4MReader(path: $0) } : nil
            while true {
                if reader != nil {
                    do { guard try reader!.next(into: &frame) else { break } } catch { throw .source("\(error)", exitCode: 65) }
                } else {
                    let step = try source.nextNewest(into: &frame)
                    if step == .ended { break }
                    if case let .unavailable(why) = step {
                        display.problem(why)
                        continue
                    }
                }
                guard try body(frame) else { break }
            }
        } catch {
            throw error.failure
        }
    }
}

/// The one-line live display: face or not, pose from neutral, and where that is against the zones.
/// On a terminal the line is rewritten in place; otherwise one line a second.
final class PoseDisplay {
    let zones: GestureSettings.Zones
    private let terminal = isatty(2) == 1
    private var lastPrinted = -Double.infinity

    init(zones: GestureSettings.Zones) { self.zones = zones }

    func show(state: GestureEngine.State, pose: Pipeline.HeadPose?, time: Double) {
        if !terminal && time - lastPrinted < 1 { return }
        lastPrinted = time
        FileHandle.standardError.write(Data(((terminal ? "\r\u{1B}[K" : "") + line(state: state, pose: pose, time: time) + (terminal ? "" : "\n")).utf8))
    }

    func finish() { if terminal { FileHandle.standardError.write(Data("\n".utf8)) } }

    /// No frames now (the camera is away): said once a second at most, on a line of its own.
    func problem(_ why: String) { say("no frames: \(why)") }

    /// A line of its own above the live line (a prompt of the guided fit).
    func say(_ text: String) {
        FileHandle.standardError.write(Data(((terminal ? "\r\u{1B}[K" : "") + text + "\n").utf8))
    }

    func line(state: GestureEngine.State, pose: Pipeline.HeadPose?, time: Double) -> String {
        let t = EventJSON.number(time, 1)
        guard state.facePresent, pose != nil else { return "\(t) s  no face" }
        guard !state.calibrating, let o = state.offset else { return "\(t) s  face  calibrating: look straight ahead and keep still" }
        func axis(_ v: Double, _ idle: Double, _ threshold: Double, _ neg: String, _ pos: String) -> String {
            let where_ = abs(v) >= threshold ? (v < 0 ? neg : pos).uppercased() : abs(v) <= idle ? "rest" : (v < 0 ? neg : pos)
            return "\(v >= 0 ? "+" : "")\(EventJSON.number(v, 1))° \(where_)"
        }
        return "\(t) s  face  yaw \(axis(o.yaw, zones.idleYaw, zones.thresholdYaw, "left", "right")) (idle ±\(EventJSON.number(zones.idleYaw, 1)), look ±\(EventJSON.number(zones.thresholdYaw, 1)))"
            + "  pitch \(axis(o.pitch, zones.idlePitch, zones.thresholdPitch, "down", "up")) (idle ±\(EventJSON.number(zones.idlePitch, 1)), look ±\(EventJSON.number(zones.thresholdPitch, 1)))"
    }
}
