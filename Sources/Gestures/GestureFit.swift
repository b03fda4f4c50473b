/// The guided fit: a short prompted session (look straight, turn as far as is comfortable each way, nod,
/// shake, talk) from which the person's own zones and nod/shake sizes are proposed, then checked by
/// replaying the same session through the engine. Pure: samples in, a proposal and its score out.
/// docs/gestures.md ("Fitting Nodwire to a person") gives the reasoning behind each rule.

/// One prompt of the session, in the order they are given.
public enum FitStep: String, Sendable, CaseIterable {
    case neutral, left, right, up, down, nod, shake, talk

    /// What the person is asked to do.
    public var prompt: String {
        switch self {
        case .neutral: return "Sit as you will use it and look straight ahead, at ease."
        case .left: return "Turn your head to your left, as far as is comfortable, and back."
        case .right: return "Turn your head to your right, as far as is comfortable, and back."
        case .up: return "Tilt your head up, as far as is comfortable, and back."
        case .down: return "Tilt your head down, as far as is comfortable, and back."
        case .nod: return "Nod \"yes\" the way you would answer, a few times, resting between."
        case .shake: return "Shake your head \"no\" the way you would answer, a few times, resting between."
        case .talk: return "Talk, as you would to someone in the room (count aloud, tell about your day)."
        }
    }

    /// How long each prompt lasts by default (s): long enough for a person who is slow to start.
    public var seconds: Double {
        switch self {
        case .neutral: return 4
        case .left, .right, .up, .down: return 4
        case .nod, .shake: return 8
        case .talk: return 20
        }
    }

    /// The look a range step should give, if it is one.
    public var direction: Direction? {
        switch self {
        case .left: return .left
        case .right: return .right
        case .up: return .up
        case .down: return .down
        default: return nil
        }
    }
}

/// What was recorded: every sample, with the prompt that was showing (nil between prompts).
public struct FitRecording: Sendable {
    public struct Entry: Sendable {
        public var sample: HeadSample
        public var step: FitStep?
        public init(sample: HeadSample, step: FitStep?) { self.sample = sample; self.step = step }
    }
    public var entries: [Entry] = []
    public init(entries: [Entry] = []) { self.entries = entries }
    public mutating func append(_ sample: HeadSample, step: FitStep?) { entries.append(Entry(sample: sample, step: step)) }

    /// The stretches of one prompt each, in order: a step may be given more than once (a labelled clip).
    public func segments() -> [(step: FitStep, time: ClosedRange<Double>)] {
        var out: [(step: FitStep, time: ClosedRange<Double>)] = []
        var previous: FitStep?
        for e in entries {
            defer { previous = e.step }
            guard let s = e.step else { continue }
            if s == previous, let last = out.last { out[out.count - 1].time = last.time.lowerBound...e.sample.time }
            else { out.append((s, e.sample.time...e.sample.time)) }
        }
        return out
    }
}

/// What the session showed of the person, in degrees.
public struct FitMeasures: Sendable, Equatable {
    /// Median pose while looking straight, and how much it wandered (RMS about it).
    public var neutral: Angles
    public var restNoise: Angles
    /// The furthest each direction was held (95th percentile of the offset in its own step).
    public var reach = DirectionValues()
    /// The typical stroke (turning point to turning point) of the person's nods and shakes; nil if not shown.
    public var nodStroke: Double?
    public var shakeStroke: Double?
    /// The slowest of those strokes, seconds from leaving one turning point to arriving at the next (as the
    /// recogniser times them against `max_stroke`); nil if not shown.
    public var nodStrokeTime: Double?
    public var shakeStrokeTime: Double?
    /// The longest stop out in the answer (at a dip's bottom, at a shake's side), seconds from reaching the
    /// turning point to leaving it (as the recogniser times a pause against `max_hold`); nil if none was seen.
    public var nodStopTime: Double?
    public var shakeStopTime: Double?
    /// While talking: the largest stroke of each axis, and how far from neutral the head went (`talkQuantile`).
    public var talkPitchStroke = 0.0
    public var talkYawStroke = 0.0
    public var talkOffset = Angles(yaw: 0, pitch: 0)
    public var talked = false
}

/// How the proposed settings did on the session itself.
public struct FitScore: Sendable, Equatable {
    /// Prompted gestures (nod, shake, the four looks) the engine found, and which were missed.
    public var found: [FitStep] = []
    public var missed: [FitStep] = []
    /// Events while the person talked (any nod, shake or look): each one a false switch.
    public var falseWhileTalking = 0
    /// Nods or shakes where none was asked for (in the neutral or range steps).
    public var falseElsewhere = 0
    public var events: [GestureEvent] = []
    /// For a missed nod or shake prompt, why the widest swing of that kind made during it (overlapping it) was not
    /// heard.
    public var whyMissed: [FitStep: Unheard] = [:]

    public var clean: Bool { falseWhileTalking == 0 && falseElsewhere == 0 }
}

/// The fit's answer: the settings, what changed, how they scored, and what a person should know.
public struct FitProposal: Sendable {
    public var measures: FitMeasures
    public var settings: GestureSettings
    public var score: FitScore
    /// The talking margin the proposal needed (see `GestureFit.margins`).
    public var margin: Double
    public var notes: [String]
}

public enum GestureFitError: Error, Equatable, CustomStringConvertible {
    case noNeutral
    public var description: String {
        switch self {
        case .noNeutral: return "no face was seen while looking straight ahead: nothing to fit to (is the face in the picture, and lit?)"
        }
    }
}

public enum GestureFit {
    /// A look threshold sits at this fraction of the smaller comfortable reach of its axis, so both sides
    /// are reached without strain (the defaults, 12°/10°, are half of an adult's easy 25°/20°).
    public static let thresholdFraction = 0.5
    /// The idle zone is `noiseFactor` x the rest noise, kept between these fractions of the threshold (the
    /// defaults' ratio is about 0.4).
    public static let idleFractions = 0.35...0.45
    public static let noiseFactor = 4.0
    /// A direction reached less than this (degrees) was not shown: its axis keeps its current values.
    public static let minimumReach = 6.0
    /// Thresholds stay within these (degrees): below, the pose's own jitter; above, a strain.
    public static let thresholdBounds = 4.0...45.0
    /// A stroke threshold is at most this fraction of the person's typical stroke (a swing from one side to
    /// the other). Full strokes must cover the threshold, the half strokes at the ends half of it, so a nod
    /// 0.4 the size of their typical one is still heard (a tired or shy nod is smaller). Chosen when every
    /// stroke had to cover it (0.4 left the half stroke a fifth to spare) and kept: the fit's people of
    /// `GuidedFitTests` are served the same.
    public static let strokeFraction = 0.4
    /// A single out-and-back must be at least this fraction of the person's typical stroke.
    public static let singleFraction = 0.8
    /// How far above the person's own talking motion a setting is put, tried in order until the session's
    /// talking gives nothing: 1.25 is a quarter more than the largest talking stroke seen in 20 s.
    public static let margins = [1.25, 1.6, 2.0]
    /// How far talking went from rest: nearly its furthest (a brief emphasis dip is a discrete look if it
    /// passes the threshold, so a typical value is not enough), without the one frame the tracker slipped.
    public static let talkQuantile = 0.99
    /// Strokes of a gesture step smaller than this fraction of its largest are drift or settling, not strokes.
    static let strokeFloor = 0.3
    /// A stroke threshold stays this much (degrees) above the turning-point hysteresis.
    public static let minimumStrokeOverHysteresis = 0.2
    /// `max_stroke` is raised to this many times the person's slowest stroke when that is slower than it
    /// allows: a tired answer is slower still. Never lowered: the default already allows 0.5 Hz.
    public static let strokeTimeMargin = 1.25
    /// The slowest stroke the fit proposes (seconds): slower than a 0.2 Hz swing a head is looking about,
    /// whoever it is.
    public static let slowestStrokeAllowed = 2.5
    /// A turning point at least this fraction of the person's typical stroke from their rest is out in the answer
    /// (a dip's bottom, a shake's side: half a stroke out), not the rest between answers (at the rest) or the small
    /// lift a "yes" overshoots by at its top (under a fifth of the dip).
    public static let stopOutFraction = 0.25
    /// The person needs time to react to a prompt: the first this-many seconds of a step are not measured.
    public static let reaction = 0.5

    /// Measures the session and proposes settings, starting from `current` (everything the fit does not
    /// set is kept). The proposal is replayed through the engine on the same session; if the person's
    /// talking fires anything, a wider margin is tried.
    /// `reaction`: seconds at the start of each prompt not measured (a person reacting to it); 0 for a clip
    /// whose labels mark the motions themselves.
    public static func propose(_ recording: FitRecording, from current: GestureSettings, reaction: Double = Self.reaction) throws(GestureFitError) -> FitProposal {
        let m = try measure(recording, smoothing: current.smoothing, hysteresis: (current.nod.hysteresis, current.shake.hysteresis),
                            settle: (current.nod.settle, current.shake.settle), reaction: reaction)
        var best: FitProposal?
        search: for margin in margins + [.infinity] {
            // The person's stops allowed first; if that makes their own looks or talking a "yes" or "no" (a stop as long
            // as a look is held), the same margin without them.
            var raised = false
            for stops in [true, false] {
                var notes: [String] = []
                let s = settings(for: m, from: current, margin: margin, stops: stops, notes: &notes)
                if stops {
                    raised = s.nod.maxHold != current.nod.maxHold || s.shake.maxHold != current.shake.maxHold
                } else {
                    guard raised else { continue }
                    notes.append("the answers' stops are as long as a look held: max_hold is kept (\(fmt2(current.nod.maxHold)) s for a nod, \(fmt2(current.shake.maxHold)) s for a shake); answer without stopping")
                }
                let score = Self.score(recording, with: s)
                best = FitProposal(measures: m, settings: s, score: score, margin: margin, notes: notes)
                if score.clean { break search }
            }
        }
        var p = best!
        if p.margin == .infinity {
            p.notes.append("even with single nods and shakes off, the session's talking fired \(p.score.falseWhileTalking) event(s): record again, or raise the thresholds by hand")
        } else if p.margin > margins[0] {
            p.notes.append("talking moved the head a lot: the settings were put \(p.margin) x above it")
        }
        return p
    }

    /// Replays the session through a fresh engine with `settings` and scores each prompt.
    public static func score(_ recording: FitRecording, with settings: GestureSettings) -> FitScore {
        var engine = GestureEngine(settings: settings)
        var events: [GestureEvent] = []
        for e in recording.entries { events += engine.process(e.sample) }
        let meaningful = events.filter { [.nod, .shake, .look, .lookStart].contains($0.kind) }
        var score = FitScore(events: meaningful)
        // A gesture is reported once it is over (a nod when the head rests, a look after its dwell): an event
        // answers a prompt shown up to this long before it.
        let late = settings.discrete.confirmDelay + settings.nod.settle + 0.6
        let segments = recording.segments()
        func answers(_ e: GestureEvent, _ s: FitStep) -> Bool {
            switch s {
            case .nod: return e.kind == .nod
            case .shake: return e.kind == .shake
            case .neutral, .talk: return false
            default: return (e.kind == .look || e.kind == .lookStart) && e.direction == s.direction
            }
        }
        for (s, span) in segments where s != .neutral && s != .talk {
            let hit = meaningful.contains { answers($0, s) && span.lowerBound <= $0.time && $0.time <= span.upperBound + late }
            if hit { score.found.append(s) } else { score.missed.append(s) }
            guard !hit, s == .nod || s == .shake else { continue }
            let unheard = events.compactMap(\.unheard).filter {
                $0.kind == (s == .nod ? .nod : .shake) && span.lowerBound <= $0.end && $0.start <= span.upperBound
            }
            if let widest = unheard.max(by: { $0.range < $1.range }), widest.range > score.whyMissed[s]?.range ?? -1 {
                score.whyMissed[s] = widest
            }
        }
        for e in meaningful {
            let asked = segments.contains { answers(e, $0.step) && $0.time.lowerBound <= e.time && e.time <= $0.time.upperBound + late }
            if asked { continue }
            if segments.contains(where: { $0.step == .talk && $0.time.lowerBound <= e.time && e.time - late <= $0.time.upperBound }) {
                score.falseWhileTalking += 1
            } else if e.kind == .nod || e.kind == .shake {
                score.falseElsewhere += 1
            }
        }
        return score
    }

    // MARK: - Measuring

    static func measure(_ r: FitRecording, smoothing: GestureSettings.Smoothing, hysteresis: (nod: Double, shake: Double),
                        settle: (nod: Double, shake: Double), reaction: Double = Self.reaction) throws(GestureFitError) -> FitMeasures {
        // The pose as the engine sees it: smoothed the same way, per step (a step's start is a new motion).
        var yawFilter = Smoother(smoothing), pitchFilter = Smoother(smoothing)
        var steps: [FitStep: [(t: Double, a: Angles)]] = [:]
        var segmentStart = -Double.infinity
        var previous: FitStep?
        for e in r.entries {
            defer { previous = e.step }
            if e.step != previous { segmentStart = e.sample.time }
            guard let pose = e.sample.pose else { yawFilter.reset(); pitchFilter.reset(); continue }
            let a = Angles(yaw: yawFilter.filter(pose.yaw, at: e.sample.time), pitch: pitchFilter.filter(pose.pitch, at: e.sample.time))
            guard let s = e.step, e.sample.time - segmentStart >= reaction else { continue }
            steps[s, default: []].append((e.sample.time, a))
        }
        guard let still = steps[.neutral], still.count >= 3 else { throw .noNeutral }
        let neutral = Angles(yaw: median(still.map(\.a.yaw)), pitch: median(still.map(\.a.pitch)))
        func rms(_ v: [Double], about c: Double) -> Double { (v.reduce(0) { $0 + ($1 - c) * ($1 - c) } / Double(v.count)).squareRoot() }
        var m = FitMeasures(neutral: neutral, restNoise: Angles(yaw: rms(still.map(\.a.yaw), about: neutral.yaw),
                                                               pitch: rms(still.map(\.a.pitch), about: neutral.pitch)))
        for step in FitStep.allCases {
            guard let d = step.direction else { continue }
            let along = (steps[step] ?? []).map { GestureEngine.distance(Angles(yaw: $0.a.yaw - neutral.yaw, pitch: $0.a.pitch - neutral.pitch), d) }
            m.reach[d] = along.isEmpty ? 0 : max(0, percentile(along, 0.95))
        }
        let nodPoints = turningPoints((steps[.nod] ?? []).map { ($0.t, $0.a.pitch) }, hysteresis: hysteresis.nod, settle: settle.nod)
        let shakePoints = turningPoints((steps[.shake] ?? []).map { ($0.t, $0.a.yaw) }, hysteresis: hysteresis.shake, settle: settle.shake)
        let nods = timedStrokes(nodPoints), shakes = timedStrokes(shakePoints)
        m.nodStroke = typicalStroke(nods.map(\.size))
        m.shakeStroke = typicalStroke(shakes.map(\.size))
        m.nodStrokeTime = slowestStroke(nods)
        m.shakeStrokeTime = slowestStroke(shakes)
        m.nodStopTime = longestStop(nodPoints, rest: neutral.pitch, stroke: m.nodStroke)
        m.shakeStopTime = longestStop(shakePoints, rest: neutral.yaw, stroke: m.shakeStroke)
        if let talk = steps[.talk], talk.count >= 3 {
            m.talked = true
            m.talkPitchStroke = strokes(talk.map { ($0.t, $0.a.pitch) }, hysteresis: hysteresis.nod).max() ?? 0
            m.talkYawStroke = strokes(talk.map { ($0.t, $0.a.yaw) }, hysteresis: hysteresis.shake).max() ?? 0
            m.talkOffset = Angles(yaw: percentile(talk.map { abs($0.a.yaw - neutral.yaw) }, talkQuantile),
                                  pitch: percentile(talk.map { abs($0.a.pitch - neutral.pitch) }, talkQuantile))
        }
        return m
    }

    /// Sizes of the strokes between turning points (found with the recogniser's own hysteresis).
    static func strokes(_ values: [(t: Double, v: Double)], hysteresis: Double) -> [Double] {
        timedStrokes(turningPoints(values, hysteresis: hysteresis, settle: .infinity)).map(\.size)
    }

    /// The strokes between turning points and how long each took: from leaving one to arriving at the next.
    static func timedStrokes(_ points: [TurningPoints.Point]) -> [(size: Double, seconds: Double)] {
        zip(points, points.dropFirst()).map { (abs($1.value - $0.value), $1.arrived - $0.left) }
    }

    /// Whether a stroke is part of the gesture rather than drift or settling: at least `strokeFloor` of the largest.
    static func isPartOfGesture(_ size: Double, largest: Double) -> Bool { size >= strokeFloor * largest }

    /// The turning points of a step, found as the recogniser finds them (its hysteresis). A head that rests `settle`
    /// ends its stroke there, as the recogniser's does (two answers a rest apart are not one stroke through the
    /// rest); `.infinity` never ends one so.
    static func turningPoints(_ values: [(t: Double, v: Double)], hysteresis: Double, settle: Double) -> [TurningPoints.Point] {
        var tp = TurningPoints(hysteresis: hysteresis)
        for (t, v) in values {
            _ = tp.add(v, at: t)
            _ = tp.settle(ifHeld: settle, at: t)
        }
        var points = tp.points
        if let c = tp.current, c != points.last { points.append(c) }
        return points
    }

    /// The longest stop at a turning point out in an answer: `stopOutFraction` of the typical `stroke` or more
    /// from `rest`, reached and left by strokes of the answer (`strokeFloor` of the largest). Timed from reaching it
    /// at the stroke's pace to leaving it (`TurningPoints.Point.pause`), which is never shorter than the pause the
    /// recogniser judges there. Nil when there is no such stop (or no typical stroke).
    static func longestStop(_ p: [TurningPoints.Point], rest: Double, stroke: Double?) -> Double? {
        guard let stroke, p.count >= 3 else { return nil }
        let sizes = timedStrokes(p).map(\.size)
        let largest = sizes.max() ?? 0
        return (1..<(p.count - 1)).filter { i in
            abs(p[i].value - rest) >= stopOutFraction * stroke
                && isPartOfGesture(sizes[i - 1], largest: largest) && isPartOfGesture(sizes[i], largest: largest)
        }.map { p[$0].pause }.max()
    }

    /// The longest time any stroke that is part of the gesture took (at least `strokeFloor` of the largest);
    /// nil when fewer than two were made.
    static func slowestStroke(_ s: [(size: Double, seconds: Double)]) -> Double? {
        guard let top = s.map(\.size).max() else { return nil }
        let real = s.filter { isPartOfGesture($0.size, largest: top) }
        return real.count >= 2 ? real.map(\.seconds).max() : nil
    }

    /// The median of the strokes that are part of the gesture (at least `strokeFloor` of the largest);
    /// nil when fewer than two were made (a gesture goes out and back).
    static func typicalStroke(_ s: [Double]) -> Double? {
        guard let top = s.max() else { return nil }
        let real = s.filter { isPartOfGesture($0, largest: top) }
        return real.count >= 2 ? median(real) : nil
    }

    // MARK: - Proposing

    static func settings(for m: FitMeasures, from current: GestureSettings, margin: Double, stops: Bool = true,
                         notes: inout [String]) -> GestureSettings {
        var s = current
        let reachMissing = Direction.allCases.filter { m.reach[$0] < minimumReach }
        if !reachMissing.isEmpty {
            notes.append("not turned far enough (\(fmt(minimumReach))°): \(reachMissing.map(\.rawValue).joined(separator: ", ")); that axis keeps its zones")
        }
        // The last margin is "singles off": the widest finite margin, and no single out-and-back counts.
        let finite = margin.isFinite ? margin : margins.last!
        func zone(_ a: Double, _ b: Double, noise: Double, talk: Double, axis: String) -> (idle: Double, threshold: Double) {
            let z = Self.zone(reach: min(a, b), noise: noise, talk: m.talked ? talk : nil, margin: finite)
            if z.crowded {
                notes.append("\(axis): talking goes \(fmt(talk))° from rest, near the comfortable reach (\(fmt(min(a, b)))°): looks on this axis need \(Int(singleFraction * 100))% of it")
            }
            return (z.idle, z.threshold)
        }
        if !reachMissing.contains(.left) && !reachMissing.contains(.right) {
            (s.zones.idleYaw, s.zones.thresholdYaw) = zone(m.reach.left, m.reach.right, noise: m.restNoise.yaw, talk: m.talkOffset.yaw, axis: "yaw")
        }
        if !reachMissing.contains(.up) && !reachMissing.contains(.down) {
            (s.zones.idlePitch, s.zones.thresholdPitch) = zone(m.reach.up, m.reach.down, noise: m.restNoise.pitch, talk: m.talkOffset.pitch, axis: "pitch")
        }
        s.nod = swing(current.nod, stroke: m.nodStroke, strokeTime: m.nodStrokeTime, stopTime: stops ? m.nodStopTime : nil,
                      holdCeiling: current.zones.heldFor, talk: m.talked ? m.talkPitchStroke : nil,
                      margin: finite, singles: margin.isFinite, name: "nod", out: "at the bottom", notes: &notes)
        s.shake = swing(current.shake, stroke: m.shakeStroke, strokeTime: m.shakeStrokeTime, stopTime: stops ? m.shakeStopTime : nil,
                        holdCeiling: current.zones.heldFor, talk: m.talked ? m.talkYawStroke : nil,
                        margin: finite, singles: margin.isFinite, name: "shake", out: "at the sides", notes: &notes)
        return s
    }

    /// The idle zone and look threshold of one axis for a person who comfortably reaches `reach` degrees
    /// both ways, rests with `noise` degrees RMS and whose talking goes `talk` from rest. `crowded`: talking
    /// comes so near the reach that the threshold had to go up to `singleFraction` of it.
    public static func zone(reach: Double, noise: Double, talk: Double?, margin: Double = margins[0]) -> (idle: Double, threshold: Double, crowded: Bool) {
        var threshold = thresholdFraction * reach
        var crowded = false
        // Talking must not reach a look: keep the threshold above how far the head goes while talking.
        if let talk, margin * talk > threshold {
            crowded = margin * talk > singleFraction * reach
            threshold = min(singleFraction * reach, margin * talk)
        }
        threshold = min(thresholdBounds.upperBound, max(thresholdBounds.lowerBound, threshold))
        let idle = min(idleFractions.upperBound * threshold, max(idleFractions.lowerBound * threshold, noiseFactor * noise))
        return (rounded(idle), rounded(threshold), crowded)
    }

    /// A nod's or shake's sizes for a person whose strokes are `stroke` and whose talking strokes reach `talk`;
    /// `singles` false when single out-and-backs are off whatever the sizes (the last try of `propose`).
    /// `stopTime`: the person's longest stop out in an answer (nil: `max_hold` is kept); `holdCeiling` the most
    /// `max_hold` may become; `out` where such a stop is, for the note.
    static func swing(_ current: GestureSettings.Swing, stroke: Double?, strokeTime: Double?, stopTime: Double?, holdCeiling: Double,
                      talk: Double?, margin: Double, singles: Bool, name: String, out: String, notes: inout [String]) -> GestureSettings.Swing {
        var w = current
        guard let stroke else {
            notes.append("no \(name) was seen: its settings are kept")
            return w
        }
        let talkStroke = talk ?? 0
        // Every stroke: at most `strokeFraction` of the person's own, raised toward their talking strokes
        // when those are big.
        let ceiling = strokeFraction * stroke
        // Never below the turning-point hysteresis: lowering that too was tried and lost nods (docs/gestures.md).
        w.minAmplitude = rounded(max(w.hysteresis + minimumStrokeOverHysteresis, min(ceiling, max(current.minAmplitude, margin * talkStroke * strokeFraction))))
        // A single out-and-back: within the person's own stroke, above their largest talking stroke.
        let fits = singleFraction * stroke
        let above = margin * talkStroke
        if !singles || above > fits {
            w.single = false
            notes.append("\(name): a single \(name) (\(fmt(stroke))°) is no bigger than the strokes of talking (\(fmt(talkStroke))°): two are needed")
        } else {
            w.single = true
            w.singleRange = rounded(max(above, min(current.singleRange, fits)))
        }
        // A slow answer: its strokes take longer than `max_stroke` allows (the default, 1.2 s, is a 0.5 Hz
        // swing's; slower, a held look and a "yes" look alike: docs/gestures.md "Slow answers").
        if let strokeTime, strokeTimeMargin * strokeTime > current.maxStroke {
            w.maxStroke = rounded(min(slowestStrokeAllowed, strokeTimeMargin * strokeTime))
            notes.append("\(name): strokes took up to \(fmt(strokeTime)) s, slower than \(fmt(current.maxStroke)) s allows: a stroke may take \(fmt(w.maxStroke)) s")
        }
        // An answer that stops out there longer than `max_hold` allows (0.35 s by default: longer, a "yes" with a stop at
        // its bottom and a look down and back look alike; docs/gestures.md "An answer that stops"): `strokeTimeMargin`
        // times the stop, at most `holdCeiling` (`zones.held_for`: a head held that long is looking, whoever it is).
        if let stopTime, strokeTimeMargin * stopTime > current.maxHold, holdCeiling > current.maxHold {
            w.maxHold = rounded(min(holdCeiling, strokeTimeMargin * stopTime))
            notes.append("\(name): stopped up to \(fmt2(stopTime)) s \(out), longer than \(fmt2(current.maxHold)) s allows: a stop may last \(fmt(w.maxHold)) s")
        }
        return w
    }

    static func median(_ v: [Double]) -> Double { percentile(v, 0.5) }

    static func percentile(_ v: [Double], _ q: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        let x = q * Double(s.count - 1)
        let i = Int(x), f = x - Double(i)
        return i + 1 < s.count ? s[i] * (1 - f) + s[i + 1] * f : s[i]
    }

    static func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    static func fmt(_ v: Double) -> String { String(rounded(v)) }
    /// Hundredths, for times that a tenth would misstate (`max_hold` is 0.35 s by default).
    static func fmt2(_ v: Double) -> String { String((v * 100).rounded() / 100) }
}
