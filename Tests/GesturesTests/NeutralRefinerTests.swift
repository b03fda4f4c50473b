import XCTest
@testable import Gestures

/// A new face's neutral is refined over its first seconds (`calibration.refineSeconds`): the median of its
/// poses out of looks, not the first steady half second alone.
final class NeutralRefinerTests: XCTestCase {
    /// Talking about a centre: sways on both axes, too small to be nods or shakes themselves.
    private func talk(_ s: inout Stream, _ seconds: Double, yaw: Double = 0) {
        s.add(seconds) { t in (yaw + 1.2 * sin(2 * .pi * 0.7 * t) + 0.5 * sin(2 * .pi * 1.9 * t), 0.7 * sin(2 * .pi * 1.1 * t + 1)) }
    }

    private func settings(refine: Double) -> GestureSettings {
        var g = GestureSettings()
        g.calibration.refineSeconds = refine
        g.moves.enabled = true
        return g
    }

    /// First seen turned 8° to one side, then talking about the camera: a later glance 7° the other way is
    /// within the person's own range. Judged from the first glimpse it would be 15°, a look.
    func testAFaceFirstSeenTurnedComesToRestWhereItTalks() {
        var s = Stream()
        s.rest(0.8, yaw: 8)
        s.ramp(0.3, from: (8, 0), to: (0, 0))
        talk(&s, 6)
        s.ramp(0.3, from: (0, 0), to: (-7, 0))
        s.rest(1.2, yaw: -7)
        s.ramp(0.3, from: (-7, 0), to: (0, 0))
        talk(&s, 2)

        let refined = s.events(settings(refine: 10))
        XCTAssertEqual(refined.of(.calibrated).first?.neutral?.yaw ?? 0, 8, accuracy: 0.5, "calibration takes the first glimpse")
        XCTAssertEqual(refined.gestures, [], "the glance is no look once neutral is where the person talks")
        let lastNeutral = refined.of(.move).last?.neutral
        XCTAssertEqual(lastNeutral?.yaw ?? 99, 0, accuracy: 1.5)
        XCTAssertEqual(lastNeutral?.pitch ?? 99, 0, accuracy: 1.5)

        let firstGlimpse = s.events(settings(refine: 0))
        XCTAssertEqual(firstGlimpse.of(.lookStart).map(\.direction), [.left], "without refining, the glance is a look")
    }

    /// A look held while neutral is being refined is still a look, and does not drag neutral with it: the
    /// poses out in it are left out, so a second look later is judged from the same rest.
    func testALookWhileRefiningIsALookAndLeavesNeutralWhereItWas() {
        var s = Stream()
        s.rest(1.5)
        s.ramp(0.4, from: (0, 0), to: (20, 0))
        s.rest(4, yaw: 20)
        s.ramp(0.4, from: (20, 0), to: (0, 0))
        s.rest(5)
        s.ramp(0.4, from: (0, 0), to: (14, 0))
        s.rest(1.5, yaw: 14)
        s.ramp(0.4, from: (14, 0), to: (0, 0))
        s.rest(1)

        let e = s.events(settings(refine: 10))
        XCTAssertEqual(e.of(.lookStart).map(\.direction), [.right, .right])
        XCTAssertEqual(e.of(.move).last?.neutral?.yaw ?? 99, 0, accuracy: 0.5)
    }

    /// A recalibration the user asks for means "this is my rest": it is not refined away.
    func testARequestedRecalibrationIsKept() {
        var s = Stream()
        s.rest(1.5)
        var engine = GestureEngine(settings: settings(refine: 10))
        for sample in s.samples { _ = engine.process(sample) }
        engine.requestRecalibration()
        var later = Stream()
        later.rest(1.0, yaw: 6)
        talk(&later, 5, yaw: -3)
        var last: GestureEvent?
        for var sample in later.samples {
            sample.time += s.time
            for e in engine.process(sample) where e.kind == .move { last = e }
        }
        XCTAssertEqual(last?.neutral?.yaw ?? 0, 6, accuracy: 0.5)
    }

    func testTheMedianOfWhatItWasGiven() {
        var r = NeutralRefiner(seed: [Angles(yaw: 8, pitch: 1)], anchor: (320, 240), until: 10)
        for y in [0.0, -1, 1, 0.5, 30] { r.add(Angles(yaw: y, pitch: -y)) }
        XCTAssertEqual(r.neutral, Angles(yaw: 0.75, pitch: -0.25))
        XCTAssertNil(NeutralRefiner(seed: [], anchor: (320, 240), until: 1).neutral)
    }
}
