import Gestures
import Pipeline

/// Every setting of Nodwire, as one value. Defaults live in the settings types themselves
/// (`VisionSettings`, `GestureSettings`); `ConfigSchema` says how each is written in the file.
struct NodwireConfig: Equatable {
    var vision = VisionSettings()
    var gestures = GestureSettings()
    var outputs = OutputsConfig()
    var budget = BudgetSettings()
    var logging = LoggingSettings()
    var events = EventSettings()
    var camera = CameraSettings()
    var mqtt = MQTTSettings()
    var web = WebSettings()

    /// Cross-setting contradictions, with their config keys.
    func problems() -> [SettingProblem] { gestures.problems() + ConfigSchema.budgetProblems(self) + events.problems() + mqtt.problems() + web.problems() }

    /// Said at the start of `run` (log and status line) when no gesture can drive a line: on an appliance
    /// that is almost never what was meant (a forgotten --config, a file cut short, no [[bindings]]).
    /// Nil when a binding drives an output.
    var noOutputsWarning: String? {
        if outputs.outputs.isEmpty { return "NO OUTPUTS BOUND: the config has no [[outputs]], so gestures drive no line" }
        if outputs.bindings.isEmpty {
            let names = outputs.outputs.map { "\"\($0.name)\"" }.joined(separator: ", ")
            return "NO OUTPUTS BOUND: the config has no [[bindings]], so gestures drive none of its outputs (\(names))"
        }
        return nil
    }
}

/// The config file's keys, their meaning and what they accept. `nodwire config defaults` prints this.
enum ConfigSchema {
    /// Settings earlier versions read, and what to write instead (an unknown key is refused; these say why).
    static let retired: [String: String] = [
        "gestures.calibration.samples": "calibration is timed now; write gestures.calibration.seconds (15 samples at 30 fps = 0.45)",
        "gestures.calibration.max_jump": "calibration is timed now; write gestures.calibration.max_speed in degrees a second (2.5° between frames at 30 fps = 75)",
        "gestures.calibration.average_last": "calibration is timed now; write gestures.calibration.average_seconds (8 samples at 30 fps = 0.25)",
    ]

    static var all: [SettingSpec] {
        vision + gestures + swing("nod", \.gestures.nod) + swing("shake", \.gestures.shake) + camera + budget + logging + events + mqtt + web
    }

    static var vision: [SettingSpec] { [
        .path("vision.model_path", \.vision.modelPath, "dlib's 5-point landmark model (scripts/fetch-model.sh puts it in Models/)."),
        .double("vision.min_face_size", \.vision.minFaceSize, 30...400, "Smallest face to look for, pixels wide in a VGA picture (in a smaller one, the same share of its larger side, at least 30). 60 is about 1.4 m from a VGA camera; smaller finds faces further away but searches slower."),
        .int("vision.search_slice_pixels", \.vision.searchSlicePixels, 40_000...600_000, "Detector work per frame while searching, in pixels summed over the image pyramid (150000: about 5 ms on an x86-64 core, 15-20 ms on a Pi 4). Less: shorter frames while searching, longer to find a far face."),
        .double("vision.recheck_interval", \.vision.recheckInterval, 0.1...5, "Seconds between detector re-checks of a tracked face."),
        .int("vision.missed_rechecks_before_lost", \.vision.missedRechecksBeforeLost, 1...20, "Failed re-checks in a row before the face counts as lost."),
        .double("vision.focal_length_factor", \.vision.focalLengthFactor, 0.3...3, "Focal length as a multiple of the larger image side (0.8 for a typical webcam; less for wide-angle lenses)."),
        .double("vision.contrast_floor", \.vision.contrastFloor, 0...120, "Contrast (spread of the face's grey levels) below which the landmark fit stretches a dim or flatly lit face's pixels to it; 0 turns it off (docs/vision.md)."),
        .bool("vision.mirrored", \.vision.mirrored, "The camera delivers a mirrored (selfie) picture. Events always use the person's own left and right."),
    ] }

    static var gestures: [SettingSpec] {
        [
            .choice("gestures.smoothing.kind", \.gestures.smoothing.kind, "one_euro adapts (steady when still, quick when moving), moving_average averages the last `window` samples."),
            .int("gestures.smoothing.window", \.gestures.smoothing.window, 1...30, "Samples averaged by moving_average."),
            .double("gestures.smoothing.min_cutoff", \.gestures.smoothing.minCutoff, 0.05...30, "One-Euro cutoff when still, Hz: lower is steadier, but lags."),
            .double("gestures.smoothing.beta", \.gestures.smoothing.beta, 0...10, "One-Euro speed coefficient."),
            .double("gestures.smoothing.derivative_cutoff", \.gestures.smoothing.derivativeCutoff, 0.05...30, "One-Euro cutoff of the speed estimate, Hz."),
            .double("gestures.calibration.seconds", \.gestures.calibration.seconds, 0.1...10, "Seconds of steady head needed to learn the resting pose (the same at any frame rate)."),
            .double("gestures.calibration.max_speed", \.gestures.calibration.maxSpeed, 5...600, "Degrees a second between two samples that restart calibration (75: 2.5° between frames at 30 fps)."),
            .double("gestures.calibration.average_seconds", \.gestures.calibration.averageSeconds, 0.01...10, "Neutral is the mean of the steady samples of the last this many seconds."),
            .double("gestures.calibration.recalibrate_after_loss", \.gestures.calibration.recalibrateAfterLoss, 0...3600, "Seconds of face loss after which the resting pose is learnt again and the face counts as new (one back sooner nods or shakes only once gestures.nod/shake.contrast_window of its motion has been seen)."),
            .double("gestures.calibration.warmup", \.gestures.calibration.warmup, 0...5, "Seconds after the face returns before gestures count."),
            .double("gestures.calibration.refine_seconds", \.gestures.calibration.refineSeconds, 0...600, "Seconds after the resting pose is learnt during which neutral is refined: the median of the poses since, leaving out looks (a person first seen turned or mid-sentence); 0 keeps the first steady pose."),
            .double("gestures.zones.idle_yaw", \.gestures.zones.idleYaw, 0.5...45, "Idle zone half-width left/right, degrees: at rest inside."),
            .double("gestures.zones.idle_pitch", \.gestures.zones.idlePitch, 0.5...45, "Idle zone half-height up/down, degrees."),
            .double("gestures.zones.threshold_yaw", \.gestures.zones.thresholdYaw, 1...60, "Degrees left/right beyond which a look starts."),
            .double("gestures.zones.threshold_pitch", \.gestures.zones.thresholdPitch, 1...60, "Degrees up/down beyond which a look starts."),
            .double("gestures.zones.max_counter_travel", \.gestures.zones.maxCounterTravel, 0.01...5, "Face widths the face may have moved down in the picture during a look up (or up during a look down); more and the look is not taken (five landmarks fold on some faces looking down). 5 turns the check off."),
            .double("gestures.zones.held_share_pitch", \.gestures.zones.heldSharePitch, 0.3...1, "A head held beyond this share of threshold_pitch for held_for seconds is looking up or down too (a look is held, talking's excursions are not; five landmarks read some faces' pitch small). 1 turns it off."),
            .double("gestures.zones.held_share_yaw", \.gestures.zones.heldShareYaw, 0.3...1, "The same for threshold_yaw. Off (1) by default: a body leaning sideways reads as a held turn of 6-10 degrees."),
            .double("gestures.zones.held_for", \.gestures.zones.heldFor, 0...10, "Seconds beyond held_share_pitch (or held_share_yaw) of a threshold that make a look."),
            .double("gestures.continuous.dwell", \.gestures.continuous.dwell, 0...5, "Seconds beyond the threshold before look_start."),
            .double("gestures.discrete.min_duration", \.gestures.discrete.minDuration, 0...5, "Least seconds beyond the threshold for a look."),
            .double("gestures.discrete.max_duration", \.gestures.discrete.maxDuration, 0.1...10, "Most seconds out and back for a look."),
            .double("gestures.discrete.confirm_delay", \.gestures.discrete.confirmDelay, 0...3, "Seconds at rest before a look is reported (a nod or shake in that time wins)."),
            .double("gestures.refractory", \.gestures.refractory, 0...30, "Seconds after a nod or shake in which nothing else fires."),
            .double("gestures.proportional.dead_zone", \.gestures.proportional.deadZone, 0...45, "Degrees with no proportional speed."),
            .double("gestures.proportional.acceleration_zone", \.gestures.proportional.accelerationZone, 0...90, "Degrees over which the speed rises to the maximum."),
            .double("gestures.proportional.max_speed", \.gestures.proportional.maxSpeed, 0...1000, "Maximum proportional speed."),
            .double("gestures.drift.idle_time_constant", \.gestures.drift.idleTimeConstant, 0...3600, "At rest, neutral follows the pose with this time constant (s); 0 disables."),
            .double("gestures.drift.steady_range", \.gestures.drift.steadyRange, 0.5...20, "Degrees within which a pose counts as steady."),
            .double("gestures.drift.recentre_after", \.gestures.drift.recentreAfter, 1...3600, "Seconds a steady pose outside the idle zone is held before it becomes the new neutral."),
            .double("gestures.posture.max_translation", \.gestures.posture.maxTranslation, 0.05...5, "Face widths the head may travel during a gesture; more is a body moving, not a gesture."),
            .double("gestures.posture.recentre_after", \.gestures.posture.recentreAfter, 0.2...60, "Seconds a moved body must stay steady before its pose becomes the new neutral."),
            .bool("gestures.moves.enabled", \.gestures.moves.enabled, "Emit a move event for every frame (pointer, neutral, offset, proportional speed)."),
        ]
    }

    /// The settings of a nod or shake detector.
    static func swing(_ name: String, _ path: WritableKeyPath<NodwireConfig, GestureSettings.Swing>) -> [SettingSpec] {
        let what = name == "nod" ? "pitch (yes)" : "yaw (no)"
        func key(_ k: String) -> String { "gestures.\(name).\(k)" }
        return [
            .double(key("min_amplitude"), path.appending(path: \.minAmplitude), 1...60, "Degrees every stroke of a \(what) must cover."),
            .bool(key("single"), path.appending(path: \.single), "A single out-and-back counts (else two cycles are needed)."),
            .double(key("single_range"), path.appending(path: \.singleRange), 1...90, "Degrees, end to end, a single out-and-back must cover."),
            .double(key("max_rate"), path.appending(path: \.maxRate), 0.5...10, "Most cycles a second."),
            .double(key("max_stroke"), path.appending(path: \.maxStroke), 0.1...5, "Slowest stroke, seconds."),
            .double(key("max_hold"), path.appending(path: \.maxHold), 0...5, "Longest pause at a turning point, seconds (longer is a look); a reported answer ends at a rest this long, or as long as one of its strokes took if longer."),
            .double(key("min_symmetry"), path.appending(path: \.minSymmetry), 0...1, "Smallest stroke as a fraction of the largest."),
            .double(key("return_tolerance"), path.appending(path: \.returnTolerance), 0...2, "How near its start it must end, as a fraction of its largest stroke."),
            .double(key("max_cross_ratio"), path.appending(path: \.maxCrossRatio), 0...5, "Most movement of the other axis, as a fraction of this one's range."),
            .double(key("max_other_angle"), path.appending(path: \.maxOtherAngle), 5...90, "Degrees from facing the camera on the other axis (yaw for a nod, pitch for a shake) beyond which nothing counts (the camera should be within this of where the person faces)."),
            .double(key("contrast"), path.appending(path: \.contrast), 0.1...10, "Largest stroke allowed just before it, as a fraction of its mean stroke."),
            .double(key("contrast_window"), path.appending(path: \.contrastWindow), 0...10, "Seconds before it that contrast looks back over."),
            .double(key("settle"), path.appending(path: \.settle), 0.05...3, "Seconds of rest that end a gesture."),
            .int(key("max_cycles"), path.appending(path: \.maxCycles), 1...10, "Most cycles looked back over."),
            .double(key("hysteresis"), path.appending(path: \.hysteresis), 0.1...20, "Degrees the head must turn back before a turning point counts."),
        ]
    }
}
