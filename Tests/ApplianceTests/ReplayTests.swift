@testable import Appliance
import Gestures
import Pipeline
import XCTest

/// The whole pipeline on real recordings, with default settings.
final class ReplayTests: XCTestCase {
    static let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    /// dlib's 5-point landmark model, where scripts/fetch-model.sh puts it.
    static let model = "\(root)/Models/shape_predictor_5_face_landmarks.dat"
    /// The `nodwire` built with the tests: beside the test bundle, whatever the build folder (.build, a
    /// --scratch-path, another platform's triple folder).
    static let nodwire = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nodwire").path

    /// `settings` with the repository's landmark model: what every replay in the tests runs with.
    static func withModel(_ settings: NodwireConfig = NodwireConfig()) -> NodwireConfig {
        var s = settings
        s.vision.modelPath = model
        return s
    }

    /// The whole pipeline on the recording at `path`, as `nodwire replay` runs it (every frame, or governed by
    /// `budget` as `--budget` does): its events and summary; `onFrame` sees each frame's vision result.
    static func replay(_ path: String, settings: NodwireConfig = NodwireConfig(), budget: BudgetSettings? = nil,
                       onFrame: (FrameResult) throws -> Void = { _ in }) throws -> (events: [GestureEvent], summary: Replay.Summary) {
        let s = withModel(settings)
        let processor = try FaceProcessor(settings: s.vision)
        var out: [GestureEvent] = []
        let summary = try Replay(file: path, settings: s, processor: processor, budget: budget).run(onFrame: onFrame) { out.append($0) }
        return (out, summary)
    }

    /// The labelled clips of `directory` (those named in `names`, or all) scored as `nodwire evaluate` scores them with
    /// `settings`, `rate` and `start`; the whole report printed once (which clip, which frames, when a floor gives way).
    static func evaluate(_ directory: String, settings: NodwireConfig = NodwireConfig(), rate: Double? = nil, start: Double = 0,
                         only names: Set<String>? = nil) throws -> [ClipReport] {
        let s = withModel(settings)
        let evaluation = Evaluation(settings: s, rate: rate, start: start) { try FaceProcessor(settings: s.vision) }
        let clips = try Evaluation.clips(in: directory).filter { names?.contains($0.name) ?? true }
        let reports = try clips.map { try evaluation.run($0) }
        print((reports.map(EvaluationReport.text) + [EvaluationReport.text(EvaluationTotals(reports))]).joined(separator: "\n"))
        return reports
    }

    private func events(_ clip: String, settings: NodwireConfig = NodwireConfig()) throws -> (events: [GestureEvent], summary: Replay.Summary) {
        try Self.replay("\(Self.root)/.build-fixtures/\(clip)", settings: settings)
    }

    /// clm_look: turns to his right (nose to image-left, frames 107-134) and left (135-167), looks down
    /// (172-217) and up (218-248); talking before and a sideways lean after are not gestures.
    /// Timeline boundaries are ±8 frames; a discrete look is reported after its confirmation delay.
    func testClmLookGivesLooksInTheTurnWindowsOnly() throws {
        let (events, summary) = try events("clm_look.y4m")
        XCTAssertEqual(summary.frames, 420)
        XCTAssertGreaterThan(summary.framesWithFace, 410)
        XCTAssertEqual(events.first?.kind, .faceFound)
        XCTAssertLessThan(events.first?.frame ?? 99, 5)
        let windows: [Direction: ClosedRange<Int>] = [.right: 99...142, .left: 127...175, .down: 164...225, .up: 210...256]
        let confirm = Int((GestureSettings().discrete.confirmDelay * 25).rounded(.up))
        let looks = events.filter { [.lookStart, .lookStop, .look].contains($0.kind) }
        XCTAssertFalse(looks.isEmpty)
        for e in looks {
            let window = try XCTUnwrap(windows[try XCTUnwrap(e.direction)])
            let slack = e.kind == .look ? confirm : 0
            XCTAssertTrue(window.lowerBound <= e.frame && e.frame <= window.upperBound + slack, "\(e.kind) \(e.direction!) at frame \(e.frame)")
        }
        for d in Direction.allCases {
            XCTAssertTrue(looks.contains { $0.kind == .lookStart && $0.direction == d }, "a look_start \(d)")
        }
        XCTAssertTrue(events.filter { $0.kind == .nod || $0.kind == .shake }.isEmpty, "no nod or shake in clm_look")
        XCTAssertTrue(events.filter { $0.frame < 99 || $0.frame > 276 }.allSatisfy { [.faceFound, .calibrated].contains($0.kind) },
                      "nothing while he talks or leans: \(events.filter { $0.frame < 99 || $0.frame > 276 })")
    }

    /// ht_sway: the body sways, moves up and down, closer and further; the head makes no gesture.
    func testHtSwayGivesNoGesture() throws {
        let (events, summary) = try events("ht_sway.y4m")
        XCTAssertGreaterThan(summary.framesWithFace, 380)
        let gestures = events.filter { [.lookStart, .look, .nod, .shake].contains($0.kind) }
        XCTAssertEqual(gestures, [])
    }

    /// clm_look flipped left to right is a different picture of the same turns: the person's right becomes
    /// their left. Unless `vision.mirrored` says the camera flips, which gives back the original directions.
    func testMirroredClipSwapsLeftAndRightUnlessTheSettingSaysMirrored() throws {
        let flipped = "\(Self.root)/.build-fixtures/clm_look-flipped-\(getpid()).y4m"
        defer { try? FileManager.default.removeItem(atPath: flipped) }
        var reader = try Y4MReader(path: "\(Self.root)/.build-fixtures/clm_look.y4m")
        var writer = try Y4MWriter(path: flipped, width: reader.width, height: reader.height, frameRate: reader.frameRate)
        var frame = reader.makeFrame()
        while try reader.next(into: &frame) {
            var pixels = [UInt8](repeating: 0, count: frame.width * frame.height)
            for y in 0..<frame.height { for x in 0..<frame.width { pixels[y * frame.width + x] = frame[frame.width - 1 - x, y] } }
            try writer.write(LumaFrame(width: frame.width, height: frame.height, index: frame.index, time: frame.time, pixels: pixels))
        }
        writer.close()

        func starts(_ events: [GestureEvent]) -> [Direction] { events.filter { $0.kind == .lookStart }.compactMap(\.direction) }
        let original = starts(try events("clm_look.y4m").events)
        XCTAssertEqual(original, [.right, .left, .down, .up])
        XCTAssertEqual(starts(try events((flipped as NSString).lastPathComponent).events), [.left, .right, .down, .up])
        var mirrored = NodwireConfig()
        mirrored.vision.mirrored = true
        XCTAssertEqual(starts(try events((flipped as NSString).lastPathComponent, settings: mirrored).events), original)
    }

    func testMovesAreOnePerFrameWithAFaceAfterCalibration() throws {
        var s = NodwireConfig()
        s.gestures.moves.enabled = true
        let (events, summary) = try events("ht_sway.y4m", settings: s)
        let moves = events.filter { $0.kind == .move }
        let calibratedAt = try XCTUnwrap(events.first { $0.kind == .calibrated }?.frame)
        XCTAssertEqual(moves.first?.frame, calibratedAt, "from the frame that completes calibration")
        XCTAssertGreaterThan(moves.count, summary.framesWithFace - calibratedAt - 5)
        XCTAssertEqual(Set(moves.map(\.frame)).count, moves.count, "one a frame")
    }

    func testEventLinesAreJSONWithFrameTimeType() throws {
        let (events, _) = try events("clm_look.y4m")
        for e in events {
            let line = EventJSON.line(e)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertEqual(object["frame"] as? Int, e.frame)
            XCTAssertEqual(object["time"] as? Double ?? Double(object["time"] as? Int ?? -1), Double(e.frame) / 25, accuracy: 0.001)
            XCTAssertEqual(object["type"] as? String, e.kind.rawValue)
            if [.lookStart, .look].contains(e.kind) {
                XCTAssertNotNil(object["direction"] as? String)
                XCTAssertNotNil(object["distance"])
            }
        }
    }

    func testMissingOrBrokenClipIsAClearError() throws {
        let processor = try FaceProcessor(settings: {
            var v = VisionSettings()
            v.modelPath = Self.model
            return v
        }())
        XCTAssertThrowsError(try Replay(file: "/nonexistent.y4m", settings: NodwireConfig(), processor: processor).run { _ in }) {
            XCTAssertTrue("\($0)".contains("/nonexistent.y4m"))
        }
        let broken = NSTemporaryDirectory() + "broken-\(getpid()).y4m"
        try Data("YUV4MPEG2 W4 H2 F25:1 Cmono\nFRAME\n\u{1}\u{2}".utf8).write(to: URL(fileURLWithPath: broken))
        defer { try? FileManager.default.removeItem(atPath: broken) }
        XCTAssertThrowsError(try Replay(file: broken, settings: NodwireConfig(), processor: processor).run { _ in }) {
            XCTAssertTrue("\($0)".contains("frame 0"), "\($0)")
        }
    }
}
