import Gestures

/// How one kind of gesture fared on a clip: labelled segments, those an event found, and false events.
struct KindScore: Equatable, Sendable {
    var segments = 0
    var found = 0
    var falseEvents = 0
    /// First frames of the segments no event found, and frames of the false events: where to look.
    var missedAt: [Int] = []
    var falseAt: [Int] = []
    /// Nods and shakes: for each missed segment (as `missedAt`), the rule that turned away the widest swing of
    /// its kind that overlapped its window (`Unheard.Rule`), or "" when no swing that wide was seen there.
    var missedWhy: [String] = []
    /// For each segment found, seconds from its labelled end to the first event that found it: how long the
    /// person waits after finishing (negative when a sustained answer is reported before it ends). Bounded by
    /// the window: an event later than `GestureScore.after` frames is a miss and a false event instead.
    var delays: [Double] = []
    /// Nods and shakes: events of the kind inside a segment's window that are not the first in any: one answer
    /// reported again (a second switch press for one "yes"). Not false events, which the score has always
    /// counted outside every window; a person would count them against it all the same.
    var repeated = 0
    var repeatedAt: [Int] = []

    var missed: Int { segments - found }
    var medianDelay: Double? { delays.isEmpty ? nil : PoseScore.median(delays) }
    var worstDelay: Double? { delays.max() }

    static func + (a: KindScore, b: KindScore) -> KindScore {
        KindScore(segments: a.segments + b.segments, found: a.found + b.found, falseEvents: a.falseEvents + b.falseEvents,
                  missedAt: a.missedAt + b.missedAt, falseAt: a.falseAt + b.falseAt, missedWhy: a.missedWhy + b.missedWhy,
                  delays: a.delays + b.delays,
                  repeated: a.repeated + b.repeated, repeatedAt: a.repeatedAt + b.repeatedAt)
    }
}

/// A clip's gesture events against its labels, by the rules of docs/accuracy.md (those of the synthetic
/// set's own scorer). Pure: the same events and labels always give the same counts.
struct GestureScore: Equatable, Sendable {
    /// A gesture is reported after it happens (a nod once the head rests, a look after its confirmation
    /// delay), and hand-made boundaries are rough: an event counts for a segment from `before` frames before
    /// its start to `after` frames after its end.
    static let before = 8
    static let after = 15

    var nod = KindScore()
    var shake = KindScore()
    /// Segments are look segments; events are `look` and `look_start`.
    var look = KindScore()
    /// Looks inside a look window, none of whose segments has their direction.
    var wrongDirection = 0
    var wrongDirectionAt: [Int] = []
    /// False nods and shakes inside talking, expression or lateral-lean segments, and those segments' length.
    var falseInTalking = 0
    var talkingSeconds = 0.0

    var talkingMinutes: Double { talkingSeconds / 60 }
    /// False nods and shakes a minute of talking; nil without talking.
    var falseInTalkingPerMinute: Double? { talkingSeconds > 0 ? Double(falseInTalking) / talkingMinutes : nil }

    init() {}

    init(events: [GestureEvent], labels: ClipLabels, frameRate: Double) {
        let segments = labels.segments
        func inWindow(_ s: LabelSegment, _ frame: Int) -> Bool { s.start - Self.before <= frame && frame <= s.end + Self.after }
        /// A swing not heard that overlapped the segment's window (its times in this clip's frames).
        func overlapsWindow(_ s: LabelSegment, _ u: Unheard) -> Bool {
            s.start - Self.before <= Int((u.end * frameRate).rounded()) && Int((u.start * frameRate).rounded()) <= s.end + Self.after
        }
        let talking = segments.filter(\.label.isTalking)
        talkingSeconds = Double(talking.reduce(0) { $0 + $1.frameCount }) / frameRate

        for kind in [GestureKind.nod, .shake] {
            let label: SegmentLabel = kind == .nod ? .nod : .shake
            let own = segments.filter { $0.label == label }
            let mine = events.filter { $0.kind == kind }
            var score = KindScore(segments: own.count)
            var firsts = Set<Int>()   // indices into `mine` of the events that found a segment
            for s in own {
                if let i = mine.firstIndex(where: { inWindow(s, $0.frame) }) {
                    score.found += 1
                    score.delays.append(Double(mine[i].frame - s.end) / frameRate)
                    firsts.insert(i)
                } else {
                    score.missedAt.append(s.start)
                    let why = events.compactMap(\.unheard).filter { $0.kind == kind && overlapsWindow(s, $0) }.max { $0.range < $1.range }
                    score.missedWhy.append(why?.rule.rawValue ?? "")
                }
            }
            for (i, e) in mine.enumerated() {
                if !own.contains(where: { inWindow($0, e.frame) }) {
                    score.falseEvents += 1
                    score.falseAt.append(e.frame)
                    if talking.contains(where: { $0.contains(e.frame) }) { falseInTalking += 1 }
                } else if !firsts.contains(i) {
                    score.repeated += 1
                    score.repeatedAt.append(e.frame)
                }
            }
            if kind == .nod { nod = score } else { shake = score }
        }

        let looks = events.filter { $0.kind == .look || $0.kind == .lookStart }
        let lookSegments = segments.filter { $0.label.lookDirection != nil }
        let swings = segments.filter { $0.label == .nod || $0.label == .shake }
        look.segments = lookSegments.count
        for s in lookSegments {
            if looks.contains(where: { inWindow(s, $0.frame) && $0.direction == s.label.lookDirection }) {
                look.found += 1
            } else {
                look.missedAt.append(s.start)
            }
        }
        for e in looks {
            let windows = lookSegments.filter { inWindow($0, e.frame) }
            if !windows.isEmpty {
                if !windows.contains(where: { $0.label.lookDirection == e.direction }) {
                    wrongDirection += 1
                    wrongDirectionAt.append(e.frame)
                }
            } else if !swings.contains(where: { inWindow($0, e.frame) }) {
                // A nod or shake moves the head too; a look reported during one is not counted against it.
                look.falseEvents += 1
                look.falseAt.append(e.frame)
            }
        }
    }

    /// Totals over clips.
    static func + (a: GestureScore, b: GestureScore) -> GestureScore {
        var s = GestureScore()
        s.nod = a.nod + b.nod
        s.shake = a.shake + b.shake
        s.look = a.look + b.look
        s.wrongDirection = a.wrongDirection + b.wrongDirection
        s.wrongDirectionAt = a.wrongDirectionAt + b.wrongDirectionAt
        s.falseInTalking = a.falseInTalking + b.falseInTalking
        s.talkingSeconds = a.talkingSeconds + b.talkingSeconds
        return s
    }
}
