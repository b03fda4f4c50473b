@testable import Appliance
import Foundation
import Gestures
import XCTest

/// The scoring of `nodwire evaluate` on hand-made events and labels: every rule of docs/accuracy.md.
final class EvaluationScoreTests: XCTestCase {
    private func seg(_ label: SegmentLabel, _ start: Int, _ end: Int) -> LabelSegment { LabelSegment(label: label, start: start, end: end) }
    private func ev(_ kind: GestureKind, _ frame: Int, _ direction: Direction? = nil) -> GestureEvent {
        GestureEvent(kind, frame: frame, time: Double(frame) / 30, direction: direction)
    }
    private func score(_ events: [GestureEvent], _ segments: [LabelSegment], fps: Double = 30) -> GestureScore {
        GestureScore(events: events, labels: ClipLabels(segments: segments), frameRate: fps)
    }

    func testNodsAndShakesAreFoundMissedAndCountedApart() {
        let s = score([ev(.nod, 120), ev(.nod, 125), ev(.calibrated, 130), ev(.shake, 400)],
                      [seg(.nod, 100, 130), seg(.nod, 200, 230), seg(.shake, 300, 330), seg(.shake, 390, 420)])
        XCTAssertEqual(s.nod, KindScore(segments: 2, found: 1, falseEvents: 0, missedAt: [200], falseAt: [], missedWhy: [""],
                                        delays: [-10.0 / 30], repeated: 1, repeatedAt: [125]))
        XCTAssertEqual(s.shake, KindScore(segments: 2, found: 1, falseEvents: 0, missedAt: [300], falseAt: [], missedWhy: [""],
                                          delays: [-20.0 / 30]))
        XCTAssertEqual(s.nod.missed, 1)
        XCTAssertEqual(s.look, KindScore())
    }

    /// The delay is from the segment's end to the first event that found it, in the clip's own seconds.
    func testDelayRunsFromTheLabelledEndToTheFirstEventThatFoundIt() {
        let s = score([ev(.nod, 128), ev(.nod, 133), ev(.nod, 240), ev(.shake, 315)],
                      [seg(.nod, 100, 130), seg(.nod, 200, 230), seg(.shake, 300, 330)], fps: 60)
        XCTAssertEqual(s.nod.delays, [-2.0 / 60, 10.0 / 60], "the first of two events counts; 240 is 10 frames late")
        XCTAssertEqual(s.nod.medianDelay ?? 0, 4.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(s.nod.worstDelay ?? 0, 10.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(s.shake.delays, [-15.0 / 60], "reported mid-answer")
        let late = score([ev(.nod, 146)], [seg(.nod, 100, 130)])
        XCTAssertEqual(late.nod.delays, [], "past the window: a miss, no delay")
        XCTAssertNil(late.nod.medianDelay)
        XCTAssertEqual((s + late).nod.delays.count, 2, "totals keep every delay")
    }

    /// One answer reported twice is a second switch press for one "yes": counted apart from false events. An
    /// event in the windows of two segments is the first of the later one when the earlier has its own.
    func testAnAnswerReportedAgainInsideItsWindowIsRepeated() {
        let s = score([ev(.nod, 120), ev(.nod, 140), ev(.nod, 143), ev(.shake, 305), ev(.shake, 310)],
                      [seg(.nod, 100, 130), seg(.nod, 150, 170), seg(.shake, 300, 330)])
        XCTAssertEqual(s.nod.found, 2)
        XCTAssertEqual(s.nod.repeated, 1, "140 only in the first nod's window, after its first event; 143 in both, the second's first")
        XCTAssertEqual(s.nod.repeatedAt, [140])
        XCTAssertEqual(s.nod.falseEvents, 0)
        XCTAssertEqual(s.shake.repeatedAt, [310])
        XCTAssertEqual((s + s).nod.repeated, 2, "totals add them")
        XCTAssertEqual(score([ev(.nod, 120)], [seg(.nod, 100, 130)]).nod.repeated, 0)
    }

    /// A missed nod or shake names why the widest swing of its kind over its window was not heard, so a
    /// report says where to look ("missed nod@100(held_at_turn)"); a swing elsewhere or of the other kind does not.
    func testAMissedAnswerSaysWhyItsSwingWasNotHeard() {
        func unheard(_ kind: GestureKind, _ rule: Unheard.Rule, startFrame: Int, range: Double, at frame: Int) -> GestureEvent {
            var e = ev(.unheard, frame)
            e.unheard = Unheard(kind: kind, rule: rule, measured: 0.6, allowed: 0.35, range: range,
                                start: Double(startFrame) / 30, end: Double(startFrame + 20) / 30)
            return e
        }
        let events = [unheard(.nod, .singleTooNarrow, startFrame: 102, range: 6, at: 140),
                      unheard(.nod, .heldAtTurn, startFrame: 110, range: 9, at: 150),
                      unheard(.shake, .lopsided, startFrame: 205, range: 20, at: 240),
                      unheard(.nod, .oneSided, startFrame: 75, range: 4, at: 110),
                      unheard(.nod, .tooFast, startFrame: 500, range: 30, at: 530)]
        let s = score(events, [seg(.nod, 100, 130), seg(.nod, 200, 230), seg(.shake, 300, 330)])
        XCTAssertEqual(s.nod.missedAt, [100, 200])
        XCTAssertEqual(s.nod.missedWhy, ["held_at_turn", ""], "the widest nod swing over the first window; none in the second")
        XCTAssertEqual(s.shake.missedWhy, [""], "the shake swing was outside the shake's window")
        let early = score([unheard(.nod, .oneSided, startFrame: 75, range: 4, at: 110)], [seg(.nod, 100, 130)])
        XCTAssertEqual(early.nod.missedWhy, ["one_sided"], "a swing that began before the window and ran into it")
        XCTAssertEqual(s.nod.falseEvents + s.shake.falseEvents, 0, "an explanation is not an event")
        let report = ClipReport(name: "c", frames: 600, framesProcessed: 600, framesWithFace: 600, gestures: s, pose: nil)
        XCTAssertTrue(EvaluationReport.text(report).contains("missed nod@100(held_at_turn) nod@200 shake@300"), EvaluationReport.text(report))
        XCTAssertTrue(EvaluationReport.json(report).contains("\"missed_why\":[\"held_at_turn\",\"\"]"), EvaluationReport.json(report))
    }

    func testAnEventOfTheOtherKindNeitherFindsNorExcusesItself() {
        let s = score([ev(.shake, 110)], [seg(.nod, 100, 130)])
        XCTAssertEqual(s.nod.found, 0)
        XCTAssertEqual(s.shake.falseAt, [110], "a shake during a nod is a false shake")
    }

    func testWindowRunsFromEightBeforeToFifteenAfter() {
        let labels = [seg(.nod, 100, 130)]
        for (frame, inside) in [(91, false), (92, true), (145, true), (146, false)] {
            let s = score([ev(.nod, frame)], labels)
            XCTAssertEqual(s.nod.found, inside ? 1 : 0, "nod at \(frame)")
            XCTAssertEqual(s.nod.falseEvents, inside ? 0 : 1, "nod at \(frame)")
        }
    }

    func testFalseNodsAndShakesInTalkingAreCountedPerMinuteOfTalking() {
        // 150 + 75 + 75 frames of talking, expression and lean at 30 fps: 10 s.
        let s = score([ev(.nod, 320), ev(.shake, 610), ev(.nod, 700), ev(.shake, 50), ev(.look, 330, .up)],
                      [seg(.none, 0, 299), seg(.noneTalking, 300, 449), seg(.noneExpression, 600, 674),
                       seg(.noneLateralLean, 675, 749), seg(.none, 750, 800)])
        XCTAssertEqual(s.nod.falseEvents, 2)
        XCTAssertEqual(s.shake.falseAt, [610, 50])
        XCTAssertEqual(s.falseInTalking, 3, "the shake at 50 is false, but not in talking; looks do not count here")
        XCTAssertEqual(s.talkingSeconds, 10, accuracy: 1e-9)
        XCTAssertEqual(s.falseInTalkingPerMinute ?? -1, 18, accuracy: 1e-9)
        XCTAssertNil(score([ev(.nod, 5)], [seg(.none, 0, 10)]).falseInTalkingPerMinute, "no talking, no rate")
    }

    func testLooksTakeThePersonsOwnDirection() {
        let labels = [seg(.turnNoseToImageLeft, 100, 130), seg(.turnNoseToImageRight, 200, 230),
                      seg(.lookUp, 300, 330), seg(.lookDown, 400, 430)]
        let right = score([ev(.lookStart, 110, .right), ev(.look, 215, .left), ev(.lookStart, 310, .up), ev(.look, 440, .down)], labels)
        XCTAssertEqual(right.look, KindScore(segments: 4, found: 4, falseEvents: 0, missedAt: [], falseAt: []))
        XCTAssertEqual(right.wrongDirection, 0)
        let mirrored = score([ev(.lookStart, 110, .left), ev(.look, 215, .right)], labels)
        XCTAssertEqual(mirrored.look.found, 0)
        XCTAssertEqual(mirrored.look.missedAt, [100, 200, 300, 400])
        XCTAssertEqual(mirrored.wrongDirection, 2)
        XCTAssertEqual(mirrored.wrongDirectionAt, [110, 215])
        XCTAssertEqual(mirrored.look.falseEvents, 0, "wrong, not false")
    }

    func testLookStopIsNotALookAndLooksOutsideEveryWindowAreFalse() {
        let s = score([ev(.lookStop, 600, .up), ev(.look, 600, .up), ev(.lookStart, 105, .down), ev(.look, 245, .left)],
                      [seg(.nod, 100, 130), seg(.turnNoseToImageRight, 200, 230)])
        XCTAssertEqual(s.look.falseAt, [600], "a look during a nod is excused; look_stop is not scored")
        XCTAssertEqual(s.look.found, 1, "245 is the right direction, within end + 15")
    }

    func testOverlappingLookWindowsAcceptEitherDirection() {
        let labels = [seg(.turnNoseToImageLeft, 100, 130), seg(.turnNoseToImageRight, 131, 160)]
        let s = score([ev(.look, 140, .right), ev(.look, 128, .left)], labels)
        XCTAssertEqual(s.look.found, 2)
        XCTAssertEqual(s.wrongDirection, 0)
    }

    func testTotalsAddClips() {
        let a = score([ev(.nod, 110)], [seg(.nod, 100, 130), seg(.noneTalking, 200, 259)])
        let b = score([ev(.nod, 230)], [seg(.shake, 100, 130), seg(.noneTalking, 200, 259)], fps: 60)
        let t = a + b
        XCTAssertEqual(t.nod, KindScore(segments: 1, found: 1, falseEvents: 1, missedAt: [], falseAt: [230], delays: [-20.0 / 30]))
        XCTAssertEqual(t.shake.missedAt, [100])
        XCTAssertEqual(t.falseInTalking, 1)
        XCTAssertEqual(t.talkingSeconds, 3, accuracy: 1e-9)
    }

    // MARK: pose

    /// 100 frames: still for the first 40, then turning. The measured pose is the truth plus a fixed offset
    /// (which does not count), plus a known error.
    private func poses(yawError: (Int) -> Double = { _ in 0 }, pitchError: (Int) -> Double = { _ in 0 },
                       trueYaw: (Int) -> Double = { $0 < 40 ? 0 : Double($0 - 40) / 3 }) -> (measured: [Int: Angles], truth: [Int: Angles]) {
        var measured: [Int: Angles] = [:], truth: [Int: Angles] = [:]
        for f in 0..<100 {
            let t = Angles(yaw: trueYaw(f), pitch: f < 40 ? 0 : -5)
            truth[f] = t
            measured[f] = Angles(yaw: t.yaw + 7 + yawError(f), pitch: t.pitch - 4 + pitchError(f))
        }
        return (measured, truth)
    }

    func testPoseErrorIsRMSAfterTheStartingOffset() throws {
        let exact = try XCTUnwrap(PoseScore(measured: poses().measured, truth: poses().truth))
        XCTAssertEqual(exact.offset, Angles(yaw: 7, pitch: -4))
        XCTAssertEqual(exact.rmsYaw, 0, accuracy: 1e-9)
        XCTAssertEqual(exact.rmsPitch, 0, accuracy: 1e-9)
        XCTAssertEqual(exact.frames, 100)

        // Yaw 2° off on half of the 100 frames (all within 30° yaw): RMS √2; pitch 1° off on 25.
        let p = poses(yawError: { $0 >= 50 ? 2 : 0 }, pitchError: { $0 >= 75 ? -1 : 0 })
        let score = try XCTUnwrap(PoseScore(measured: p.measured, truth: p.truth))
        XCTAssertEqual(score.rmsYaw, 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(score.rmsPitch, 0.5, accuracy: 1e-9)
    }

    func testOffsetIsTheMedianOfTheFirstThirtyCommonFrames() throws {
        var p = poses(yawError: { $0 == 3 ? 40 : 0 })          // one wild frame does not move a median
        for f in 0..<5 { p.measured[f] = nil }                   // no face: the 30 are frames 5-34
        p.measured[35] = Angles(yaw: 0, pitch: 0)                // 35 is the 31st: not in the offset
        let score = try XCTUnwrap(PoseScore(measured: p.measured, truth: p.truth))
        XCTAssertEqual(score.offset, Angles(yaw: 7, pitch: -4))
        XCTAssertEqual(score.frames, 95)
        XCTAssertEqual(score.truthFrames, 100)
        XCTAssertEqual(PoseScore.median([3, 1, 2, 10]), 2.5)
    }

    func testPoseErrorCountsTheCoreRangeAndCrossTalkTheWideTurns() throws {
        // Truth turns to 59° (frames 40-99); a yaw error of 10° beyond 30° is outside the core and does not
        // count. Pitch reads 3° high once past 20° yaw: cross-talk.
        let p = poses(pitchError: { $0 - 40 > 20 ? 3 : 0 }, trueYaw: { $0 < 40 ? 0 : Double($0 - 40) })
        var measured = p.measured
        for f in 0..<100 where p.truth[f]!.yaw > 30 { measured[f]!.yaw += 10 }
        let score = try XCTUnwrap(PoseScore(measured: measured, truth: p.truth))
        XCTAssertEqual(score.rmsYaw, 0, accuracy: 1e-9)
        XCTAssertEqual(score.crossTalk ?? -1, 3, accuracy: 1e-9)
        let core = (0..<100).filter { abs(p.truth[$0]!.yaw) <= 30 }.count
        let high = (0..<100).filter { abs(p.truth[$0]!.yaw) <= 30 && p.truth[$0]!.yaw > 20 }.count
        XCTAssertEqual(score.rmsPitch, (9 * Double(high) / Double(core)).squareRoot(), accuracy: 1e-9)
        XCTAssertNil(try XCTUnwrap(PoseScore(measured: poses(trueYaw: { _ in 0 }).measured, truth: poses(trueYaw: { _ in 0 }).truth)).crossTalk)
    }

    func testTooFewFramesGiveNoPoseScore() {
        var p = poses()
        for f in 41..<100 { p.measured[f] = nil }
        XCTAssertNotNil(PoseScore(measured: p.measured, truth: p.truth), "41 frames")
        p.measured[40] = nil
        XCTAssertNil(PoseScore(measured: p.measured, truth: p.truth), "40 frames")
    }

    func testTotalsTakeTheMedianPoseAndWorstCrossTalk() throws {
        func report(_ yawError: Double, _ crossTalk: Double) throws -> ClipReport {
            let p = poses(pitchError: { $0 - 40 > 20 ? crossTalk : 0 }, trueYaw: { $0 < 40 ? 0 : Double($0 - 40) })
            var pose = try XCTUnwrap(PoseScore(measured: p.measured, truth: p.truth))
            pose.rmsYaw = yawError
            return ClipReport(name: "c", frames: 100, framesProcessed: 100, framesWithFace: 90, gestures: GestureScore(), pose: pose)
        }
        let t = EvaluationTotals([try report(1, 2), try report(5, 1), try report(2, 4),
                                  ClipReport(name: "real", frames: 100, framesProcessed: 100, framesWithFace: 100, gestures: GestureScore(), pose: nil)])
        XCTAssertEqual(t.clips, 4)
        XCTAssertEqual(t.poseClips, 3)
        XCTAssertEqual(t.medianRmsYaw, 2)
        XCTAssertEqual(t.worstCrossTalk ?? -1, 4, accuracy: 1e-9)
        XCTAssertEqual(t.faceFraction, 0.925, accuracy: 1e-9)
    }
}

/// The files `nodwire evaluate` reads, and what it says when one is wrong.
final class EvaluationFilesTests: XCTestCase {
    func testLabelsParseAndRefuseMistakesNamingTheFile() throws {
        let good = #"{"fps":"30/1","segments":[{"label":"nod","start":3,"end":9},{"label":"turn_nose_to_image_left","start":10,"end":10}]}"#
        XCTAssertEqual(try ClipLabels.parse(Data(good.utf8), file: "a.labels.json").segments,
                       [LabelSegment(label: .nod, start: 3, end: 9), LabelSegment(label: .turnNoseToImageLeft, start: 10, end: 10)])
        let cases = [
            (#"{"segments":[{"label":"nodd","start":3,"end":9}]}"#, "segments[0]: unknown label \"nodd\"; known: nod, shake"),
            (#"{"segments":[{"label":"nod","start":3,"end":9},{"label":"nod","start":12}]}"#, "segments[1].end: missing"),
            (#"{"segments":[{"label":"nod","start":3.5,"end":9}]}"#, "segments[0].start: 3.5 is not a frame number"),
            (#"{"segments":[{"label":"nod","start":"3","end":9}]}"#, "segments[0].start: not a number"),
            (#"{"segments":[{"label":"nod","start":9,"end":3}]}"#, "start 9, end 3"),
            (#"{"segment":[]}"#, "segments: missing"),
            ("nod 3 9", "not JSON"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ClipLabels.parse(Data(text.utf8), file: "x/a.labels.json"), text) {
                let message = "\($0)"
                XCTAssertTrue(message.hasPrefix("x/a.labels.json: not a labels file: "), message)
                XCTAssertTrue(message.contains(expected), "\(message) should say \(expected)")
                XCTAssertEqual(($0 as? EvaluationError)?.exitCode, 65)
            }
        }
    }

    func testPoseTruthParsesAndRefusesMistakesWithTheLine() throws {
        let truth = try PoseTruth.parse("frame,yaw,pitch,roll,dx,dy\n0,-0.05,-0.04,0.17,0.000,0.000\n1,12.5,-3,0,0,0\n", file: "a.pose.csv")
        XCTAssertEqual(truth.poses, [0: Angles(yaw: -0.05, pitch: -0.04), 1: Angles(yaw: 12.5, pitch: -3)])
        let cases = [
            ("frame,yaw,roll\n0,1,2\n", "a.pose.csv:1: not a pose file: no pitch column"),
            ("frame,yaw,pitch\n0,1,2\n1,x,2\n", "a.pose.csv:3: not a pose file: yaw and pitch must be numbers"),
            ("frame,yaw,pitch\n0,1\n", "a.pose.csv:2: not a pose file: 2 fields where the header has 3"),
            ("frame,yaw,pitch\n0,1,2\n0,1,2\n", "a.pose.csv:3: not a pose file: frame 0 again"),
            ("", "a.pose.csv:1: not a pose file: empty"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try PoseTruth.parse(text, file: "a.pose.csv"), text) {
                XCTAssertTrue("\($0)".hasPrefix(expected), "\($0) should start with \(expected)")
            }
        }
    }

    func testFolderWithoutClipsOrWithABrokenLabelsFileIsRefused() throws {
        let dir = NSTemporaryDirectory() + "evaluate-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertThrowsError(try Evaluation.clips(in: dir + "/missing")) { XCTAssertEqual($0 as? EvaluationError, .noDirectory(dir + "/missing")) }
        try Data().write(to: URL(fileURLWithPath: dir + "/b.y4m"))
        var skipped: [String] = []
        XCTAssertThrowsError(try Evaluation.clips(in: dir) { skipped.append($0) }) { XCTAssertEqual($0 as? EvaluationError, .noClips(dir)) }
        XCTAssertEqual(skipped, [dir + "/b.y4m"])
        try Data(#"{"segments":[]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/a.labels.json"))
        try Data().write(to: URL(fileURLWithPath: dir + "/a.y4m"))
        let clips = try Evaluation.clips(in: dir)
        XCTAssertEqual(clips.map(\.name), ["a"])
        XCTAssertNil(clips[0].truth)
        try Data("frame,yaw\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.pose.csv"))
        XCTAssertThrowsError(try Evaluation.clips(in: dir)) { XCTAssertTrue("\($0)".hasPrefix(dir + "/a.pose.csv:1:"), "\($0)") }
    }

    /// The command end to end on a clip without a face: its nod is missed, and --json says so.
    func testCommandPrintsAJSONObjectPerClipAndTotals() throws {
        let dir = NSTemporaryDirectory() + "evaluate-cli-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var header = Data("YUV4MPEG2 W64 H48 F10:1 Cmono\n".utf8)
        for _ in 0..<20 { header += Data("FRAME\n".utf8) + Data(repeating: 128, count: 64 * 48) }
        try header.write(to: URL(fileURLWithPath: dir + "/blank.y4m"))
        try Data(#"{"segments":[{"label":"none_talking","start":0,"end":9},{"label":"nod","start":10,"end":19}]}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/blank.labels.json"))

        let (status, out, err) = try run(["evaluate", dir, "--json"])
        XCTAssertEqual(status, 0, err)
        let objects = out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(objects.map { $0["type"] as? String }, ["clip", "totals"], out)
        XCTAssertEqual(objects[0]["name"] as? String, "blank")
        XCTAssertEqual(objects[0]["frames"] as? Int, 20)
        XCTAssertEqual((objects[0]["nod"] as? [String: Any])?["missed_at"] as? [Int], [10])
        XCTAssertEqual((objects[1]["nod"] as? [String: Any])?["missed"] as? Int, 1)
        XCTAssertEqual((objects[1]["talking"] as? [String: Any])?["minutes"] as? Double ?? -1, 1.0 / 60, accuracy: 0.001)
        XCTAssertTrue(objects[1]["pose"] is NSNull)

        let text = try run(["evaluate", dir])
        XCTAssertTrue(text.out.hasPrefix("blank "), text.out)
        XCTAssertTrue(text.out.contains("nod 0/1 false 0"), text.out)
        XCTAssertTrue(text.out.contains("missed nod@10"), text.out)

        // At a device's rate: half of this 10 fps clip goes through the pipeline, every frame is still scored.
        let halved = try run(["evaluate", dir, "--json", "--rate", "5"])
        XCTAssertEqual(halved.status, 0, halved.err)
        let clip = halved.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first
        XCTAssertEqual(clip?["frames"] as? Int, 20, halved.out)
        XCTAssertEqual(clip?["frames_processed"] as? Int, 10, halved.out)
        XCTAssertEqual(objects[0]["frames_processed"] as? Int, 20, out)
        // `replay --rate` the same, its --stats saying how many frames went through.
        let replayed = try run(["replay", dir + "/blank.y4m", "--rate", "5", "--stats"])
        XCTAssertEqual(replayed.status, 0, replayed.err)
        XCTAssertTrue(replayed.err.contains("\"frames\":20,\"frames_processed\":10,"), replayed.err)
        // From 1.5 s in, as if the face were first seen there: 5 frames go through; the talking before is not
        // scored and the nod is scored from frame 15.
        let late = try run(["evaluate", dir, "--json", "--start", "1.5"])
        XCTAssertEqual(late.status, 0, late.err)
        let lateClip = late.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.first
        XCTAssertEqual(lateClip?["frames_processed"] as? Int, 5, late.out)
        XCTAssertEqual((lateClip?["nod"] as? [String: Any])?["missed_at"] as? [Int], [15], late.out)
        XCTAssertEqual((lateClip?["talking"] as? [String: Any])?["minutes"] as? Double, 0, late.out)
        // `replay --start` the same: 5 of the 20 frames go through.
        let lateReplay = try run(["replay", dir + "/blank.y4m", "--start", "1.5", "--stats"])
        XCTAssertEqual(lateReplay.status, 0, lateReplay.err)
        XCTAssertTrue(lateReplay.err.contains("\"frames\":20,\"frames_processed\":5,"), lateReplay.err)
        for bad in ["-1", "nan", "inf"] {
            for command in ["evaluate", "replay"] {
                let refused = try run([command, command == "evaluate" ? dir : dir + "/blank.y4m", "--start=\(bad)"])
                XCTAssertEqual(refused.status, 64, "\(command) --start \(bad): \(refused.err)")
                XCTAssertTrue(refused.err.contains("allowed: seconds from 0"), refused.err)
            }
        }
        for bad in ["0", "61", "nan"] {
            for command in ["evaluate", "replay"] {
                let refused = try run([command, command == "evaluate" ? dir : dir + "/blank.y4m", "--rate", bad])
                XCTAssertEqual(refused.status, 64, "\(command) --rate \(bad): \(refused.err)")
                XCTAssertTrue(refused.err.contains("allowed: a number from 1.0 to 60.0"), refused.err)
            }
        }
    }

    /// A replay that begins later scores the timeline from there: what ended before is gone, what it cuts begins there.
    func testLabelsFromALaterFrame() {
        let labels = ClipLabels(segments: [LabelSegment(label: .noneTalking, start: 0, end: 9), LabelSegment(label: .nod, start: 10, end: 19),
                                           LabelSegment(label: .none, start: 20, end: 29)])
        XCTAssertEqual(labels.from(frame: 0), labels)
        XCTAssertEqual(labels.from(frame: 12).segments, [LabelSegment(label: .nod, start: 12, end: 19), LabelSegment(label: .none, start: 20, end: 29)])
        XCTAssertEqual(labels.from(frame: 30).segments, [])
        XCTAssertEqual(Replay.firstFrame(at: 1.5, frameRate: 10), 15)
        XCTAssertEqual(Replay.firstFrame(at: 3.7, frameRate: 30), 111)
        XCTAssertEqual(Replay.firstFrame(at: 0, frameRate: 30), 0)
    }

    func testCommandNamesAMissingFolder() throws {
        let (status, _, err) = try run(["evaluate", "/nonexistent-clips"])
        XCTAssertEqual(status, 66)
        XCTAssertTrue(err.contains("/nonexistent-clips: no such folder"), err)
    }

    private func run(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ReplayTests.nodwire)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
