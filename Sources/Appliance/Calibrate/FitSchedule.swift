import Gestures

/// When each prompt of a live guided fit shows: every `FitStep` for its own time, with a pause between two
/// (back to rest, read the next prompt) that is measured as nothing.
struct FitSchedule: Sendable, Equatable {
    struct Slot: Sendable, Equatable {
        var step: FitStep
        var start: Double
        var end: Double
    }

    /// Seconds between two prompts: the next is shown, the head comes back to rest.
    static let pause = 2.0

    let slots: [Slot]

    /// `scale`: the pace, applied to every step and pause (2 gives a slow person twice the time).
    init(steps: [FitStep] = FitStep.allCases, pause: Double = Self.pause, scale: Double = 1) {
        var t = 0.0
        var slots: [Slot] = []
        for s in steps {
            slots.append(Slot(step: s, start: t, end: t + s.seconds * scale))
            t += (s.seconds + pause) * scale
        }
        self.slots = slots
    }

    var duration: Double { (slots.last?.end ?? 0) + 0.5 }

    /// The step being done at `t` seconds from the start, nil in a pause.
    func step(at t: Double) -> FitStep? { slots.first { $0.start <= t && t < $0.end }?.step }

    /// What to show at `t`: the prompt under way with the seconds left, or the next one coming.
    func prompt(at t: Double) -> (text: String, step: FitStep?, secondsLeft: Double) {
        if let s = slots.first(where: { $0.start <= t && t < $0.end }) {
            return (s.step.prompt, s.step, s.end - t)
        }
        if let next = slots.first(where: { $0.start > t }) {
            return ("Back to rest. Next: " + next.step.prompt, nil, next.start - t)
        }
        return ("Done: keep still while the fit is worked out.", nil, 0)
    }
}

/// A labelled clip's timeline read as the prompts of a fit (a saved session, or any labelled recording):
/// its stretches of nothing are the head at rest, the looks are the range, talking is talking.
enum FitLabels {
    static func step(_ label: SegmentLabel) -> FitStep? {
        switch label {
        case .none: return .neutral
        case .turnNoseToImageRight: return .left    // the clips are not mirrored: the person's own left
        case .turnNoseToImageLeft: return .right
        case .lookUp: return .up
        case .lookDown: return .down
        case .nod: return .nod
        case .shake: return .shake
        case .noneTalking, .noneExpression: return .talk
        case .noneLateralLean: return nil
        }
    }

    /// The step of every frame (nil where the clip has no prompt).
    static func steps(_ labels: ClipLabels) -> [Int: FitStep] {
        var out: [Int: FitStep] = [:]
        for s in labels.segments {
            guard let step = step(s.label) else { continue }
            for f in s.start...s.end { out[f] = step }
        }
        return out
    }

    /// The label a step is saved as, so a session replays and scores like any labelled clip.
    static func label(_ step: FitStep?) -> SegmentLabel {
        switch step {
        case .neutral?, nil: return .none    // a pause between prompts is rest too
        case .left?: return .turnNoseToImageRight
        case .right?: return .turnNoseToImageLeft
        case .up?: return .lookUp
        case .down?: return .lookDown
        case .nod?: return .nod
        case .shake?: return .shake
        case .talk?: return .noneTalking
        }
    }

    /// `{"fps", "frames", "segments":[{label,start,end}]}` for the steps of frames 0..<steps.count.
    static func json(_ steps: [FitStep?], frameRate: Double, source: String) -> String {
        var segments: [(SegmentLabel, Int, Int)] = []
        for (i, s) in steps.enumerated() {
            let l = label(s)
            if let last = segments.last, last.0 == l { segments[segments.count - 1].2 = i } else { segments.append((l, i, i)) }
        }
        let body = segments.map { "  {\"label\": \"\($0.0.rawValue)\", \"start\": \($0.1), \"end\": \($0.2)}" }.joined(separator: ",\n")
        return "{\n \"source\": \(ConfigValue.quoted(source)),\n \"fps\": \(EventJSON.number(frameRate, 3)),\n \"frames\": \(steps.count),\n \"segments\": [\n\(body)\n ]\n}\n"
    }
}
