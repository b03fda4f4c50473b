@testable import Gestures
import XCTest

/// A look down the eye corners and the eyes show where the nose hardly reads it (`EyesLookDown`).
final class EyesLookDownTests: XCTestCase {
    /// How a face reads a head tipped down by some true degrees: the nose's pitch at `nose` of it, the eye corners at
    /// `corners` of the population's slope (`EyesLookDown.cornerSlope` a degree), the eyes carried down the picture
    /// `lever` face widths a radian.
    struct Face {
        var nose: Double
        var corners: Double
        var lever: Double
    }

    /// 2 s at rest, down to `degrees` in 0.5 s, held 1.5 s, back in 0.5 s, 2 s at rest; 25 fps, with a little
    /// jitter on every reading (seeded).
    /// `bob`: degrees the head bobs about the held look (at 1.5 Hz), as a talker's does.
    private func look(_ degrees: Double, _ face: Face, knownCorners: Bool = true, bob: Double = 0) -> [HeadSample] {
        var rng = SplitMix(state: 7)
        var samples: [HeadSample] = []
        let fps = 25.0, size = 120.0
        func add(_ seconds: Double, _ down: (Double) -> Double) {
            let start = samples.last.map { $0.time + 1 / fps } ?? 0
            for i in 0..<Int(seconds * fps) {
                let t = Double(i) / fps, d = down(t)
                let pose = HeadPose(yaw: rng.gaussian(0.3), pitch: -face.nose * d + rng.gaussian(0.3), pointerX: 320,
                                    pointerY: 240 + face.lever * d * .pi / 180 * size, faceSize: size,
                                    eyesRight: -300 + rng.gaussian(0.3),
                                    eyesUp: -220 - face.lever * d * .pi / 180 * size + rng.gaussian(0.3),
                                    cornerDrop: knownCorners ? 0.05 - face.corners * EyesLookDown.cornerSlope * d + rng.gaussian(0.002) : nil)
                samples.append(HeadSample(frame: samples.count, time: start + t, pose: pose))
            }
        }
        add(2) { _ in 0 }
        add(0.5) { t in degrees * t / 0.5 }
        add(1.5) { t in degrees + bob * sin(2 * .pi * 1.5 * t) }
        add(0.5) { t in degrees * (1 - t / 0.5) }
        add(2) { _ in 0 }
        return samples
    }

    private func events(_ samples: [HeadSample]) -> [GestureEvent] {
        var engine = GestureEngine()
        return samples.flatMap { engine.process($0) }.gestures
    }

    /// A rendered face whose nose base hides behind its tip: an 18° look down held reads 3° (inside the idle zone),
    /// its corners and eyes see it all. A look down, begun and ended; without the corners, nothing.
    func testALookDownTheNoseHardlyReadsIsSeenByTheEyes() {
        let blindNose = Face(nose: 0.17, corners: 1, lever: 0.7)
        let seen = events(look(18, blindNose))
        XCTAssertEqual(seen.of(.lookStart).map(\.direction), [.down], "\(seen)")
        XCTAssertGreaterThan(seen.of(.lookStart).first?.distance ?? 0, 10, "its distance as the eyes read it, not the nose's 3°")
        XCTAssertEqual(seen.of(.lookStop).map(\.direction), [.down])
        XCTAssertTrue(seen.of(.nod).isEmpty && seen.of(.shake).isEmpty)
        XCTAssertEqual(events(look(18, blindNose, knownCorners: false)), [], "the nose alone reads no look")
    }

    /// The witnesses must agree. A smile lifts the outer eye corners as a look down does, but does not carry the eyes
    /// down the picture; a body leaning carries the eyes but does not turn the corners; a real talker's head moving
    /// carries the eyes as a look does, but less than a deliberate look (`minEyeTravel`); and the nose must read
    /// down too.
    func testOneWitnessAloneIsNoLook() {
        XCTAssertEqual(events(look(18, Face(nose: 0.17, corners: 1, lever: 0))), [], "a smile: the corners alone")
        XCTAssertEqual(events(look(18, Face(nose: 0.17, corners: 0, lever: 0.7))), [], "a lean: the eyes alone")
        XCTAssertEqual(events(look(18, Face(nose: 0, corners: 1, lever: 0.7))), [], "the nose level")
        XCTAssertEqual(events(look(12, Face(nose: 0.25, corners: 1, lever: 0.4))), [],
                       "a real talker's head: the eyes carried 0.084 face widths")
    }

    /// A talking head down 11° for a second and a half, bobbing ±4° as it talks: its corners read the threshold on
    /// average, but not all the while, as a held look's do.
    func testATalkingHeadBobbingDownIsNoLook() {
        let blindNose = Face(nose: 0.25, corners: 1, lever: 0.7)
        XCTAssertEqual(events(look(11, blindNose, bob: 4)), [])
        XCTAssertEqual(events(look(18, blindNose, bob: 4)).of(.lookStart).map(\.direction), [.down], "deeper, it is a look")
    }

    /// A real face reads its look down by the nose; the witnesses neither add a look nor end it early.
    func testALookTheNoseReadsIsOneLook() {
        let real = events(look(18, Face(nose: 1.5, corners: 0.7, lever: 0.43)))
        XCTAssertEqual(real.of(.lookStart).map(\.direction), [.down], "\(real)")
        XCTAssertEqual(real.of(.lookStop).map(\.direction), [.down])
    }
}
