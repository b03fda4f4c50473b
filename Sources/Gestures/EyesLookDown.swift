/// A look down that the eyes show when the nose hardly does. On some faces the base of the nose hides behind its tip
/// as the head tips down, and five points read an 18° look down held a second as 1-9° (rendered faces; docs/vision.md
/// "The eye corners"), inside the idle zone or short of the threshold. Two other witnesses still see it: the eye
/// corners (`HeadPose.cornerDrop`: the outer ones lie further back and rise against the inner ones as the head tips
/// down) and the eyes themselves, carried down the picture by a head tipping about its neck. Neither alone is a look:
/// a smile lifts the outer eye corners as a look down does (a real talker's corners read 16° where her nose read 9°
/// and MediaPipe 4°), and a body leaning or swaying carries the eyes. Together, held a second with the nose agreeing,
/// they are one: a smile does not carry the eyes down the picture, a lean does not turn the corners, and the nose
/// must still read the head down, only less. docs/gestures.md "A look down the eyes show".
struct EyesLookDown: Sendable {
    /// Eye distances the corner drop moves a degree of pitch: the rendered heads' population slope (0.0014-0.0019 on
    /// three faces' sweeps); the real clm_look's look down reads −15° by it where MediaPipe puts −14°.
    static let cornerSlope = 0.00155
    /// Degrees below neutral the nose must read in every sample of the held second: it agrees on the direction, if
    /// not on the size (the rendered faces' 1-9°; a smile's or a talker's corners come and go about a level nose).
    static let noseAgreement = 1.5
    /// Face widths the eyes must come down the picture a radian of what the corners read: a head tipping about its
    /// neck carries them by the eyes' distance in front of the pivot. Real heads here: the real clm_look's look down
    /// 0.43 (0.21-0.23 eye distances at 11-13° by the corners; the face box is 2.4 eye distances wide, 0.40-0.42 on
    /// four faces), the podium speaker looking at his notes 0.47; the rendered heads 0.61-1.0 (their neck is longer
    /// than a person's). A face that only changes shape carries the eyes less than its corners say: the real smiling
    /// talker's corners reading 16-17° carried them at most 0.15 eye distances (0.21 a radian), a real man talking
    /// and smiling close to the camera, his corners reading 13.5°, 0.34 a radian. Just under the shortest real lever.
    static let minLever = 0.4
    /// And at least this many face widths, whatever the corners read (0.24 eye distances: a real head's lever above
    /// turned 14°). Real heads move as they talk, and their eyes with them: over every real clip here from 33
    /// starts, the seconds a talker's nose read down and corners read the threshold carried the eyes 0.075-0.088
    /// (a smiling woman, a man close to the camera, a still person whose head moves by itself), at a lever of
    /// 0.40-0.43 like a look's; the rendered looks down this witness finds carried them 0.116-0.24, and a person's
    /// deliberate look down is 15° or more ("Why these defaults"), which a real nose reads by itself.
    static let minEyeTravel = 0.1
    /// The witnesses are averaged over quarters of `zones.heldFor`: held, each quarter of it; home again, the last.
    static let quarters = 4

    /// The corner drop and the eyes' height (pixels, upward) at rest: learnt with the neutral, following it at rest.
    private var rest: (corner: Double, eyesUp: Double)?
    /// Since when the witnesses have held the head down (nil: they do not).
    private(set) var since: Double?
    /// How far down the corners read it over the second that began it, degrees: the look's distance as the eyes show it.
    private(set) var shown = 0.0
    var isDown: Bool { since != nil }

    /// Forgets the rest: a new face.
    mutating func reset() { rest = nil; since = nil }
    /// Forgets a look under way (motion forgotten), keeping the rest.
    mutating func release() { since = nil }

    /// The rest is the mean of the history's samples since `time` that carry both witnesses (none: unknown).
    mutating func learnRest(_ history: History, since time: Double) {
        var n = 0.0, corner = 0.0, eyes = 0.0
        for i in history.window(from: time, through: .infinity) {
            guard let c = history[i].cornerDrop, let e = history[i].eyesUp else { continue }
            n += 1; corner += c; eyes += e
        }
        rest = n > 0 ? (corner / n, eyes / n) : nil
        since = nil
    }

    /// At rest, follows the newest sample by a share `k` (the neutral's drift).
    mutating func follow(_ e: History.Entry, by k: Double) {
        guard let r = rest, let c = e.cornerDrop, let y = e.eyesUp, !isDown else { return }
        rest = (r.corner + k * (c - r.corner), r.eyesUp + k * (y - r.eyesUp))
    }

    /// Judges the newest sample of `history` against `neutral` (smoothed angles): whether the witnesses hold the head
    /// down now. They begin to once, over the last `zones.heldFor`, the nose read down by `noseAgreement` in every
    /// sample with the yaw inside the idle zone, the corners read beyond `zones.thresholdPitch` in each quarter of it
    /// (on average: they are 2-4 times as jittery as the nose; and the whole threshold where a nose held a second
    /// needs 0.75 of it: a rendered talker's head dipping 10-12° for a second reads 6-10° by them at times), and the
    /// eyes came down as far as a head turned that much carries them (`minLever`, `minEyeTravel`); they stop on the
    /// same witnesses: the corners or the eyes home (within the idle zone over the last quarter), or the nose back up
    /// at neutral.
    mutating func update(_ history: History, neutral: Angles, zones z: GestureSettings.Zones) -> Bool {
        guard let r = rest, history.count > 0 else { since = nil; return false }
        let newest = history[history.count - 1], t = newest.time, quarter = z.heldFor / Double(Self.quarters)
        func degreesDown(_ e: History.Entry) -> Double? { e.cornerDrop.map { (r.corner - $0) / Self.cornerSlope } }
        func eyesDown(_ e: History.Entry) -> Double? { e.eyesUp.map { (r.eyesUp - $0) / max(1, e.faceSize) } }
        // The eyes' travel a head turned by `degrees` about its neck gives at least.
        func carried(_ degrees: Double) -> Double { Self.minLever * degrees * .pi / 180 }
        if since != nil {
            var n = 0.0, corners = 0.0, eyes = 0.0
            for i in history.window(from: t - quarter, through: t) {
                guard let d = degreesDown(history[i]), let y = eyesDown(history[i]) else { continue }
                n += 1; corners += d; eyes += y
            }
            if n == 0 || corners / n <= z.idlePitch || eyes / n <= carried(z.idlePitch) || newest.pitch >= neutral.pitch { since = nil }
            return isDown
        }
        // A whole held second seen: the history reaches back beyond it.
        let w = history.window(from: t - z.heldFor, through: t)
        guard w.lowerBound > 0, !w.isEmpty else { return false }
        var corners = 0.0, eyes = 0.0
        var parts = [(sum: Double, n: Double)](repeating: (0, 0), count: Self.quarters)
        for i in w {
            let e = history[i]
            guard let d = degreesDown(e), let y = eyesDown(e), e.pitch - neutral.pitch <= -Self.noseAgreement,
                  abs(e.yaw - neutral.yaw) <= z.idleYaw else { return false }
            corners += d; eyes += y
            let q = min(Self.quarters - 1, max(0, Int((e.time - (t - z.heldFor)) / quarter)))
            parts[q].sum += d; parts[q].n += 1
        }
        // The corners beyond the threshold all the while, each quarter of the second on average.
        guard parts.allSatisfy({ $0.n > 0 && $0.sum / $0.n >= z.thresholdPitch }) else { return false }
        let n = Double(w.count)
        if eyes / n >= max(Self.minEyeTravel, carried(corners / n)) { since = history[w.lowerBound].time; shown = corners / n }
        return isDown
    }
}
