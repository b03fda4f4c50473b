@testable import Appliance
import Foundation
import Gestures
import Pipeline
import XCTest

/// A real face that changes shape without the head moving (docs/gestures.md "A face that changes shape"):
/// clm_look's talking with the base of his nose and his upper lip moved up and down, as a wrinkled nose or an
/// opening mouth moves them. The pitch is read from that point, so it swings with the rhythm of a nod; the
/// eyes stay where they are, and no nod may fire. The same warp as `scripts/degrade.py expression`.
final class FaceShapeTests: XCTestCase {
    /// ±0.05 eye distances (about ±3 mm on an adult face) at 1.2 Hz, from 1 s to 3 s (he talks until 4.2 s):
    /// the eyes stay where they are (`SwingRecognizer.minCarry`).
    func testAFaceChangingShapeWhileTalkingIsNotANod() throws {
        XCTAssertEqual(try nodsAndShakes(amplitude: 0.05, hz: 1.2, spans: [1.0...3.0]), [], "a face changing shape is not a nod or shake")
    }

    /// ±0.06 at 1.2 Hz for 3 s at a time from 2, 7 and 12 s: while he talks, turns and looks, and leans to the
    /// side and back. Leaning, his eyes move across the picture too; the nose moves, the eye corners do not tip
    /// (`SwingRecognizer.minCornerShare`; docs/gestures.md "A nod read from the nose alone": a false nod at
    /// about 14 s without it). He looked up and down before, so how his corners follow his pitch is known.
    func testAFaceChangingShapeWhileLeaningIsNotANod() throws {
        XCTAssertEqual(try nodsAndShakes(amplitude: 0.06, hz: 1.2, spans: [2.0...5.0, 7.0...10.0, 12.0...15.0]), [],
                       "a face changing shape is not a nod or shake")
    }

    /// clm_look with the base of his nose and his upper lip moved down by `amplitude` eye distances x a sine at
    /// `hz` during each of `spans` (seconds, easing in and out over 0.2 s), replayed: its nods and shakes.
    private func nodsAndShakes(amplitude: Double, hz: Double, spans: [ClosedRange<Double>]) throws -> [GestureEvent] {
        let root = ReplayTests.root
        let settings = ReplayTests.withModel()
        let warped = "\(root)/.build-fixtures/clm_look-shape-\(getpid())-\(hz).y4m"
        defer { try? FileManager.default.removeItem(atPath: warped) }

        // Where the nose is comes from the original frames; the warp follows it.
        let finder = try FaceProcessor(settings: settings.vision)
        var reader = try Y4MReader(path: "\(root)/.build-fixtures/clm_look.y4m")
        var writer = try Y4MWriter(path: warped, width: reader.width, height: reader.height, frameRate: reader.frameRate)
        var frame = reader.makeFrame()
        var moved = 0
        while try reader.next(into: &frame) {
            let face = finder.process(frame).face
            let t = frame.time
            var out = frame
            if let span = spans.first(where: { $0.contains(t) }), let l = face?.landmarks {
                let ease = min(1, (t - span.lowerBound) / 0.2, (span.upperBound - t) / 0.2)
                let shift = amplitude * ease * sin(2 * .pi * hz * (t - span.lowerBound)) * l.eyeDistance
                out = Self.warp(frame, around: Point2(x: l.nose.x, y: l.nose.y + 0.15 * l.eyeDistance),
                                width: 0.25 * l.eyeDistance, down: shift)
                moved += 1
            }
            try writer.write(out)
        }
        writer.close()
        let spanned = spans.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        XCTAssertGreaterThan(moved, Int(0.9 * spanned * reader.frameRate), "the face was found through the spans")

        return try ReplayTests.replay(warped).events.filter { [.nod, .shake].contains($0.kind) }
    }

    /// Moves the picture near `centre` down by `down` pixels, fading as a Gaussian of `width` (bilinear).
    static func warp(_ f: LumaFrame, around centre: Point2, width: Double, down: Double) -> LumaFrame {
        var out = f
        let reach = Int(3 * width)
        let x0 = max(0, Int(centre.x) - reach), x1 = min(f.width - 1, Int(centre.x) + reach)
        let y0 = max(0, Int(centre.y) - reach), y1 = min(f.height - 1, Int(centre.y) + reach)
        guard x0 <= x1, y0 <= y1 else { return out }
        out.withMutablePixels { p in
            for y in y0...y1 {
                for x in x0...x1 {
                    let dx = Double(x) - centre.x, dy = Double(y) - centre.y
                    let sy = Double(y) - down * exp(-(dx * dx + dy * dy) / (2 * width * width))
                    let yi = min(f.height - 2, max(0, Int(sy.rounded(.down)))), a = min(1, max(0, sy - Double(yi)))
                    let v = Double(f[x, yi]) * (1 - a) + Double(f[x, yi + 1]) * a
                    p[y * f.stride + x] = UInt8(min(255, max(0, v.rounded())))
                }
            }
        }
        return out
    }
}
