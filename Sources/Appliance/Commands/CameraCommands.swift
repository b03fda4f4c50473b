import ArgumentParser
import Foundation
import Pipeline

/// `nodwire cameras`: what cameras libcamera sees and what each offers.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "List the cameras and the sizes, pixel formats and frame rates each offers.",
        discussion: "Use a camera's number or id with `nodwire capture --camera` or the config key camera.id.")

    @Flag(help: "Print JSON instead of text.") var json = false

    func run() throws {
        CameraLog.quietUnlessAsked()
        let cameras: [CameraDescription]
        do { cameras = try CameraInventory.list() } catch { throw Failure(message: error.description, exitCode: error.exitCode) }
        let held = MediaDeviceLock.held()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let list = CameraListJSON(library: CameraInventory.libraryVersion, cameras: cameras.map(CameraJSON.init),
                                      in_use_by_others: held.map(\.description))
            print(String(decoding: try encoder.encode(list), as: UTF8.self))
        } else {
            print(CameraInventory.libraryVersion)
            print(Self.render(cameras), terminator: "")
            for lock in held { print("in use by another program: \(lock); a camera it streams from may be missing above") }
        }
        if cameras.isEmpty {
            if held.isEmpty { throw Failure(message: CameraError.noCameras.description, exitCode: CameraError.noCameras.exitCode) }
            throw Failure(message: "libcamera lists no cameras while another program uses the camera hardware ("
                + held.map(\.description).joined(separator: "; ") + "); stop that program and try again", exitCode: 75)
        }
    }

    /// One block per camera: id, model, proposal, rate control, then one line per pixel format.
    static func render(_ cameras: [CameraDescription]) -> String {
        var out = ""
        for c in cameras {
            out += "\(c.index): \(c.id)\n"
            var facts = ["model \(c.model ?? "unknown")", "location \(c.location.rawValue)"]
            if let r = c.mountingRotation { facts.append("mounted at \(r)°") }
            out += "   " + facts.joined(separator: ", ") + "\n"
            if let size = c.defaultSize, let format = c.defaultFormat { out += "   proposes \(size) \(format)\n" }
            if let rates = c.frameRates {
                out += "   frame rate can be set: \(number(rates.lowerBound))...\(number(rates.upperBound)) fps\n"
            } else {
                out += "   frame rate: the camera's own (it offers no FrameDurationLimits control)\n"
            }
            for f in c.formats {
                let mark = f.readable ? (PixelFormat.preferred.contains(f.format) ? "*" : "+") : " "
                var line = "  \(mark) \(f.name.padding(toLength: 9, withPad: " ", startingAt: 0)) \(f.minimum)...\(f.maximum)"
                if let step = f.step, step.width > 1 || step.height > 1 { line += " in steps of \(step)" }
                if !f.sizes.isEmpty {
                    let shown = f.sizes.prefix(8).map(\.description).joined(separator: " ")
                    line += "; sizes: \(shown)" + (f.sizes.count > 8 ? " (+\(f.sizes.count - 8) more)" : "")
                }
                out += line + "\n"
            }
        }
        if !cameras.isEmpty {
            out += "(* read directly as a Y plane; + converted to luma; others cannot be used)\n"
        }
        return out
    }

    private static func number(_ x: Double) -> String { String(format: x < 10 ? "%.2f" : "%.1f", x) }
}

/// `nodwire capture`: run the camera for a while, measure what arrives, optionally record it.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Capture luma frames for some seconds: measure the frame rate and drops, optionally record a .y4m clip.",
        discussion: """
            Settings come from --config (section [camera]) and then the options here. The camera may adjust \
            the size (and only offer some formats); what it chose is printed first. The clip (--out) is a \
            grey YUV4MPEG2 file that `nodwire replay` and ffmpeg read. SIGINT/SIGTERM end the capture early \
            with the clip complete.
            """)

    @Option(help: "Seconds to capture (0.1...86400).") var seconds: Double
    @Option(help: "Camera: its number in `nodwire cameras` or its id.") var camera: String?
    @Option(help: "Record the frames to this .y4m file.") var out: String?
    @Option(help: "Picture width to ask for.") var width: Int?
    @Option(help: "Picture height to ask for.") var height: Int?
    @Option(help: "Frames per second to ask for (0: the camera's own rate).") var fps: Double?
    @Option(help: "Rotation: 0 or 180.") var rotation: Int?
    @Flag(help: "Mirror the picture left-right.") var mirror = false
    @Option(help: "Config file (TOML) to take the [camera] settings from.") var config: String?

    func validate() throws {
        guard seconds.isFinite, (0.1...86_400).contains(seconds) else { throw ValidationError("--seconds must be 0.1...86400") }
    }

    func settings() throws -> CameraSettings {
        var s = try loadConfig(config).camera
        if let camera { s.camera = CameraSelector(parsing: camera) }
        if let width { s.width = width }
        if let height { s.height = height }
        if let fps { s.fps = fps }
        if let rotation { s.rotation = rotation }
        if mirror { s.mirror = true }
        do { try s.validate() } catch { throw Failure(message: error.description, exitCode: error.exitCode) }
        return s
    }

    func run() throws {
        CameraLog.quietUnlessAsked()
        let settings = try settings()
        // Stop signals are blocked before libcamera starts its threads, so they inherit the mask.
        let stop = StopSignals()
        let capture: CameraCapture
        do { capture = try CameraCapture(settings: settings) } catch { throw Failure(message: error.description, exitCode: error.exitCode) }
        log(Self.describe(capture))
        log("capturing for \(seconds) s" + (out.map { " into \($0)" } ?? ""))

        var recorder = out.map { ClipRecorder(path: $0, nominalRate: capture.requestedFrameRate) }
        var frame = capture.makeFrame()
        var firstWall: Double?
        var capturedAtFirst = 0
        var caught: Int32 = 0
        let start = MonotonicClock.now()
        do {
            while MonotonicClock.now() - start < seconds {
                caught = stop.wait(seconds: 0)
                if caught != 0 { break }
                try capture.next(into: &frame, timeout: 2)
                if firstWall == nil { firstWall = MonotonicClock.now(); capturedAtFirst = capture.counters.captured }
                try recorder?.add(frame)
            }
            try recorder?.finish()
        } catch let error as CameraError {
            throw Failure(message: error.description, exitCode: error.exitCode)
        } catch let error as FrameSourceError {
            throw Failure(message: error.description, exitCode: 73)
        }
        capture.stop()
        let end = MonotonicClock.now()
        let c = capture.counters
        let window = firstWall.map { end - $0 } ?? 0
        let delivered = window > 0 ? Double(max(c.delivered - 1, 0)) / window : 0
        let captured = window > 0 ? Double(max(c.captured - capturedAtFirst, 0)) / window : 0
        var summary = "captured \(c.captured) frames, delivered \(c.delivered), dropped \(c.dropped), failed \(c.failed) "
            + "in \(String(format: "%.2f", end - start)) s; measured \(String(format: "%.1f", delivered)) fps delivered, "
            + "\(String(format: "%.1f", captured)) fps from the camera"
        if let recorder { summary += "; wrote \(recorder.written) frames of \(frame.width)x\(frame.height) to \(recorder.path) at \(String(format: "%g", recorder.rate)) fps" }
        print(summary)
        if caught != 0 {
            log("caught \(StopSignals.name(caught)): stopped early")
            throw ExitCode(128 + caught)
        }
    }

    static func describe(_ c: CameraCapture) -> String {
        let s = c.stream
        var text = "camera \(c.camera.label): \(s.width)x\(s.height) \(s.format)"
        if s.adjusted { text += " (asked \(c.settings.width)x\(c.settings.height); the camera adjusted it)" }
        if s.format.lumaLayout != .plane { text += ", converted to luma" }
        let flips = c.settings.flips
        if flips != .none {
            text += "; \(flips) by " + (s.softwareFlips == .none ? "the camera" : s.cameraFlips == .none ? "copying" : "camera (\(s.cameraFlips)) and copying (\(s.softwareFlips))")
        }
        if let rate = c.requestedFrameRate {
            text += "; \(String(format: "%g", rate)) fps asked"
        } else {
            text += "; the camera's own frame rate" + (c.camera.frameRates == nil ? " (it offers no rate control)" : "")
        }
        return text
    }

    private func log(_ s: String) { FileHandle.standardError.write(Data("nodwire capture: \(s)\n".utf8)) }
}

/// Writes a clip whose header rate is the camera's: the rate asked of it when it could be set, else the
/// rate measured over the first second (those frames are held back and written once it is known).
struct ClipRecorder {
    let path: String
    private let nominalRate: Double?
    private var writer: Y4MWriter?
    private var early: [LumaFrame] = []
    private(set) var written = 0
    private(set) var rate = 0.0

    static let measureSeconds = 1.0
    static let maxEarlyFrames = 120

    init(path: String, nominalRate: Double?) {
        self.path = path
        self.nominalRate = nominalRate
    }

    mutating func add(_ frame: LumaFrame) throws(FrameSourceError) {
        if writer == nil {
            if let nominalRate {
                try begin(rate: nominalRate, size: frame)
            } else {
                early.append(frame)
                if frame.time - early[0].time >= Self.measureSeconds || early.count >= Self.maxEarlyFrames { try writeEarly() }
                return
            }
        }
        try write(frame)
    }

    /// Writes what is still held back (a clip shorter than the measuring time) and closes the file.
    mutating func finish() throws(FrameSourceError) {
        if writer == nil, !early.isEmpty { try writeEarly() }
        writer?.close()
    }

    /// Frames per second over the held-back frames, to 0.01 (30 when they span no time).
    private var measuredRate: Double { Y4MWriter.rate(ofFrameTimes: early.map(\.time)) ?? 30 }

    private mutating func writeEarly() throws(FrameSourceError) {
        try begin(rate: measuredRate, size: early[0])
        let held = early
        early = []
        for f in held { try write(f) }
    }

    private mutating func begin(rate: Double, size frame: LumaFrame) throws(FrameSourceError) {
        self.rate = rate
        writer = try Y4MWriter(path: path, width: frame.width, height: frame.height, frameRate: rate)
    }

    private mutating func write(_ frame: LumaFrame) throws(FrameSourceError) {
        try writer?.write(frame)
        written += 1
    }
}

/// libcamera logs warnings about things Nodwire handles (an adjusted size, missing sensor data);
/// keep its errors only, unless LIBCAMERA_LOG_LEVELS is set.
enum CameraLog {
    static func quietUnlessAsked() { setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0) }
}

// MARK: - JSON

struct CameraListJSON: Encodable {
    var library: String
    var cameras: [CameraJSON]
    /// Media devices another process holds (its cameras may be missing from `cameras`).
    var in_use_by_others: [String]
}

struct CameraJSON: Encodable {
    struct Size: Encodable { var width: Int; var height: Int }
    struct Format: Encodable {
        var name: String
        var fourcc: String
        var readable: Bool
        var min: Size
        var max: Size
        var sizes: [Size]
    }
    struct Rates: Encodable { var min: Double; var max: Double }

    var index: Int
    var id: String
    var model: String?
    var location: String
    var mounting_rotation: Int?
    var default_size: Size?
    var default_format: String?
    var frame_rates: Rates?
    var formats: [Format]

    init(_ c: CameraDescription) {
        func size(_ s: CameraDescription.Size) -> Size { Size(width: s.width, height: s.height) }
        index = c.index
        id = c.id
        model = c.model
        location = c.location.rawValue
        mounting_rotation = c.mountingRotation
        default_size = c.defaultSize.map(size)
        default_format = c.defaultFormat?.description
        frame_rates = c.frameRates.map { Rates(min: $0.lowerBound, max: $0.upperBound) }
        formats = c.formats.map { Format(name: $0.name, fourcc: $0.format.code, readable: $0.readable, min: size($0.minimum),
                                         max: size($0.maximum), sizes: $0.sizes.map(size)) }
    }
}
