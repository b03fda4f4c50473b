@testable import Gestures
import XCTest

/// The guided fit on scripted sessions: what it measures, what it proposes, and that the proposal serves
/// the person the session came from.
final class GestureFitTests: XCTestCase {
    /// A guided session: each prompt in turn with a pause at rest between, the person's motions scripted.
    struct Session {
        var stream = Stream()
        var steps: [FitStep?] = []
        var rng = SplitMix(state: 7)

        mutating func step(_ s: FitStep?, _ build: (inout Stream) -> Void) {
            let before = stream.samples.count
            build(&stream)
            steps += Array(repeating: s, count: stream.samples.count - before)
            stream.rest(1.5)
            steps += Array(repeating: nil, count: stream.samples.count - steps.count)
        }

        /// Talking: slow sways of both axes plus quick emphasis dips of `dip` degrees every `every` seconds.
        mutating func talk(seconds: Double, sway: Double, dip: Double, every: Double = 2.3) {
            var r = rng
            let phase = (Double.random(in: 0...6, using: &r), Double.random(in: 0...6, using: &r))
            rng = r
            step(.talk) { s in
                s.add(seconds) { t in
                    let d = t.truncatingRemainder(dividingBy: every)
                    let dipNow = d < 0.3 ? -dip * sin(.pi * d / 0.3) : 0
                    return (sway * sin(2 * .pi * 0.7 * t + phase.0) + 0.4 * sway * sin(2 * .pi * 1.9 * t),
                            0.6 * sway * sin(2 * .pi * 0.9 * t + phase.1) + dipNow)
                }
            }
        }

        var recording: FitRecording {
            FitRecording(entries: zip(stream.samples, steps).map { FitRecording.Entry(sample: $0, step: $1) })
        }

        /// A person whose comfortable reach is `reach` (yaw, pitch), who nods and shakes with `nod`/`shake`
        /// degrees of amplitude, two cycles at a time.
        /// A person who stops 0.5 s at the bottom of each "yes" (15° down in 0.4 s, back in 0.4 s, three answers
        /// a rest apart) and holds each look `lookHold` seconds; quick two-cycle shakes, calm talking.
        static func stopper(lookHold: Double) -> Session {
            var s = Session()
            s.step(.neutral) { $0.rest(4) }
            for (d, y, p) in [(FitStep.left, -25.0, 0.0), (.right, 25, 0), (.up, 0, 15), (.down, 0, -15)] {
                s.step(d) { st in st.ramp(0.4, from: (0, 0), to: (y, p)); st.rest(lookHold, yaw: y, pitch: p); st.ramp(0.4, from: (y, p), to: (0, 0)) }
            }
            s.step(.nod) { st in
                for _ in 0..<3 {
                    st.ramp(0.4, from: (0, 0), to: (0, -15)); st.rest(0.5, pitch: -15); st.ramp(0.4, from: (0, -15), to: (0, 0)); st.rest(1.2)
                }
            }
            s.step(.shake) { st in st.shake(amplitude: 12, period: 0.6, cycles: 2); st.rest(1.2); st.shake(amplitude: 12, period: 0.6, cycles: 2) }
            s.talk(seconds: 20, sway: 1.5, dip: 4)
            return s
        }

        static func person(reach: (Double, Double), nod: Double, shake: Double, talkSway: Double, talkDip: Double) -> Session {
            var s = Session()
            s.step(.neutral) { $0.rest(4) }
            for (d, y, p) in [(FitStep.left, -reach.0, 0.0), (.right, reach.0, 0), (.up, 0, reach.1), (.down, 0, -reach.1)] {
                s.step(d) { st in
                    st.ramp(0.5, from: (0, 0), to: (y, p)); st.rest(1.5, yaw: y, pitch: p); st.ramp(0.5, from: (y, p), to: (0, 0))
                }
            }
            s.step(.nod) { st in st.nod(amplitude: nod, period: 0.6, cycles: 2); st.rest(1.2); st.nod(amplitude: nod, period: 0.6, cycles: 2) }
            s.step(.shake) { st in st.shake(amplitude: shake, period: 0.6, cycles: 2); st.rest(1.2); st.shake(amplitude: shake, period: 0.6, cycles: 2) }
            s.talk(seconds: 20, sway: talkSway, dip: talkDip)
            return s
        }
    }

    /// Someone with a small range (9° of turn, 7° of tilt) and 2.5° nods: the defaults (12°/10° looks) hear
    /// none of their looks; the fit's proposal hears every prompt, and nothing while they talk.
    func testASmallRangeIsServedAfterTheFit() throws {
        let s = Session.person(reach: (9, 7), nod: 2.5, shake: 3, talkSway: 0.8, talkDip: 0)
        let before = GestureFit.score(s.recording, with: GestureSettings())
        XCTAssertTrue(Set(before.found).isDisjoint(with: [.left, .right, .up, .down]), "the defaults should hear none of these looks: found \(before.found)")

        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        XCTAssertEqual(p.measures.reach.left, 9, accuracy: 0.3)
        XCTAssertEqual(p.measures.reach.up, 7, accuracy: 0.3)
        XCTAssertEqual(p.settings.zones.thresholdYaw, 4.5, accuracy: 0.2, "half the reach")
        XCTAssertEqual(p.settings.zones.thresholdPitch, GestureFit.thresholdBounds.lowerBound, "3.5 is below the pose's jitter bound")
        XCTAssertLessThanOrEqual(p.settings.nod.minAmplitude, max(GestureFit.strokeFraction * p.measures.nodStroke!,
                                                                  p.settings.nod.hysteresis + GestureFit.minimumStrokeOverHysteresis))
        XCTAssertEqual(Set(p.score.found), [.left, .right, .up, .down, .nod, .shake], "missed: \(p.score.missed)")
        XCTAssertTrue(p.score.clean, "\(p.score.events)")
        XCTAssertEqual(p.margin, GestureFit.margins[0])
        XCTAssertEqual(p.settings.smoothing, GestureSettings().smoothing, "what the fit does not decide is kept")
        XCTAssertEqual(p.settings.nod.maxStroke, GestureSettings().nod.maxStroke, "quick nods keep the slowest stroke")
    }

    /// Someone who nods slowly (12° at 0.25 Hz: strokes of 2 s, read as 1.3, beyond `max_stroke`'s 1.2 s), as a person
    /// tiring or with little control of their neck may: the defaults hear no "yes"; the fit times their
    /// strokes and allows them, and their talking still fires nothing. Their quick shakes keep the default.
    func testASlowNodderIsHeardAfterTheFit() throws {
        var s = Session()
        s.step(.neutral) { $0.rest(4) }
        for (d, y, p) in [(FitStep.left, -25.0, 0.0), (.right, 25, 0), (.up, 0, 18), (.down, 0, -18)] {
            s.step(d) { st in st.ramp(0.5, from: (0, 0), to: (y, p)); st.rest(1.5, yaw: y, pitch: p); st.ramp(0.5, from: (y, p), to: (0, 0)) }
        }
        s.step(.nod) { st in st.nod(amplitude: 12, period: 4, cycles: 2) }
        s.step(.shake) { st in st.shake(amplitude: 12, period: 0.6, cycles: 2); st.rest(1.2); st.shake(amplitude: 12, period: 0.6, cycles: 2) }
        s.talk(seconds: 20, sway: 1.5, dip: 4)
        XCTAssertFalse(GestureFit.score(s.recording, with: GestureSettings()).found.contains(.nod), "the defaults should not hear this nod")

        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        let time = try XCTUnwrap(p.measures.nodStrokeTime)
        XCTAssertGreaterThan(time, GestureSettings().nod.maxStroke)
        XCTAssertEqual(p.settings.nod.maxStroke, min(GestureFit.slowestStrokeAllowed, GestureFit.strokeTimeMargin * time), accuracy: 0.06)
        XCTAssertEqual(p.settings.shake.maxStroke, GestureSettings().shake.maxStroke, "quick shakes keep the default")
        XCTAssertTrue(p.notes.contains { $0.hasPrefix("nod: strokes took up to") }, "\(p.notes)")
        XCTAssertTrue(p.score.found.contains(.nod), "\(p.score)")
        XCTAssertTrue(p.score.clean, "\(p.score.events)")
    }

    /// Someone who answers "yes" with a stop at the bottom (down in 0.4 s, still 0.5 s, up in 0.4 s): longer than
    /// `max_hold` allows, so the defaults take each for a look down and back. The fit times the stops and allows
    /// 1.25 x the longest; their looks (held 1.5 s) stay looks, and their talking fires nothing.
    func testANodderWhoStopsAtTheBottomIsHeardAfterTheFit() throws {
        let s = Session.stopper(lookHold: 1.5)
        XCTAssertFalse(GestureFit.score(s.recording, with: GestureSettings()).found.contains(.nod), "the defaults should not hear this nod")

        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        let stop = try XCTUnwrap(p.measures.nodStopTime)
        XCTAssertEqual(stop, 0.5, accuracy: 0.15, "the stop at the bottom, as the recogniser times it")
        XCTAssertEqual(p.settings.nod.maxHold, min(GestureSettings().zones.heldFor, GestureFit.strokeTimeMargin * stop), accuracy: 0.06)
        XCTAssertEqual(p.settings.shake.maxHold, GestureSettings().shake.maxHold, "shakes without stops keep the default")
        XCTAssertTrue(p.notes.contains { $0.hasPrefix("nod: stopped up to") }, "\(p.notes)")
        XCTAssertTrue(p.score.found.contains(.nod), "\(p.score)")
        XCTAssertTrue(p.score.found.contains(.down), "the look down held 1.5 s is still a look: \(p.score)")
        XCTAssertTrue(p.score.clean, "\(p.score.events)")
    }

    /// With the defaults the stopped nods are missed, and the score says why: the stop at the bottom
    /// (`max_hold`), which is what the fit then changes; the shakes were heard, so nothing is said of them.
    func testTheScoreSaysWhyAMissedNodWasNotHeard() throws {
        let score = GestureFit.score(Session.stopper(lookHold: 1.5).recording, with: GestureSettings())
        XCTAssertTrue(score.missed.contains(.nod))
        let why = try XCTUnwrap(score.whyMissed[.nod])
        XCTAssertEqual(why.rule, .heldAtTurn)
        XCTAssertEqual(why.measured ?? 0, 0.5, accuracy: 0.2)
        XCTAssertEqual(why.setting, "gestures.nod.max_hold")
        XCTAssertNil(score.whyMissed[.shake])
        XCTAssertFalse(score.events.contains { $0.kind == .unheard && $0.unheard == nil })
    }

    /// The same person, whose look down is as brief as their "yes" (down, 0.5 s there, back): a stop that long
    /// would make it a "yes", so `max_hold` is kept, and the note says why.
    func testStopsAsLongAsALookAreNotAllowed() throws {
        let s = Session.stopper(lookHold: 0.5)
        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        XCTAssertNotNil(p.measures.nodStopTime)
        XCTAssertEqual(p.settings.nod.maxHold, GestureSettings().nod.maxHold)
        XCTAssertTrue(p.notes.contains { $0.hasPrefix("the answers' stops are as long as a look held") }, "\(p.notes)")
        XCTAssertEqual(p.score.falseElsewhere, 0, "\(p.score.events)")
    }

    /// Someone whose talking dips (9°) are as big as their nods' strokes: single nods are switched off (two
    /// cycles needed, which talking's single dips never make), and said so.
    func testATalkerWhoseDipsAreAsBigAsTheirNodsNeedsTwoCycles() throws {
        let s = Session.person(reach: (25, 18), nod: 5, shake: 8, talkSway: 1.5, talkDip: 9)
        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        XCTAssertFalse(p.settings.nod.single)
        XCTAssertTrue(p.notes.contains { $0.hasPrefix("nod: a single nod") }, "\(p.notes)")
        XCTAssertTrue(p.score.found.contains(.nod), "the two-cycle nods are still heard: \(p.score)")
        XCTAssertEqual(p.score.falseWhileTalking, 0, "\(p.score.events)")
        XCTAssertGreaterThanOrEqual(p.measures.talkPitchStroke, 8)
    }

    /// The talking margin is what keeps looks quiet too: a talker who sways ±5° gets a yaw threshold above it.
    func testThresholdsStayAboveHowFarTalkingGoes() throws {
        let s = Session.person(reach: (12, 10), nod: 8, shake: 10, talkSway: 5, talkDip: 0)
        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        XCTAssertGreaterThan(p.settings.zones.thresholdYaw, p.measures.talkOffset.yaw, "looks must start beyond talking's sway")
        XCTAssertEqual(p.score.falseWhileTalking, 0, "\(p.score.events)")
    }

    func testNoFaceWhileLookingStraightIsRefused() {
        var s = Session()
        s.step(.neutral) { $0.noFace(4) }
        s.step(.nod) { $0.nod(amplitude: 8, period: 0.6, cycles: 2) }
        XCTAssertThrowsError(try GestureFit.propose(s.recording, from: GestureSettings())) { error in
            XCTAssertEqual(error as? GestureFitError, .noNeutral)
            XCTAssertTrue("\(error)".contains("no face was seen"))
        }
    }

    func testADirectionNotShownKeepsItsAxis() throws {
        var s = Session()
        s.step(.neutral) { $0.rest(4) }
        s.step(.left) { $0.rest(2, yaw: -20) }
        s.step(.right) { $0.rest(2, yaw: 3) }   // barely turned
        let p = try GestureFit.propose(s.recording, from: GestureSettings())
        XCTAssertEqual(p.settings.zones.thresholdYaw, GestureSettings().zones.thresholdYaw)
        XCTAssertTrue(p.notes.contains { $0.contains("right") && $0.contains("not turned far enough") }, "\(p.notes)")
        XCTAssertTrue(p.notes.contains("no nod was seen: its settings are kept"), "\(p.notes)")
        XCTAssertEqual(p.settings.nod, GestureSettings().nod)
    }
}
