/// Turns a stream of head poses into gesture events. Pure: time comes with each sample.
///
/// Rules that decide between gestures (docs/gestures.md has the full story):
/// - Nods and shakes need no calibration: they fire from `warmup` after a face is found. Looks need the
///   resting pose (neutral) and wait for calibration. Nothing fires while the face is lost.
/// - **Nod and shake win over a discrete look.** A `look` is held back until the head has rested for
///   `discrete.confirm_delay`; a nod or shake recognised in that time drops it. A continuous look waits
///   while either axis is mid-swing (only a slow, wide nod resting at its extremes can still give one).
/// - After a nod or shake, nothing fires for `refractory` seconds: one event per gesture.
/// - A head that travelled more than `posture.max_translation` face widths since it last rested is a body
///   moving; nothing fires until it rests again, and if it settles elsewhere that becomes the new neutral.
public struct GestureEngine: Sendable {
    public let settings: GestureSettings

    /// What the engine believes now, for status displays.
    public struct State: Sendable, Equatable {
        public var facePresent = false
        public var calibrating = true
        public var neutral: Angles?
        public var offset: Angles?
        public var activeLook: Direction?
        public var inIdleZone = true
    }

    public private(set) var state = State()

    private struct Excursion {
        var leftAt: Double
        var beyondTime = 0.0
        var direction: Direction?
        var distance = 0.0
        var posture = false
        /// It was held long enough to start a continuous look: a look, not a stroke of a nod or shake.
        var held = false
        /// It was not seen going out: the head was already out of the idle zone when the face was found (or motion
        /// forgotten). Where it went and which way are not known, so it is no look when it comes back.
        var unseenStart = false
    }

    private var yawFilter: Smoother
    private var pitchFilter: Smoother
    /// The same for the line-of-sight angles (`HeadPose.sightYaw`), which nods and shakes must also show.
    private var sightYawFilter: Smoother
    private var sightPitchFilter: Smoother
    private var calibration = SteadyStay()
    private var calibrationReason = "initial"
    /// A new face's neutral, refined over its first seconds (`calibration.refineSeconds`); nil when not refining.
    private var refiner: NeutralRefiner?
    /// A stay facing the camera while a new face's neutral, learnt turned away from it, is refined (`facingRest`).
    private var facing = FacingStay()
    /// Where a reported answer came to rest, and since when, until the head has stayed there
    /// `posture.recentre_after` (`restAtHome`) or moved on.
    private var pendingHome: (pose: Angles, since: Double)?
    private var lostSince: Double?
    private var warmupUntil = -Double.infinity
    /// A face back after a short loss (the same person, who may have been talking all along): its motion
    /// before this time was not seen, so no gesture may begin until the contrast rule can see what came
    /// before it. -infinity for a new face, whose first second may already be a nod.
    private var motionUnseenBefore = -Double.infinity
    private var lastTime: Double?
    private var history: History
    private var rest: (x: Double, y: Double)?
    private var posture = false
    private var steadyAnchor: (pose: Angles, since: Double)?
    private var candidate: (direction: Direction, since: Double)?
    /// Beyond a share of a threshold (`Zones.heldSharePitch`, `heldShareYaw`): which way, and since when.
    private var held: (direction: Direction, since: Double)?
    private var excursion: Excursion?
    private var wasBeyond = false
    /// Whether the last sample looked at was in the idle zone; nil before the first one (a face just found,
    /// or motion forgotten).
    private var wasInIdle: Bool?
    /// A discrete look waiting for its confirmation; `quick` when it was not held (it may be a stroke).
    private var pendingLook: (event: GestureEvent, due: Double, quick: Bool)?
    private var refractoryUntil = -Double.infinity
    private var nodRecognizer: SwingRecognizer
    private var shakeRecognizer: SwingRecognizer
    /// How this face's eye corners follow its pitch (`HeadPose.cornerDrop` against pitch, both as measured) over
    /// everything seen of it facing the camera within `cornerFitMaxYaw`, and within the look thresholds of its
    /// neutral (once known), where nods are made: what a nod's are judged against, as it stood before the nod
    /// (each `History` sample keeps it). Out in a wide look the five points read the pitch compressed and the
    /// corners follow it more steeply; a face that had looked about widely first, fitted over those too, had a
    /// small quick nod rejected.
    private var faceCorners = LineFit()
    /// Degrees of turn from the line of sight beyond which a sample does not go into `faceCorners`: a turn moves
    /// the eye corners too (18° of yaw moved them as much as 11° of pitch on the real clm_look).
    static let cornerFitMaxYaw = 10.0
    /// A look down the eye corners and the eyes show where the nose hardly reads it (`EyesLookDown`).
    private var eyesDown = EyesLookDown()

    public init(settings: GestureSettings = GestureSettings()) {
        self.settings = settings
        yawFilter = Smoother(settings.smoothing)
        pitchFilter = Smoother(settings.smoothing)
        sightYawFilter = Smoother(settings.smoothing)
        sightPitchFilter = Smoother(settings.smoothing)
        history = History(capacity: 256)
        nodRecognizer = SwingRecognizer(axis: .pitch, settings: settings.nod, maxTranslation: settings.posture.maxTranslation,
                                         lookHeld: settings.zones.heldFor)
        shakeRecognizer = SwingRecognizer(axis: .yaw, settings: settings.shake, maxTranslation: settings.posture.maxTranslation,
                                         lookHeld: settings.zones.heldFor)
    }

    /// Learn the resting pose again from the next steady samples.
    public mutating func requestRecalibration() { startCalibration(reason: "request") }

    public mutating func process(_ sample: HeadSample) -> [GestureEvent] {
        var out = gestures(sample)
        out += explainUnheard(sample, after: out)
        if settings.moves.enabled, let pose = sample.pose, state.facePresent, !state.calibrating, let neutral = state.neutral {
            out.append(moveEvent(sample, pose, neutral: neutral, offset: state.offset ?? Angles(yaw: 0, pitch: 0)))
        }
        return out
    }

    private mutating func gestures(_ sample: HeadSample) -> [GestureEvent] {
        var out: [GestureEvent] = []
        let t = sample.time
        func event(_ kind: GestureKind, direction: Direction? = nil, distance: Double? = nil, cycles: Int? = nil,
                   reason: String? = nil, neutral: Angles? = nil) -> GestureEvent {
            GestureEvent(kind, frame: sample.frame, time: t, direction: direction, distance: distance, cycles: cycles,
                         reason: reason, neutral: neutral)
        }

        guard let pose = sample.pose else {
            if state.facePresent {
                if let look = state.activeLook { out.append(event(.lookStop, direction: look, reason: "face_lost")) }
                out.append(event(.faceLost))
                state.facePresent = false
                lostSince = t
                forgetMotion()
                forgetSwings()
            }
            return out
        }
        if !state.facePresent {
            state.facePresent = true
            out.append(event(.faceFound))
            if state.neutral == nil {
                startCalibration(reason: "initial")
            } else if sample.newFace {
                startCalibration(reason: "new_face")
            } else if let since = lostSince, t - since > settings.calibration.recalibrateAfterLoss {
                startCalibration(reason: "face_lost")
            }
            warmupUntil = t + settings.calibration.warmup
            let returning = lostSince.map { t - $0 <= settings.calibration.recalibrateAfterLoss } ?? false
            motionUnseenBefore = returning ? warmupUntil : -.infinity
            lostSince = nil
            yawFilter.reset()
            pitchFilter.reset()
            sightYawFilter.reset()
            sightPitchFilter.reset()
        }
        let dt = lastTime.map { max(0, t - $0) } ?? 0
        lastTime = t
        let now = Angles(yaw: yawFilter.filter(pose.yaw, at: t), pitch: pitchFilter.filter(pose.pitch, at: t))
        if let c = pose.cornerDrop, abs(pose.sightYaw) <= Self.cornerFitMaxYaw, withinLookThresholds(now) { faceCorners.add(x: pose.pitch, y: c) }
        history.append(.init(time: t, yaw: now.yaw, pitch: now.pitch, pointerX: pose.pointerX, pointerY: pose.pointerY, faceSize: pose.faceSize,
                             sightYaw: sightYawFilter.filter(pose.sightYaw, at: t), sightPitch: sightPitchFilter.filter(pose.sightPitch, at: t),
                             eyesRight: pose.eyesRight, eyesUp: pose.eyesUp, cornerDrop: pose.cornerDrop, rawPitch: pose.pitch,
                             faceCorners: faceCorners))

        // Nods and shakes: from the first second a face is seen, calibrated or not.
        if t >= warmupUntil {
            let nod = nodRecognizer.update(history, motionUnseenBefore: motionUnseenBefore)
            let shake = shakeRecognizer.update(history, motionUnseenBefore: motionUnseenBefore)
            if let found = nod ?? shake {
                // One gesture at a time: the other axis's strokes so far cannot be part of another.
                if nod != nil { shakeRecognizer.consume(until: t) } else { nodRecognizer.consume(until: t) }
                if t >= refractoryUntil {
                    out.append(event(nod != nil ? .nod : .shake, cycles: found.cycles))
                    refractoryUntil = t + settings.refractory
                    pendingLook = nil
                    candidate = nil
                }
            }
        } else {
            nodRecognizer.reset()
            // Yaw does not wait for the warm-up: pitch does, because the pose learns the face's proportions over
            // these first frames (HeadPoseEstimator.geometrySamples) and its pitch moves as it learns; yaw hardly
            // depends on them. So a shake under way when the face is found is seen from its first frame (a
            // person shaking their head as they come into view), and reported from the warm-up's end: no shake
            // is complete sooner (four strokes at `max_rate`).
            _ = shakeRecognizer.update(history, motionUnseenBefore: motionUnseenBefore)
        }

        // An answer came to rest: once the head has stayed there as long as a new posture must, it is a new
        // face's rest (`restAtHome`).
        let nodHome = nodRecognizer.cameHome(), shakeHome = shakeRecognizer.cameHome()
        if nodHome || shakeHome, let r = refiner, t < r.until { pendingHome = (now, t) }
        if let h = pendingHome {
            if !now.within(settings.drift.steadyRange, of: h.pose) {
                pendingHome = nil
            } else if t - h.since >= settings.posture.recentreAfter {
                pendingHome = nil
                out += restAtHome(h.pose, pose: pose, sample: sample)
            }
        }

        if state.calibrating {
            calibrate(now, at: t, pointer: (pose.pointerX, pose.pointerY), viewingAngle: pose.viewingAngle)
            if !state.calibrating, let n = state.neutral {
                eyesDown.learnRest(history, since: t - settings.calibration.seconds)
                out.append(event(.calibrated, reason: calibrationReason, neutral: n))
                rest = (pose.pointerX, pose.pointerY)
                steadyAnchor = nil
            }
            return out
        }
        guard var neutral = state.neutral else { return out }
        var offset = Angles(yaw: now.yaw - neutral.yaw, pitch: now.pitch - neutral.pitch)
        state.offset = offset
        guard t >= warmupUntil else { return out }

        let z = settings.zones
        // The eyes may show a look down the nose reads inside the idle zone: then the head is not at rest.
        let witnessedDown = eyesDown.update(history, neutral: neutral, zones: z)
        let inIdle = (offset.yaw / z.idleYaw) * (offset.yaw / z.idleYaw) + (offset.pitch / z.idlePitch) * (offset.pitch / z.idlePitch) <= 1
            && !witnessedDown
        var beyond = Self.direction(offset, zones: z)
        // Or held a while beyond a share of the threshold: a look is held, talking's excursions are not.
        let near = Self.direction(offset, zones: z, yawShare: z.heldShareYaw, pitchShare: z.heldSharePitch)
        if near != held?.direction { held = near.map { ($0, t) } }
        // Held that long, it has served its dwell too.
        var beyondSince = t
        if beyond == nil, let h = held, t - h.since >= z.heldFor { beyond = h.direction; beyondSince = h.since }
        if beyond == nil, witnessedDown, let since = eyesDown.since { beyond = .down; beyondSince = since }
        state.inIdleZone = inIdle

        // Body movement: judged against where the head last rested, in face widths.
        if inIdle {
            rest = (pose.pointerX, pose.pointerY)
            posture = false
        } else if let r = rest, Self.travel(pose, from: r, turnedBy: offset.yaw) > settings.posture.maxTranslation {
            posture = true
        }
        // Which way: up or down only if the face did not move the other way in the picture (y grows downwards).
        if let b = beyond, b == .up || b == .down, let r = rest {
            let down = (pose.pointerY - r.y) / max(1, pose.faceSize)
            if b == .up ? down > z.maxCounterTravel : down < -z.maxCounterTravel { beyond = nil }
        }

        // A new face's neutral is refined over its first seconds (the median of its poses out of looks); after
        // that it follows slow drift at rest, and moves to a new posture held steady outside the idle zone.
        // The eyes' rest follows the head's at rest, while a new face's neutral is refined too (one learnt mid-smile is
        // not kept for its first seconds).
        if inIdle, settings.drift.idleTimeConstant > 0, dt > 0 { eyesDown.follow(history[history.count - 1], by: min(1, dt / settings.drift.idleTimeConstant)) }
        if var r = refiner {
            if t < r.until {
                // Only where the body was when calibrated: a body swaying or leaning away reads a few degrees of
                // turn and tilt of its own (ht_sway's sways read up to +11° of pitch).
                let near = Self.travel(pose, from: r.anchor) <= settings.posture.maxTranslation
                if beyond == nil, state.activeLook == nil, !posture, near { r.add(now) }
                refiner = r
                if let home = facingRest(now, sightYaw: history[history.count - 1].sightYaw, at: t, neutral: neutral, refiner: r) {
                    var next = NeutralRefiner(seed: home.poses, anchor: (pose.pointerX, pose.pointerY), until: r.until)
                    next.facedCamera = true
                    return out + moveNeutral(to: home.rest, reason: "facing", refiner: next, pose: pose, sample: sample)
                }
                if let n = r.neutral {
                    neutral = n
                    state.neutral = n
                    offset = Angles(yaw: now.yaw - neutral.yaw, pitch: now.pitch - neutral.pitch)
                }
            } else {
                refiner = nil
                facing.removeAll()
            }
        } else if inIdle, settings.drift.idleTimeConstant > 0, dt > 0 {
            let k = min(1, dt / settings.drift.idleTimeConstant)
            neutral = Angles(yaw: neutral.yaw + k * offset.yaw, pitch: neutral.pitch + k * offset.pitch)
            state.neutral = neutral
            offset = Angles(yaw: now.yaw - neutral.yaw, pitch: now.pitch - neutral.pitch)
        }
        if let a = steadyAnchor, now.within(settings.drift.steadyRange / 2, of: a.pose) {
            let hold = posture ? settings.posture.recentreAfter : settings.drift.recentreAfter
            if !inIdle, t - a.since >= hold {
                return out + moveNeutral(to: now, reason: "recentre", refiner: nil, pose: pose, sample: sample)
            }
        } else {
            steadyAnchor = (now, t)
        }
        state.offset = offset
        let quiet = t < refractoryUntil

        // Continuous looks: start after the dwell beyond the threshold, stop back home on their own axis.
        if let look = state.activeLook {
            // A look down the eyes showed ends on them too (`EyesLookDown`).
            if Self.isHome(offset, from: look, zones: z), !(look == .down && witnessedDown) {
                out.append(event(.lookStop, direction: look, reason: "returned"))
                state.activeLook = nil
            } else if let b = beyond, b != look {
                out.append(event(.lookStop, direction: look, reason: "direction_change"))
                state.activeLook = nil
            }
        }
        if state.activeLook == nil {
            if let b = beyond, !posture {
                if candidate?.direction != b { candidate = (b, beyondSince) }
                // A head still swinging (a slow, wide nod passes the threshold too) is not holding a look. A look
                // also waits until its axis has settled for as long as a nod or shake may pause at its turn
                // (`max_hold`): a slow, wide nod's or shake's extremes are beyond the threshold for longer than
                // the dwell, but it turns there; a held look may creep on slowly, not turn.
                let vertical = b == .up || b == .down
                let swing = vertical ? settings.nod : settings.shake
                let axis: KeyPath<History.Entry, Double> = vertical ? \.pitch : \.yaw
                let swinging = nodRecognizer.isSwinging || shakeRecognizer.isSwinging
                    || range(axis, since: t - swing.maxHold) > Self.settledRange * swing.hysteresis
                    || isHeadingHome(from: b)
                // Nor while an answer's rest is waiting to be taken as a new face's rest (`restAtHome`), or a stay
                // facing the camera to be (`facingRest`).
                if let c = candidate, t - c.since >= settings.continuous.dwell, !quiet, !swinging, pendingHome == nil, facing.isEmpty {
                    state.activeLook = b
                    out.append(event(.lookStart, direction: b, distance: lookDistance(offset, b, witnessed: witnessedDown)))
                    // A single "no" through a turn held this long is a look one way and then the other. Not a
                    // "yes": a slow, deep one may hold its bottom long enough to start a look down and is still
                    // one (docs/gestures.md "A single no and two looks").
                    if !vertical { shakeRecognizer.lookStarted(at: t) }
                    candidate = nil
                }
            } else if beyond == nil || posture {
                candidate = nil
            }
        }

        // Discrete looks: out past the threshold and back within the time limit, confirmed after a rest.
        if !inIdle {
            if excursion == nil { pendingLook = nil }   // moving again before the look was confirmed: part of something else
            var e = excursion ?? Excursion(leftAt: t)
            if let b = beyond {
                if wasBeyond { e.beyondTime += dt }
                if e.direction == nil { e.direction = b }
                if b == e.direction { e.distance = max(e.distance, lookDistance(offset, b, witnessed: witnessedDown)) }
            }
            if posture { e.posture = true }
            if state.activeLook != nil { e.held = true }
            // An excursion that began in a nod or shake (or its refractory time) is part of it, not a look.
            if excursion == nil, quiet || nodRecognizer.engaged || shakeRecognizer.engaged { e.posture = true }
            if excursion == nil, wasInIdle != true { e.unseenStart = true }
            excursion = e
        } else if let e = excursion {
            let d = settings.discrete
            if let direction = e.direction, !e.posture, !e.unseenStart, e.beyondTime >= d.minDuration, t - e.leftAt <= d.maxDuration {
                pendingLook = (event(.look, direction: direction, distance: e.distance), t + d.confirmDelay, !e.held)
            }
            excursion = nil
        }
        wasBeyond = beyond != nil
        wasInIdle = inIdle

        // A look is confirmed at rest (`confirm_delay`). A quick one whose head is still moving on its axis may be
        // a slow nod's or shake's stroke: creeping the last degrees home, or already heading out again into the
        // next dip. It waits until the axis rests; it is dropped above if the head leaves the idle zone, and a nod
        // or shake reported drops it. One held long enough to start a continuous look was a look.
        if let p = pendingLook, t >= p.due, !(p.quick && isMoving(along: p.event.direction)) {
            if t >= refractoryUntil {
                var look = p.event
                look.frame = sample.frame
                look.time = t
                out.append(look)
            }
            pendingLook = nil
        }
        return out
    }

    // MARK: - Parts

    private mutating func startCalibration(reason: String) {
        state.calibrating = true
        calibration.removeAll()
        calibrationReason = reason
        if Self.isNewFace(reason) { faceCorners = LineFit() }
        eyesDown.reset()
        refiner = nil
        pendingHome = nil
        if let look = state.activeLook { _ = look; state.activeLook = nil }
        forgetMotion()
    }

    /// A new face's neutral, while it is still refined, moved to where a nod or shake came to rest (and stayed
    /// `posture.recentre_after`, within `drift.steady_range`: not an extreme a slow answer turns over at) when
    /// that rest is beyond a look threshold: a "yes" or "no" begins and ends at the person's rest, so a rest that
    /// reads as a look is a neutral learnt in the wrong place. A face found mid-nod is calibrated inside the dip
    /// (a slow nod moves well under `calibration.max_speed`, and the head model learns the face's proportions
    /// from its first nine frames there), and its rest then read as a look down of ~17°, which the refiner
    /// leaves out as a look. Both axes: a person shakes at their rest pitch and nods at their rest yaw. Only
    /// while refining: later, a person may nod while looking at something, and their rest is not there.
    /// docs/gestures.md "A face found mid-nod".
    private mutating func restAtHome(_ home: Angles, pose: HeadPose, sample: HeadSample) -> [GestureEvent] {
        guard let r = refiner, sample.time < r.until, state.neutral != nil, !withinLookThresholds(home) else { return [] }
        var next = NeutralRefiner(seed: [home], anchor: (pose.pointerX, pose.pointerY), until: r.until)
        next.viewingAngle = pose.viewingAngle
        next.facedCamera = r.facedCamera
        return moveNeutral(to: home, reason: "home", refiner: next, pose: pose, sample: sample)
    }

    /// The rest of a new face whose neutral was learnt turned away from the camera by more than a look
    /// (`zones.threshold_yaw`): a head found as it turned, or looking at something beside the camera for a moment.
    /// The person faces the device they answer, so while the neutral is refined, a stay facing the camera (on average
    /// within the idle zone of it, as a talker holds one: `FacingStay`; not out in a look up or down) is their rest instead, once
    /// it outlasts any quick look (`discrete.max_duration`): a person seated at an angle who glances at the camera
    /// keeps their rest. Until then every return to the camera read as a look the other way (the wide set found
    /// 30° turned: 2 of 6 looks found, 2-4 the wrong way). Facing the camera is judged on the line of sight
    /// (`sightYaw`, read from the nose between the eyes: 0 looking into the lens, for any face, wherever it is in
    /// the picture); `yaw` is about the camera's axis, and a real vlogger off to one side of a wide picture rests
    /// at 16° of it, 5° of her line of sight. docs/gestures.md "A face found turned" and "... while talking".
    private mutating func facingRest(_ a: Angles, sightYaw: Double, at t: Double, neutral: Angles,
                                     refiner r: NeutralRefiner) -> (rest: Angles, poses: [Angles])? {
        let z = settings.zones, viewingAngle = a.yaw - sightYaw
        // Once, for a rest turned away from the camera where it was learnt (not a body since leaned aside); turned
        // away from here too (a face found turned that then faces the camera from where it was found), and now facing
        // the camera without looking up or down from the rest (pitch has no such mark of its own: where a face's nose
        // base sits at rest differs from face to face).
        guard !r.facedCamera, abs(neutral.yaw - r.viewingAngle) > z.thresholdYaw, abs(neutral.yaw - viewingAngle) > z.thresholdYaw,
              abs(a.pitch - neutral.pitch) < z.thresholdPitch else { facing.removeAll(); return nil }
        return facing.add(a, sightYaw: sightYaw, at: t, within: z.thresholdYaw, centred: z.idleYaw, maxSpeed: settings.calibration.maxSpeed,
                          lasting: max(settings.calibration.seconds, settings.discrete.maxDuration))
    }

    /// Makes `angles` the neutral now (a new posture held, a new face's rest): a look under way stops (reason
    /// `recentre`), what was in motion is forgotten, the head rests here, and `calibrated` says why. `next`
    /// refines the new neutral from here (nil: not refined).
    private mutating func moveNeutral(to angles: Angles, reason: String, refiner next: NeutralRefiner?, pose: HeadPose,
                                      sample: HeadSample) -> [GestureEvent] {
        var out: [GestureEvent] = []
        if let look = state.activeLook {
            out.append(GestureEvent(.lookStop, frame: sample.frame, time: sample.time, direction: look, reason: "recentre"))
        }
        state.neutral = angles
        state.offset = Angles(yaw: 0, pitch: 0)
        refiner = next
        eyesDown.learnRest(history, since: sample.time - settings.calibration.seconds)
        out.append(GestureEvent(.calibrated, frame: sample.frame, time: sample.time, reason: reason, neutral: angles))
        forgetMotion()
        rest = (pose.pointerX, pose.pointerY)
        return out
    }

    /// Steady for `seconds` (`SteadyStay`): neutral is the mean of the last `average_seconds`.
    private mutating func calibrate(_ a: Angles, at t: Double, pointer: (x: Double, y: Double), viewingAngle: Double) {
        let c = settings.calibration
        guard let steady = calibration.add(a, at: t, c) else { return }
        state.neutral = steady.rest
        // A new face (not a recalibration asked for, which says "this is my rest"): refine it over the next seconds.
        if c.refineSeconds > 0, Self.isNewFace(calibrationReason) {
            refiner = NeutralRefiner(seed: steady.poses, anchor: pointer, until: t + c.refineSeconds)
            refiner?.viewingAngle = viewingAngle
        }
        state.offset = Angles(yaw: 0, pitch: 0)
        state.calibrating = false
    }

    /// How far the head pointer is from `point` that a turn by `yaw` since it was there does not explain, in
    /// face widths (`BodyTravel`).
    private static func travel(_ pose: HeadPose, from point: (x: Double, y: Double), turnedBy yaw: Double = 0) -> Double {
        BodyTravel.faceWidths(dx: pose.pointerX - point.x, dy: pose.pointerY - point.y, faceSize: pose.faceSize, turnedBy: yaw)
    }

    /// Calibration for a new face (first seen, or back after a long loss), not one asked for ("this is my rest").
    private static func isNewFace(_ reason: String) -> Bool { reason != "request" }

    /// Within the look thresholds of neutral on both axes; true while there is no neutral yet.
    private func withinLookThresholds(_ a: Angles) -> Bool {
        guard let n = state.neutral else { return true }
        return abs(a.pitch - n.pitch) < settings.zones.thresholdPitch && abs(a.yaw - n.yaw) < settings.zones.thresholdYaw
    }

    /// Drops everything that was in motion: on face loss, recalibration and re-centring.
    private mutating func forgetMotion() {
        state.activeLook = nil
        candidate = nil
        held = nil
        excursion = nil
        wasBeyond = false
        wasInIdle = nil
        pendingLook = nil
        posture = false
        steadyAnchor = nil
        facing.removeAll()
        eyesDown.release()
    }

    /// Swings that settled unheard, each reported once nothing else has explained it by `due`: an answer on the
    /// other axis, or a look made and confirmed (`discrete.confirm_delay` after the head rests), is what the
    /// movement was, and then it is not reported. Except where the look may have been a nod or shake: a swing of
    /// two cycles or more (a look held and moved on from is split at its hold, so it is never one), or one that
    /// stopped at a turn for less than a look is held (`zones.held_for`: a brief look down and back and a "yes"
    /// that stopped are the same movement). The person who meant the answer is told why it was a look.
    private var unheard: [(swing: Unheard, due: Double)] = []
    /// When the engine last reported a nod or shake, and a look (any of its events).
    private var lastAnswer = -Double.infinity, lastLook = -Double.infinity

    private mutating func explainUnheard(_ sample: HeadSample, after out: [GestureEvent]) -> [GestureEvent] {
        let t = sample.time
        if out.contains(where: { $0.kind == .nod || $0.kind == .shake }) { lastAnswer = t }
        if out.contains(where: { [.look, .lookStart, .lookStop].contains($0.kind) }) { lastLook = t }
        for u in [nodRecognizer.takeUnheard(), shakeRecognizer.takeUnheard()] {
            if let u { unheard.append((u, t + settings.discrete.confirmDelay)) }
        }
        let heldFor = settings.zones.heldFor
        unheard.removeAll { u in
            // Moving on again that soon, the head is still making it: its next rest judges the whole movement
            // (a "yes, yes" with a stay at the top, a nod that set off gently), heard or not.
            if (u.swing.kind == .nod ? nodRecognizer : shakeRecognizer).isMoving { return true }
            let briefStop = u.swing.rule == .heldAtTurn && (u.swing.measured ?? .infinity) < heldFor
            let swung = u.swing.strokes >= 4
            return u.swing.start <= lastAnswer || u.swing.start <= lastLook && !briefStop && !swung
        }
        guard !unheard.isEmpty else { return [] }
        var events: [GestureEvent] = []
        unheard.removeAll { u in
            guard t > u.due else { return false }
            var e = GestureEvent(.unheard, frame: sample.frame, time: t)
            e.unheard = u.swing
            events.append(e)
            return true
        }
        return events
    }

    /// Drops the swings under way: the face was lost, so its strokes cannot be finished.
    private mutating func forgetSwings() {
        unheard.removeAll()
        history.removeAll()
        pendingHome = nil
        nodRecognizer.reset()
        shakeRecognizer.reset()
    }

    private func moveEvent(_ sample: HeadSample, _ pose: HeadPose, neutral: Angles, offset: Angles) -> GestureEvent {
        var e = GestureEvent(.move, frame: sample.frame, time: sample.time, neutral: neutral)
        e.offset = offset
        e.pointerX = pose.pointerX
        e.pointerY = pose.pointerY
        let p = settings.proportional
        let map = ProportionalMap(deadZone: p.deadZone, accelerationZone: p.accelerationZone, maxSpeed: p.maxSpeed)
        var v = DirectionValues()
        if offset.yaw > 0 { v.right = map.value(forOffset: offset.yaw) } else { v.left = map.value(forOffset: offset.yaw) }
        if offset.pitch > 0 { v.up = map.value(forOffset: offset.pitch) } else { v.down = map.value(forOffset: offset.pitch) }
        e.proportional = v
        return e
    }

    /// How far an axis may move (x its hysteresis) over its `max_hold` and still count as held: a slow nod or
    /// shake turning over at ±30° moves ~4.5° there, a head holding a look and creeping on moves well under 3°.
    static let settledRange = 2.0

    /// Degrees between the highest and lowest smoothed value of one axis since `time`.
    private func range(_ axis: KeyPath<History.Entry, Double>, since time: Double) -> Double {
        var lo = Double.infinity, hi = -Double.infinity
        for i in history.window(from: time, through: .infinity) {
            lo = min(lo, history[i][keyPath: axis])
            hi = max(hi, history[i][keyPath: axis])
        }
        return hi >= lo ? hi - lo : 0
    }

    /// The direction beyond its threshold (or a share of it), the axis further past its own threshold winning; nil inside.
    static func direction(_ o: Angles, zones z: GestureSettings.Zones, yawShare: Double = 1, pitchShare: Double = 1) -> Direction? {
        let ry = abs(o.yaw) / (yawShare * z.thresholdYaw), rp = abs(o.pitch) / (pitchShare * z.thresholdPitch)
        guard max(ry, rp) >= 1 else { return nil }
        if ry >= rp { return o.yaw > 0 ? .right : .left }
        return o.pitch > 0 ? .up : .down
    }

    /// A look in `d` is over: the head is back within the idle zone's half-width along the look's own axis (or past
    /// neutral the other way). Not the whole idle zone: a person who looked to the side and faces forward again,
    /// their chin a little higher as they talk on, has ended the look (a real talker filmed from below held a look
    /// right 4 s after facing the camera again, 5° above her calibrated pitch: docs/gestures.md "A look ends on its
    /// own axis").
    static func isHome(_ o: Angles, from d: Direction, zones z: GestureSettings.Zones) -> Bool {
        switch d {
        case .left, .right: return distance(o, d) <= z.idleYaw
        case .up, .down: return distance(o, d) <= z.idlePitch
        }
    }

    /// The head is moving on `direction`'s axis (`SwingRecognizer.isMoving`).
    private func isMoving(along direction: Direction?) -> Bool {
        switch direction {
        case .up, .down: return nodRecognizer.isMoving
        case .right, .left: return shakeRecognizer.isMoving
        case nil: return false
        }
    }

    /// The head is on its way back toward neutral from a look in `d` (a stroke past the hysteresis under way, toward
    /// home): only for a look down. A slow, wide "yes" lingers at its bottom longer than the dwell and the settled
    /// range allow, and a look down would start there as it sets off back up (laid slow single "yes"es on three still
    /// real people: 24 times in 27); a head holding a look is not coming back. Not up or sideways: a real brief look
    /// up or right starts as the head turns back (docs/gestures.md "A look down does not start on the way back up").
    private func isHeadingHome(from d: Direction) -> Bool { d == .down && nodRecognizer.heading > 0 }

    /// How far a look in `d` has gone, degrees: as the pose reads it, or for a look down the eyes show, as they read it
    /// where that is further (the nose read it small: `EyesLookDown`).
    private func lookDistance(_ o: Angles, _ d: Direction, witnessed: Bool) -> Double {
        witnessed && d == .down ? max(Self.distance(o, d), eyesDown.shown) : Self.distance(o, d)
    }

    /// Degrees beyond neutral along a direction's axis.
    static func distance(_ o: Angles, _ d: Direction) -> Double {
        switch d {
        case .right: return o.yaw
        case .left: return -o.yaw
        case .up: return o.pitch
        case .down: return -o.pitch
        }
    }
}
