@testable import Appliance
import Foundation
@testable import Gestures
import Pipeline
import XCTest

final class CalibrateTests: XCTestCase {
    /// The fit's report tells a person why a prompted answer it still misses was not heard, in the terminal and
    /// on the page, with the setting that decided.
    func testTheFitReportSaysWhyAMissedAnswerWasNotHeard() {
        var score = FitScore()
        score.found = [.left, .right, .shake]
        score.missed = [.nod]
        score.whyMissed[.nod] = Unheard(kind: .nod, rule: .heldAtTurn, measured: 0.52, allowed: 0.35, range: 14, start: 30, end: 31.2)
        let m = FitMeasures(neutral: Angles(yaw: 0, pitch: 0), restNoise: Angles(yaw: 0.2, pitch: 0.2))
        let report = FitReport(proposal: FitProposal(measures: m, settings: GestureSettings(), score: score, margin: 1.25, notes: []),
                               current: GestureSettings())
        let expected = "not a \"yes\": the head stayed 0.52 s at a turn, longer than 0.35 s (a look) [gestures.nod.max_hold]"
        XCTAssertTrue(report.text.contains("  nod prompt: " + expected), report.text)
        XCTAssertTrue(report.json.contains("\"why_missed\":{\"nod\":\"" + expected.replacingOccurrences(of: "\"", with: "\\\"") + "\"}"), report.json)
    }

    func testZonesFollowTheMeasuredReachAndRest() {
        var m = PersonalZones(restSamples: 4)
        for o in [(0.5, -0.5), (-0.5, 0.5), (0.5, 0.5), (-0.5, -0.5)] { m.add(offset: Angles(yaw: o.0, pitch: o.1)) }
        XCTAssertEqual(m.restSpread, Angles(yaw: 0.5, pitch: 0.5))
        for o in [(30.0, 0.0), (-20.0, 2.0), (0.0, 14.0), (1.0, -40.0)] { m.add(offset: Angles(yaw: o.0, pitch: o.1)) }
        XCTAssertEqual(m.reach, { var r = DirectionValues(); r.left = 20; r.right = 30; r.up = 14; r.down = 40; return r }())
        let (z, missing) = m.proposal(from: GestureSettings().zones)
        XCTAssertEqual(missing, [Direction]())
        XCTAssertEqual(z.thresholdYaw, 10, "half the smaller side: left 20")
        XCTAssertEqual(z.thresholdPitch, 7, "half of up 14")
        XCTAssertEqual(z.idleYaw, 3.5, "0.35 of the threshold: the rest spread (0.5 x 4 = 2) is below it")
        XCTAssertEqual(z.idlePitch, 2.4, "0.35 x 7 = 2.45, to one decimal")

        var noisy = PersonalZones(restSamples: 1)
        noisy.add(offset: Angles(yaw: 1.2, pitch: 0))
        noisy.add(offset: Angles(yaw: -20, pitch: 0))
        noisy.add(offset: Angles(yaw: 20, pitch: 0))
        let (nz, nmissing) = noisy.proposal(from: GestureSettings().zones)
        XCTAssertEqual(nz.idleYaw, 4.5, "a shaky rest (1.2 x 4 = 4.8) is capped at 0.45 of the threshold")
        XCTAssertEqual(nmissing, [Direction.up, .down])
        XCTAssertEqual(nz.thresholdPitch, GestureSettings().zones.thresholdPitch, "an axis not shown keeps its value")
        XCTAssertTrue(GestureSettings().problems().isEmpty)
    }

    func testConfigFileEditKeepsCommentsAndPlacesKeysInTheirSection() throws {
        let text = "# mine\n[vision]\nmirrored = true\n\n[gestures.zones]\n# wider for Anna\nidle_yaw = 5.5   # old\n\n[gestures.nod]\nmin_amplitude = 9\n"
        let edited = ConfigFileEdit.set([("gestures.zones.idle_yaw", .double(3)), ("gestures.zones.threshold_yaw", .double(9)),
                                         ("logging.level", .string("debug"))], in: text)
        XCTAssertEqual(edited, "# mine\n[vision]\nmirrored = true\n\n[gestures.zones]\n# wider for Anna\nidle_yaw = 3.0\nthreshold_yaw = 9.0\n\n"
                       + "[gestures.nod]\nmin_amplitude = 9\n\n[logging]\nlevel = \"debug\"\n")
        let c = try ConfigLoader.parse(edited, file: "e.toml")
        XCTAssertEqual(c.gestures.zones.idleYaw, 3)
        XCTAssertEqual(c.gestures.nod.minAmplitude, 9)
        XCTAssertEqual(ConfigFileEdit.set([("gestures.zones.idle_yaw", .double(3))], in: ""), "[gestures.zones]\nidle_yaw = 3.0\n")
    }

    /// Calibrating on clm_look (he looks straight, then turns right, left, down, up) and saving gives zones
    /// with which the same person's looks are all still seen, and no nod or shake is invented.
    func testCalibrateOnARecordingSavesZonesThatWorkForThatPerson() throws {
        let clip = ReplayTests.root + "/.build-fixtures/clm_look.y4m"
        let config = NSTemporaryDirectory() + "calibrate-\(getpid()).toml"
        try "# keep me\n[vision]\nmirrored = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config); try? FileManager.default.removeItem(atPath: config + ".bak") }
        let run = try RunningNodwire(["calibrate", "--source", clip, "--fast", "--config", config, "--save"])
        XCTAssertEqual(run.finish(timeout: 60), 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("0 s  no face\n1 s  face  yaw "), "one line a second off a terminal: \(run.stderr)")
        XCTAssertNotNil(run.stderr.range(of: #"yaw \+[\d.]+° RIGHT"#, options: .regularExpression), "the display shows a look right")
        XCTAssertTrue(run.stdout.contains("saved to \(config)"), run.stdout)
        let text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# keep me\n[vision]\nmirrored = false\n"), text)
        var settings = try ConfigLoader.load(file: config)
        let zones = settings.gestures.zones
        XCTAssertNotEqual(zones, GestureSettings().zones, "measured zones were written")
        XCTAssertLessThan(zones.thresholdYaw, 12, "he turns about 16-19°: half of that is below the default")

        settings.vision.modelPath = ReplayTests.model
        var events: [GestureEvent] = []
        _ = try Replay(file: clip, settings: settings, processor: try FaceProcessor(settings: settings.vision)).run { events.append($0) }
        for d in Direction.allCases {
            XCTAssertTrue(events.contains { $0.kind == .lookStart && $0.direction == d }, "look_start \(d) with the personal zones")
        }
        XCTAssertFalse(events.contains { $0.kind == .nod || $0.kind == .shake })
    }
}
