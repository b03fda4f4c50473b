/// Why a swing of the head was not heard as a "yes" or "no": the rule that turned it away, what was measured and
/// what that rule allows. A person setting Nodwire up sees it beside the movement (the web page, `replay --why`,
/// the guided fit's report), so a missed answer points at the setting that missed it instead of at nothing.
/// Nothing here decides anything: the recogniser's rules do, and this only names the first one that said no.
public struct Unheard: Sendable, Equatable {
    /// The rules of `SwingRecognizer.check`, in the order it applies them (docs/gestures.md has the reasoning
    /// of each; the order decides which reading of a movement is explained: the one that passed the most). The raw
    /// value is the event stream's `rule`.
    public enum Rule: String, Sendable, CaseIterable {
        /// It began too soon after an answer was reported or after the face came back: the seconds before it,
        /// which it must stand out from, were not seen or were the answer.
        case tooSoon = "too_soon"
        /// A stroke took longer than `max_stroke`: a slow turn, not a swing.
        case strokeTooSlow = "stroke_too_slow"
        /// The head stayed at a turning point longer than `max_hold`: a look held, not a swing turning over.
        case heldAtTurn = "held_at_turn"
        /// The head stopped and went on the same way: one movement in two pieces.
        case wentOnTheSameWay = "went_on_the_same_way"
        /// A stroke was smaller than `min_amplitude` (half of it for the first and last).
        case strokeTooSmall = "stroke_too_small"
        /// The face was found mid-stroke and what was seen of that stroke was larger than the swing's strokes.
        case foundInALargerMove = "found_in_a_larger_move"
        /// The smallest stroke was under `min_symmetry` of the largest: lopsided, as talking's bobs are.
        case lopsided
        /// The strokes did not swing about one centre (`return_tolerance`).
        case offCentre = "off_centre"
        /// A "no" that did not turn to both sides of where it set off.
        case oneSided = "one_sided"
        /// More cycles a second than `max_rate`.
        case tooFast = "too_fast"
        /// A single out-and-back, and `single` is off: two cycles are needed.
        case singlesOff = "singles_off"
        /// A single out-and-back narrower than `single_range`.
        case singleTooNarrow = "single_too_narrow"
        /// A single out-and-back that held a look at its turn, and the look was reported (`continuous.dwell`): a
        /// look one way and then the other.
        case heldALook = "held_a_look"
        /// A single out-and-back that did not set off from a rest (`settle`): talking's dips follow one another.
        case singleNotFromRest = "single_not_from_rest"
        /// A "yes" must go down from where the head rested: this went up and came back.
        case notDown = "not_down"
        /// It did not come back to where it set off (`return_tolerance` of its largest stroke).
        case notHome = "not_home"
        /// A stroke as big came just before it (`contrast`, within `contrast_window`): talking, not an answer.
        case notStandingOut = "not_standing_out"
        /// The other axis moved more than `max_cross_ratio` of this one's range: a diagonal, not one axis.
        case otherAxisMoved = "other_axis_moved"
        /// The head was turned further than `max_other_angle` on the other axis.
        case turnedAway = "turned_away"
        /// The face travelled across the picture more than `posture.max_translation`: a body moving.
        case bodyMoved = "body_moved"
        /// The picture moved but the face hardly turned in it: the camera moved.
        case cameraMoved = "camera_moved"
        /// The eyes were not carried across the picture with the swing: the face changed shape, the head did not turn.
        case eyesNotCarried = "eyes_not_carried"
        /// The eye corners did not follow the pitch as this face's do: the nose moved (a lip, a wrinkle), not the head.
        case cornersDidNotFollow = "corners_did_not_follow"
    }

    /// Which answer it was not: `.nod` or `.shake`.
    public var kind: GestureKind
    public var rule: Rule
    /// What was measured against the rule (degrees, seconds, a fraction or a rate, as the setting is), when it
    /// has one number.
    public var measured: Double?
    /// What the rule allows, in the same unit.
    public var allowed: Double?
    /// Degrees end to end of the swing, its strokes (turning point to turning point), and when it began and ended
    /// (seconds, the samples' clock).
    public var range: Double
    public var strokes: Int
    public var start: Double
    public var end: Double

    public init(kind: GestureKind, rule: Rule, measured: Double? = nil, allowed: Double? = nil, range: Double, strokes: Int = 2,
                start: Double, end: Double) {
        self.kind = kind; self.rule = rule; self.measured = measured; self.allowed = allowed
        self.range = range; self.strokes = strokes; self.start = start; self.end = end
    }

    /// The config key of the setting that decided, when one does (`gestures.nod.max_hold`).
    public var setting: String? {
        let own = "gestures.\(kind == .shake ? "shake" : "nod")."
        switch rule {
        case .tooSoon: return own + "contrast_window"
        case .strokeTooSlow: return own + "max_stroke"
        case .heldAtTurn: return own + "max_hold"
        case .strokeTooSmall: return own + "min_amplitude"
        case .lopsided: return own + "min_symmetry"
        case .offCentre, .notHome, .foundInALargerMove: return own + "return_tolerance"
        case .tooFast: return own + "max_rate"
        case .singlesOff: return own + "single"
        case .singleTooNarrow: return own + "single_range"
        case .heldALook: return "gestures.continuous.dwell"
        case .singleNotFromRest: return own + "settle"
        case .notStandingOut: return own + "contrast"
        case .otherAxisMoved: return own + "max_cross_ratio"
        case .turnedAway: return own + "max_other_angle"
        case .bodyMoved: return "gestures.posture.max_translation"
        case .wentOnTheSameWay, .oneSided, .notDown, .cameraMoved, .eyesNotCarried, .cornersDidNotFollow: return nil
        }
    }

    /// One sentence for a person: what the movement was not, and why, with the numbers.
    public var sentence: String {
        let what = kind == .shake ? "not a \"no\"" : "not a \"yes\""
        func n(_ v: Double?, _ unit: String) -> String {
            guard let v else { return "?" }
            let r = (v * 100).rounded() / 100
            return (r == r.rounded() ? String(Int(r)) : String(r)) + unit
        }
        let m = measured, a = allowed
        let why: String
        switch rule {
        case .tooSoon: why = "it began within \(n(a, " s")) of an answer or of the face coming back"
        case .strokeTooSlow: why = "a stroke took \(n(m, " s")), longer than \(n(a, " s"))"
        case .heldAtTurn: why = "the head stayed \(n(m, " s")) at a turn, longer than \(n(a, " s")) (a look)"
        case .wentOnTheSameWay: why = "the head stopped and went on the same way"
        case .strokeTooSmall: why = "a stroke of \(n(m, "°")) is under \(n(a, "°"))"
        case .foundInALargerMove: why = "the face was found in a move of \(n(m, "°")), larger than the swing's \(n(a, "°"))"
        case .lopsided: why = "its smallest stroke was \(n(m, "")) of its largest, under \(n(a, ""))"
        case .offCentre: why = "its strokes did not swing about one centre"
        case .oneSided: why = "it did not turn to both sides of where it set off"
        case .tooFast: why = "\(n(m, "")) cycles a second is faster than \(n(a, ""))"
        case .singlesOff: why = "a single out-and-back, and singles are off: two are needed"
        case .singleTooNarrow: why = "a single out-and-back of \(n(m, "°")) is narrower than \(n(a, "°"))"
        case .heldALook: why = "the head held a look at its turn, and the look was reported"
        case .singleNotFromRest: why = "a single out-and-back that did not set off from a rest"
        case .notDown: why = "it went up first, not down"
        case .notHome: why = "it ended \(n(m, "°")) from where it set off, more than \(n(a, "°"))"
        case .notStandingOut: why = "a stroke of \(n(m, "°")) came just before it, more than \(n(a, "°")) (talking)"
        case .otherAxisMoved: why = "the other axis moved \(n(m, "")) of its range, more than \(n(a, ""))"
        case .turnedAway: why = "the head was \(n(m, "°")) off facing the camera, more than \(n(a, "°"))"
        case .bodyMoved: why = "the face travelled \(n(m, "")) face widths, more than \(n(a, "")) (a body moving)"
        case .cameraMoved: why = "the picture moved but the face hardly turned in it"
        case .eyesNotCarried:
            why = "the eyes did not move with it" + (m == nil ? "" : " (\(n(m, "")) face widths a radian, under \(n(a, "")))") + ": the face changed shape"
        case .cornersDidNotFollow:
            why = "the eye corners did not follow it" + (m == nil ? "" : " (\(n(m, "")), under \(n(a, "")))") + ": the nose moved, not the head"
        }
        return "\(what): \(why)" + (setting.map { " [\($0)]" } ?? "")
    }
}
