/// Every threshold of the gesture engine, with a default that works for an adult 0.4-1.5 m from a VGA
/// camera. Angles are degrees from the person's calibrated resting pose ("neutral"); times are seconds.
/// The defaults lean toward missing a gesture rather than inventing one: a false "yes" on a communication
/// aid is worse than a repeated nod.
public struct GestureSettings: Sendable, Equatable {
    public enum SmoothingKind: String, Sendable, CaseIterable { case oneEuro = "one_euro", movingAverage = "moving_average", none }

    public struct Smoothing: Sendable, Equatable {
        /// one_euro (adapts: steady when still, quick when moving), moving_average (last `window` samples) or none.
        public var kind = SmoothingKind.oneEuro
        /// Samples averaged by moving_average.
        public var window = 3
        /// One-Euro cutoff when still, Hz: lower is steadier but lags.
        public var minCutoff = 1.5
        /// One-Euro speed coefficient: how much faster motion raises the cutoff.
        public var beta = 0.05
        /// One-Euro cutoff for the speed estimate, Hz.
        public var derivativeCutoff = 1.0
    }

    public struct Calibration: Sendable, Equatable {
        /// Seconds of steady samples needed to learn the resting pose: 15 samples at 30 fps, and as long at
        /// any rate (it was 15 samples until 2026-11-24: 3 s at the governor's 5 fps).
        public var seconds = 0.45
        /// A head moving faster than this between two samples (degrees a second) restarts calibration: 2.5°
        /// between two frames at 30 fps (it was 2.5° between samples at any rate: laxer the faster the loop).
        public var maxSpeed = 75.0
        /// Neutral is the mean of the steady samples of the last this many seconds (8 samples at 30 fps).
        public var averageSeconds = 0.25
        /// After the face was lost longer than this (s), calibrate again when it comes back; it is then a new
        /// face, which may nod at once. One back sooner is the same person, who may have been talking all
        /// along: a nod or shake counts only once `contrastWindow` of its motion has been seen.
        public var recalibrateAfterLoss = 5.0
        /// After the face comes back, gestures wait this long (s) for the tracker to settle.
        public var warmup = 0.3
        /// For this long (s) after a face's resting pose is learnt, neutral is refined: the median of every
        /// pose since then that was not out in a look. The first steady half second is one glimpse of a
        /// person, who may be first seen turned, leaning or mid-sentence (8° off on the rendered talk cut at
        /// other starts); a talker faces the camera most of the time, so the median of the next seconds is
        /// where they rest. 0: neutral is the first steady pose (then only `Drift` moves it).
        /// docs/gestures.md "A face first seen mid-sentence".
        public var refineSeconds = 10.0
    }

    public struct Zones: Sendable, Equatable {
        /// Half-widths of the idle zone around neutral (an ellipse): inside it the head is at rest.
        public var idleYaw = 5.0
        public var idlePitch = 4.0
        /// Beyond these a look starts. People turn further than they tilt, hence two values.
        public var thresholdYaw = 12.0
        public var thresholdPitch = 10.0
        /// A look up or down is not taken while the face has moved the other way in the picture by more than
        /// this (face widths) since it last rested: a head pitching about the neck carries the face with it
        /// (clm_look's look down moves it 0.2 face widths down, its look up 0.15 up), and five landmarks
        /// fold on some faces looking down, reading "up" (docs/gestures.md "Which way").
        public var maxCounterTravel = 0.05
        /// A head held beyond this share of a threshold for `heldFor` seconds is looking too. A deliberate look is
        /// held; talking's excursions come and go: over every real clip here, talkers (their faces changed in
        /// shape too) held at most 0.68 of the pitch threshold for a whole second, a body leaning 0.71 (up), while
        /// rendered faces whose five points read little pitch (0.4-0.5 of it) held an 18° look down at 0.77-0.95 of
        /// the threshold, short of it. Yaw is read at 0.6-1.1 of a turn, and a body leaning sideways reads as a held
        /// turn (6.3° on the real ht_sway, 10° on rendered leans), so for yaw it is off (1). docs/gestures.md "A
        /// look held longer".
        public var heldSharePitch = 0.75
        public var heldShareYaw = 1.0
        /// Seconds held beyond that share, the dwell included.
        public var heldFor = 1.0
    }

    public struct Continuous: Sendable, Equatable {
        /// Time beyond the threshold before `look_start` (s).
        public var dwell = 0.4
    }

    public struct Discrete: Sendable, Equatable {
        /// Least time beyond the threshold for a `look` (s).
        public var minDuration = 0.15
        /// Most time from leaving the idle zone to coming back for a `look` (s).
        public var maxDuration = 1.5
        /// A `look` is reported after the head has been back at rest this long (s) without a nod or shake.
        public var confirmDelay = 0.4
    }

    /// A nod (pitch) or a shake (yaw): strokes of one axis between turning points. docs/gestures.md
    /// explains each rule and how the defaults were measured.
    public struct Swing: Sendable, Equatable {
        /// Degrees every full stroke (side to side) must cover; the first and the last, which may be half
        /// strokes (out from rest, back to rest), half of it. Small (2° nod, 3° shake) because size is not what
        /// separates a nod from talking (docs/gestures.md), and five landmarks read some faces' pitch at ~0.6
        /// of the truth: a 5° nod's first stroke reads ~3°. Strokes are measured after smoothing, which passes
        /// ~0.4 of a 3 Hz swing and nearly all of talking's slow sways: a quick small "no" (±5° at 3.5 Hz) reads
        /// 3-4° strokes (docs/gestures.md "A quick small no").
        public var minAmplitude: Double
        /// A single out-and-back (one or one-and-a-half stroke pairs) counts as a gesture: a slow, deliberate
        /// "yes" often is one. Off: two cycles are needed, which never fire on a talker's head dip.
        public var single = true
        /// Degrees, end to end, a single out-and-back must cover: for a nod more than a talker's emphasis dip
        /// (4-8°); for a shake as far as a look to each side (twice the 12° yaw threshold), held to neither: a
        /// single swing that held a look at its turn is two looks (`SwingRecognizer.lookStarted(at:)`).
        public var singleRange: Double
        /// Most cycles a second (strokes / 2 / time): a nod is at most ~3.5 Hz, laughing shakes faster.
        public var maxRate = 3.8
        /// Slowest stroke (s): a deliberate 0.5 Hz nod takes ~1 s a stroke.
        public var maxStroke = 1.2
        /// Longest pause at a turning point inside the gesture (s); longer is a look held, not a nod. A reported
        /// answer ends when the head rests this long, or as long as one of its strokes took if that is longer.
        public var maxHold = 0.35
        /// Each stroke at least this fraction of the largest: a nod goes down and comes back.
        public var minSymmetry = 0.35
        /// It must end within this fraction of its largest stroke of where it began.
        public var returnTolerance = 0.35
        /// The other axis may move at most this fraction of this axis's range: one axis dominates. Stricter for
        /// shakes (0.35) than nods (0.5) because five landmarks read pitch at 0.6-1.0 of the truth: the same
        /// head motion reads smaller as a shake's other axis, bigger as a nod's. Talking sways both axes: every
        /// false shake in our rendered talking moved pitch 0.39-0.5 of its yaw range, 94 of 96 rendered shakes
        /// found at most 0.26 (docs/gestures.md).
        public var maxCrossRatio: Double
        /// Degrees from facing the camera on the other axis (yaw for a nod, pitch for a shake) beyond which
        /// nothing counts: there five landmarks mix turning into nodding (measured on the rendered sweeps:
        /// up to 15° of false pitch at 35° of yaw, under 3° within 25°), so a turn held to one side would
        /// read as a nod. Mount the camera within this of where the person faces.
        public var maxOtherAngle: Double
        /// In the `contrastWindow` seconds before it, no stroke may exceed `contrast` x its mean stroke: a nod
        /// stands out of the motion before it (talking's own sways), however soon after talking it comes.
        /// Stricter for shakes (0.55) than nods (0.7): talking sways yaw about twice as far as pitch.
        public var contrast: Double
        public var contrastWindow = 1.5
        /// The head has rested this long (s) at the end of a stroke: the gesture is over, and reported if it is
        /// one (a continuous nodding answer that fired already fires again only after a rest of `maxHold`).
        public var settle = 0.2
        /// Most cycles looked back over.
        public var maxCycles = 4
        /// Degrees the head must turn back before a turning point counts: above the pose's jitter.
        public var hysteresis = 1.5

        public init(minAmplitude: Double, singleRange: Double, maxCrossRatio: Double, maxOtherAngle: Double, contrast: Double) {
            self.minAmplitude = minAmplitude; self.singleRange = singleRange; self.maxCrossRatio = maxCrossRatio
            self.maxOtherAngle = maxOtherAngle; self.contrast = contrast
        }
    }

    public struct Proportional: Sendable, Equatable {
        /// No speed inside this offset (degrees).
        public var deadZone = 3.0
        /// Speed rises linearly over this many degrees beyond the dead zone ...
        public var accelerationZone = 12.0
        /// ... up to this (a fraction of full speed).
        public var maxSpeed = 1.0
    }

    public struct Drift: Sendable, Equatable {
        /// At rest, neutral follows the pose with this time constant (s); 0 disables.
        public var idleTimeConstant = 20.0
        /// A pose steadier than this (degrees) ...
        public var steadyRange = 3.0
        /// ... held outside the idle zone this long (s) is a new posture: neutral moves there.
        public var recentreAfter = 10.0
    }

    public struct Posture: Sendable, Equatable {
        /// A head that moved more than this many face widths since it was last at rest is a body moving
        /// (leaning, sitting up), not a head gesture: nothing fires until it is back at rest.
        public var maxTranslation = 0.5
        /// Such a posture change held steady this long (s) becomes the new neutral.
        public var recentreAfter = 1.0
    }

    public struct Moves: Sendable, Equatable {
        /// Emit a `move` event for every frame with a face (after calibration).
        public var enabled = false
    }

    public var smoothing = Smoothing()
    public var calibration = Calibration()
    public var zones = Zones()
    public var continuous = Continuous()
    public var discrete = Discrete()
    public var nod = Swing(minAmplitude: 2, singleRange: 12, maxCrossRatio: 0.5, maxOtherAngle: 25, contrast: 0.7)
    public var shake = Swing(minAmplitude: 3, singleRange: 24, maxCrossRatio: 0.35, maxOtherAngle: 30, contrast: 0.55)
    /// After a nod or shake, nothing else fires for this long (s): one event per gesture.
    public var refractory = 1.2
    public var proportional = Proportional()
    public var drift = Drift()
    public var posture = Posture()
    public var moves = Moves()

    public init() {}

    /// Settings that contradict each other (ranges of single values are the config file's job).
    public func problems() -> [SettingProblem] {
        var p: [SettingProblem] = []
        func need(_ ok: Bool, _ key: String, _ message: String) { if !ok { p.append(SettingProblem(key: key, message: message)) } }
        need(zones.idleYaw < zones.thresholdYaw, "gestures.zones.idle_yaw", "must be smaller than gestures.zones.threshold_yaw (\(zones.thresholdYaw)) or a look could never stop")
        need(zones.idlePitch < zones.thresholdPitch, "gestures.zones.idle_pitch", "must be smaller than gestures.zones.threshold_pitch (\(zones.thresholdPitch)) or a look could never stop")
        need(zones.heldSharePitch * zones.thresholdPitch > zones.idlePitch, "gestures.zones.held_share_pitch",
             "times gestures.zones.threshold_pitch must stay outside the idle zone (\(zones.idlePitch)°) or a head at rest could be held looking")
        need(zones.heldShareYaw * zones.thresholdYaw > zones.idleYaw, "gestures.zones.held_share_yaw",
             "times gestures.zones.threshold_yaw must stay outside the idle zone (\(zones.idleYaw)°) or a head at rest could be held looking")
        need(calibration.averageSeconds <= calibration.seconds, "gestures.calibration.average_seconds", "must not exceed gestures.calibration.seconds (\(calibration.seconds))")
        need(discrete.minDuration < discrete.maxDuration, "gestures.discrete.min_duration", "must be shorter than gestures.discrete.max_duration (\(discrete.maxDuration))")
        for (name, s) in [("nod", nod), ("shake", shake)] {
            need(s.hysteresis < s.minAmplitude, "gestures.\(name).hysteresis", "must be smaller than gestures.\(name).min_amplitude (\(s.minAmplitude)) or no stroke could be seen")
        }
        return p
    }
}

/// A setting that cannot work as given: its dotted config key and why.
public struct SettingProblem: Sendable, Equatable {
    public var key: String
    public var message: String
    public init(key: String, message: String) { self.key = key; self.message = message }
}
