/// What the tracker saw of the face in one frame.
public struct FaceObservation: Sendable, Equatable {
    public var box: FaceBox
    public var landmarks: FaceLandmarks
    public var pose: HeadPose
    /// The spread of the face's grey levels the landmark fit measured (docs/vision.md "Contrast"), and
    /// whether it was below `vision.contrast_floor` and stretched: a dim or backlit face, worth more light.
    public var contrast = 0.0
    public var dim = false
    /// The first frame of a face the tracker takes for someone else's than the one it followed: a nearer face
    /// taken instead of one that stayed put (`FaceTracker.nearerFaceRatio`) or the person back in their place
    /// taken instead of whoever was followed meanwhile, with nothing lost between, or a face found after a loss
    /// away from where the lost one went (only after `FaceTracker.reacquireFor`). To be learnt and calibrated
    /// afresh.
    public var isNewFace = false
}

/// What the tracker did in a frame, for statistics and the status display.
public enum TrackerWork: Sendable, Equatable {
    case searched        // one slice of the search for a face
    case tracked         // landmarks only
    case trackedAndRechecked(found: Bool)
    /// Landmarks, and one detector slice looking for another face: the person back where they were lost while
    /// someone else's face is followed, or a nearer face than one that stayed put
    /// (`FaceTracker.lookForANearerFaceAfter`).
    case trackedAndSearched
}

/// Finds one face and follows it frame to frame.
///
/// Searching: the detector runs one slice a frame over a plan that covers the picture at every face size
/// from `VisionSettings.smallestFace` up (a coarse, shrunk pass first; in a picture bigger than the camera's, its
/// own sizes every other frame: `SearchPlan.visitingOrder`), so no frame pays for a whole search. Tracking: the
/// landmark cascade fits on the box predicted from the last fit (refitting once when it moved a lot), and
/// every `recheckInterval` the detector confirms the face on a small patch around it. Several faces: the
/// largest one found is followed, and for `reacquireFor` after it is lost only a face where it went is taken
/// for it. It gives way to the person back where they were lost while someone else's face is followed, or to
/// a nearer face when it has stayed put (a face on the wall): docs/vision.md "Another face while the person's
/// is hidden".
public final class FaceTracker {
    public let settings: VisionSettings
    public private(set) var isTracking = false
    private let detector: FaceDetector
    private let fitter: LandmarkFitter
    private var estimator: HeadPoseEstimator
    private var plan: [DetectionSlice] = []
    private var planSize = (0, 0)
    private var cursor = 0
    private var box = FaceBox(left: 0, top: 0, right: 0, bottom: 0)
    private var velocity = Point2(x: 0, y: 0)
    private var lastRecheck = 0.0
    private var missedRechecks = 0
    private var needsFirstFit = false
    /// When a face was last seen: a face back within `HeadPoseEstimator`'s relearn time keeps its geometry.
    private var lastFaceTime = -Double.infinity
    /// Where the detector last saw the face (found or re-checked): a fit that lost its face drifts off first.
    private var confirmed = FaceBox(left: 0, top: 0, right: 0, bottom: 0)
    /// Where the face was last confirmed when it was lost, and when (see `reacquireFor`).
    private var lost: (box: FaceBox, time: Double)?
    private var searchFrames = 0
    /// Where the followed face has stayed put since when, and when a slice last looked for another face beside
    /// it (the person back in their place, or a nearer face).
    private var stayedPut: (box: FaceBox, since: Double)?
    private var lastLookForAnother = -Double.infinity
    private var tookNewFace = false
    /// Where the person's face was lost, while someone else's is followed (`lookWhereThePersonWas`).
    private var personsPlace: FaceBox?
    /// Seconds after a face is lost during which every other search slice looks where it was lost. A face is
    /// lost when its owner turns away, a hand passes over it or the fit slips, and it comes back where it went;
    /// but the search plan starts again from its coarse slice and works down to the smallest faces, which at a
    /// picture bigger than VGA takes seconds (1920x1080: the rendered cisco_sweep's face, lost in a 35° turn,
    /// was found again 158 frames later, 27 at VGA). Faces are looked for elsewhere on the other frames. The
    /// same time as `relearnFaceAfter`: after it, the face may be someone else's, anywhere.
    public static let reacquireFor = relearnFaceAfter
    /// A face gone longer than this (s) may be someone else: its head geometry is learnt again. The gesture
    /// engine recalibrates after the same absence (gestures.calibration.recalibrate_after_loss's default).
    public static let relearnFaceAfter = 5.0
    /// Seconds a followed face must have stayed put (`stillTravel`) before the search also looks for a nearer
    /// face. A face on a poster, a photo on the wall or a screen behind the person's place is found when the
    /// person is away and then followed for as long as it is there, since re-checks only look near it: the person
    /// back in their place was never followed again. A person sits still too, so this only lets a nearer face
    /// be looked for; it takes over only if it is `nearerFaceRatio` wider.
    public static let lookForANearerFaceAfter = 10.0
    /// Face widths (its box's centre) and the share of its width a followed face may move by and still be staying
    /// put: a head at rest sways and breathes more than that over `lookForANearerFaceAfter`, a picture does not.
    public static let stillTravel = 0.1
    /// How much wider another face must be to be taken instead of a face that stayed put: nearer the camera
    /// (1.5: at two-thirds of its distance), as the person served is, rather than a carer beside them.
    public static let nearerFaceRatio = 1.5

    public init(settings: VisionSettings, model: ShapeModel) throws(VisionError) {
        self.settings = settings
        detector = try FaceDetector()
        fitter = LandmarkFitter(model: model)
        fitter.contrastFloor = Float(settings.contrastFloor)
        estimator = HeadPoseEstimator(imageWidth: 1, imageHeight: 1, focalLength: 1, mirrored: settings.mirrored)
    }

    /// Forget the face: the next frame starts a new search.
    public func reset(keepingPlanPosition: Bool = false) {
        isTracking = false
        if !keepingPlanPosition { cursor = 0 }
    }

    /// Processes one frame; returns the face if one is being tracked and its landmarks fit.
    public func process(_ frame: LumaFrame) -> (FaceObservation?, TrackerWork) {
        if planSize != (frame.width, frame.height) {
            plan = SearchPlan.visitingOrder(
                SearchPlan.slices(width: frame.width, height: frame.height, settings: settings)
                    + SearchPlan.slices(width: frame.width, height: frame.height, settings: settings, halfStep: true),
                nearFrom: settings.cameraShareFace(width: frame.width, height: frame.height))
            planSize = (frame.width, frame.height)
            estimator = HeadPoseEstimator(imageWidth: frame.width, imageHeight: frame.height,
                                          focalLength: settings.focalLengthFactor * Double(max(frame.width, frame.height)),
                                          mirrored: settings.mirrored)
            reset()
        }
        guard isTracking else { return (search(frame), .searched) }

        // Track: fit on the predicted box, refit once if the face moved a lot since.
        let predicted = needsFirstFit ? box : box.offset(by: velocity)
        var landmarks = fitter.fit(frame, box: predicted)
        var fitted = fitter.box(enclosing: landmarks)
        if needsFirstFit || (fitted.center - predicted.center).length > 0.08 * predicted.width {
            landmarks = fitter.fit(frame, box: fitted)
            fitted = fitter.box(enclosing: landmarks)
        }
        needsFirstFit = false
        guard isPlausible(landmarks, box: fitted, in: frame) else {
            lose(at: frame.time)
            return (nil, .tracked)
        }
        velocity = (fitted.center - box.center) * 0.5 + velocity * 0.5
        box = fitted
        var work = TrackerWork.tracked
        if frame.time - lastRecheck >= settings.recheckInterval {
            let found = recheck(frame)
            work = .trackedAndRechecked(found: found)
            if !found {
                missedRechecks += 1
                if missedRechecks >= settings.missedRechecksBeforeLost {
                    lose(at: frame.time)
                    return (nil, work)
                }
            }
        }
        lastFaceTime = frame.time
        if work == .tracked, let looked = lookWhereThePersonWas(following: fitted, in: frame) ?? lookForANearerFace(than: fitted, in: frame) {
            work = .trackedAndSearched
            if let other = looked {
                // The person back in their place, or someone nearer than a face that stayed put: follow them
                // instead, as a new face.
                estimator.forgetFace()
                startTracking(other, at: frame.time)
                tookNewFace = true
                return (nil, work)
            }
        }
        var observation = FaceObservation(box: fitted, landmarks: landmarks, pose: estimator.pose(landmarks),
                                          contrast: Double(fitter.contrast), dim: fitter.stretched)
        observation.isNewFace = tookNewFace
        tookNewFace = false
        return (observation, work)
    }

    /// While someone else's face is followed (taken after the person's was lost `reacquireFor`, away from where
    /// it went), the re-acquire slice looks where the person's went, every `recheckInterval`: the person back in
    /// their place is followed again, whoever was followed meanwhile (a carer moving about was kept for as long as
    /// they stayed in the picture). nil when no slice ran; `.some(nil)` when one ran and found none there.
    private func lookWhereThePersonWas(following followed: FaceBox, in frame: LumaFrame) -> FaceBox?? {
        guard let place = personsPlace, frame.time - lastLookForAnother >= settings.recheckInterval else { return nil }
        lastLookForAnother = frame.time
        return .some(largestFittingFace(in: frame, slice: reacquireSlice(around: place), clearOf: followed) {
            isWhere($0, lostFaceWent: place)
        })
    }

    /// A face at least `nearerFaceRatio` wider than `followed`, clear of it, when `followed` has stayed put for
    /// `lookForANearerFaceAfter`: one slice of the search plan every `recheckInterval` looks for it. nil when
    /// no slice ran this frame; `.some(nil)` when one ran and found none.
    private func lookForANearerFace(than followed: FaceBox, in frame: LumaFrame) -> FaceBox?? {
        guard let put = stayedPut, (followed.center - put.box.center).length <= Self.stillTravel * put.box.width,
              abs(followed.width / max(1, put.box.width) - 1) <= Self.stillTravel else {
            stayedPut = (followed, frame.time)
            return nil
        }
        guard frame.time - put.since >= Self.lookForANearerFaceAfter,
              frame.time - lastLookForAnother >= settings.recheckInterval, !plan.isEmpty else { return nil }
        // Nearer is bigger: the plan's coarse slice first, where the big faces are found.
        if lastLookForAnother < put.since { cursor = 0 }
        lastLookForAnother = frame.time
        let slice = plan[cursor]
        cursor = (cursor + 1) % plan.count
        return .some(largestFittingFace(in: frame, slice: slice, clearOf: followed) {
            $0.width >= Self.nearerFaceRatio * followed.width
        })
    }

    /// The largest face the detector finds on `slice` that `wanted` accepts, clear of the followed face, and
    /// that the landmarks fit: a detector's stray box is not worth the face that is followed.
    private func largestFittingFace(in frame: LumaFrame, slice: DetectionSlice, clearOf followed: FaceBox,
                                    where wanted: (FaceBox) -> Bool) -> FaceBox? {
        guard let face = detector.detect(in: frame, slice: slice)
            .filter({ wanted($0.box) && $0.box.overlap(followed) < 0.1 })
            .max(by: { $0.box.area < $1.box.area })?.box,
              isPlausible(fitter.fit(frame, box: face), box: face, in: frame) else { return nil }
        return face
    }

    /// The face was lost: search again from the start of the plan, and where it was.
    private func lose(at time: Double) {
        lost = (confirmed, time)
        searchFrames = 0
        reset()
    }

    private func search(_ frame: LumaFrame) -> FaceObservation? {
        guard !plan.isEmpty else { return nil }
        let slice: DetectionSlice
        if let l = lost, frame.time - l.time <= Self.reacquireFor, searchFrames % 2 == 0 {
            slice = reacquireSlice(around: l.box)
        } else {
            slice = plan[cursor]
            cursor = (cursor + 1) % plan.count
        }
        searchFrames += 1
        var found = detector.detect(in: frame, slice: slice)
        if let l = lost, frame.time - l.time <= Self.reacquireFor {
            found.removeAll { !isWhere($0.box, lostFaceWent: l.box) }
        }
        guard let largest = found.max(by: { $0.box.area < $1.box.area }) else { return nil }
        // Later, a face elsewhere is someone else, however long the engine keeps a face's neutral through a loss
        // (`recalibrate_after_loss` may be set longer than `reacquireFor`).
        let someoneElse = lost.map { !isWhere(largest.box, lostFaceWent: $0.box) } ?? false
        if someoneElse, personsPlace == nil { personsPlace = lost?.box }
        // Landmarks fitted on a fresh detector box jump; start tracking from the next frame.
        startTracking(largest.box, at: frame.time)
        tookNewFace = someoneElse
        return nil
    }

    /// Whether a face found at `box` may be the one lost at `lost`: inside the square the re-acquire slice looks
    /// at, at a size it looks for (give or take `FaceDetector.sizeSlack`). For `reacquireFor` after a loss no face
    /// elsewhere is followed: the person's face hidden by a hand or turned away, a carer leaning in beside them
    /// is not taken for them (their nod would be the person's "yes"). After it, any face is a new one.
    private func isWhere(_ box: FaceBox, lostFaceWent lost: FaceBox) -> Bool {
        let s = reacquireSlice(around: lost)
        let smallest = FaceDetector.windowSize / s.scale
        let largest = smallest * pow(FaceDetector.pyramidStep, Double(s.levels - 1))
        let c = box.center
        return c.x >= Double(s.x) && c.x <= Double(s.x + s.width) && c.y >= Double(s.y) && c.y <= Double(s.y + s.height)
            && box.width >= smallest / FaceDetector.sizeSlack && box.width <= largest * FaceDetector.sizeSlack
    }

    /// A square around where the face was lost, shrunk so a face 0.8 times its size fills the detector's
    /// window, over four pyramid levels (0.8-1.4 times its size), as wide as one search slice's budget allows:
    /// 2.4 face widths at the default budget, whatever the face's size or the camera's.
    private func reacquireSlice(around last: FaceBox) -> DetectionSlice {
        let size = max(1, last.width), levels = 4
        let scale = min(4, max(0.02, FaceDetector.windowSize / (0.8 * size)))
        let side = min(3 * size, SearchPlan.squareSide(scale: scale, levels: levels, budget: Double(settings.searchSlicePixels)))
        let c = last.center
        return DetectionSlice(x: Int(c.x - side / 2), y: Int(c.y - side / 2), width: Int(side), height: Int(side),
                              scale: scale, levels: levels)
    }

    private func startTracking(_ found: FaceBox, at time: Double) {
        if let place = personsPlace, isWhere(found, lostFaceWent: place) { personsPlace = nil }
        lost = nil
        stayedPut = nil
        confirmed = found
        if time - lastFaceTime > Self.relearnFaceAfter { estimator.forgetFace() }
        box = found
        velocity = Point2(x: 0, y: 0)
        isTracking = true
        needsFirstFit = true
        missedRechecks = 0
        lastRecheck = time
    }

    /// How a re-check looks for the face: pyramid levels, and the patch in tracked face widths. Facing the camera the
    /// detector's box is the size of the box the landmarks enclose (0.85-1.05 of it on the real and rendered clips):
    /// two levels find it at 0.83-1.2 times that size, on a patch 1.6 face widths wide. Turned 35-45°, the eye corners
    /// close up while the head does not shrink, and the detector's box is ~1.3 times the landmarks' (a real man seated
    /// at an angle at a lunch table: 1.25-1.4), its centre up to a tenth of a face off theirs: two levels missed him at
    /// every re-check, and he was lost every 1.5 s and found again two frames later. So a re-check after a miss looks
    /// over three levels (0.83-1.44 times the size) on a patch 1.8 wide, and so does every re-check of a face the
    /// detector last saw wider than `widenRechecksBeyond`. A face toward the camera costs what it did (1.0 ms a
    /// re-check here; a widened one 1.7-2.1 ms). docs/vision.md "A face seen at an angle".
    static let recheckLevels = (usual: 2, widened: 3)
    static let recheckPatch = (usual: 1.6, widened: 1.8)
    /// A face whose detector box was last this much wider than its landmarks' box is re-checked widened, missed or
    /// not: near the usual re-check's reach (1.2). Widened only after a miss, a face held at an angle missed every
    /// other re-check, and a widened miss between two usual ones lost it (8 times in the lunch-table clip, not 5).
    static let widenRechecksBeyond = 1.15

    /// Where a re-check of a face tracked at `box` looks, and at what sizes (`widened`: see `recheckLevels`).
    static func recheckSlice(around box: FaceBox, widened: Bool) -> DetectionSlice {
        let size = box.width, side = (widened ? recheckPatch.widened : recheckPatch.usual) * size, margin = (side - size) / 2
        return DetectionSlice(x: Int(box.left - margin), y: Int(box.top - margin), width: Int(side), height: Int(side),
                              scale: min(2, max(0.02, 1.1 * FaceDetector.windowSize / size)),
                              levels: widened ? recheckLevels.widened : recheckLevels.usual)
    }

    /// Looks for the face on a small patch around the tracked box; re-seeds the box if the tracker drifted.
    private func recheck(_ frame: LumaFrame) -> Bool {
        lastRecheck = frame.time
        // The patch shrunk so the face is 1.1 detector windows: about 140x140 pixels (160x160 widened) whatever the
        // camera and the face's size, so a re-check costs the same at any resolution. (When the shrink stopped at 0.2, a face wider
        // than ~450 px, a phone video's close face, failed every re-check and was lost every 1.5 s.)
        let widened = missedRechecks > 0 || confirmed.width > Self.widenRechecksBeyond * box.width
        guard let best = detector.detect(in: frame, slice: Self.recheckSlice(around: box, widened: widened)).max(by: { $0.box.overlap(box) < $1.box.overlap(box) }),
              best.box.overlap(box) > 0.3 else { return false }
        missedRechecks = 0
        confirmed = best.box
        if best.box.overlap(box) < 0.5 {
            box = best.box
            needsFirstFit = true
        }
        return true
    }

    private func isPlausible(_ l: FaceLandmarks, box: FaceBox, in frame: LumaFrame) -> Bool {
        let size = box.width
        guard size >= 20, size <= 2 * Double(max(frame.width, frame.height)) else { return false }
        let c = box.center
        guard c.x >= 0, c.y >= 0, c.x < Double(frame.width), c.y < Double(frame.height) else { return false }
        // In the model's mean shape the eye centres are ~0.4 box widths apart; a fit far from that is not a face.
        let ratio = l.eyeDistance / size
        return ratio > 0.2 && ratio < 0.7
    }

    /// Every face in a still picture, with landmarks. A still has no frame time to keep, so the detector scans
    /// the whole picture at every size from `smallestFace` in one go, and again half a pyramid step off, since
    /// a weak face can score only near one exact size; then two landmark fits each.
    public func faces(in frame: LumaFrame) -> [FaceObservation] {
        let scale = min(4, FaceDetector.windowSize / settings.smallestFace(width: frame.width, height: frame.height))
        let slices = [scale, scale / FaceDetector.pyramidStep.squareRoot()].map {
            DetectionSlice(x: 0, y: 0, width: frame.width, height: frame.height, scale: $0, levels: 0)
        }
        var boxes: [FaceBox] = []
        for slice in slices {
            for d in detector.detect(in: frame, slice: slice) where !boxes.contains(where: { $0.overlap(d.box) > 0.3 }) {
                boxes.append(d.box)
            }
        }
        let focal = settings.focalLengthFactor * Double(max(frame.width, frame.height))
        return boxes.map { found in
            var l = fitter.fit(frame, box: found)
            l = fitter.fit(frame, box: fitter.box(enclosing: l))
            return FaceObservation(box: fitter.box(enclosing: l), landmarks: l, pose: HeadPoseEstimator.stillPose(l, imageWidth: frame.width, imageHeight: frame.height,
                                                                        focalLength: focal, mirrored: settings.mirrored),
                                   contrast: Double(fitter.contrast), dim: fitter.stretched)
        }
    }
}

/// How a face search is cut into slices so that none costs more than `searchSlicePixels` of detector work.
///
/// The detector's cost is about proportional to the pixels it scans, summed over its image pyramid (each
/// level 5/6 the size of the last). The plan works down the face sizes in bands:
/// - **coarse**: the whole frame, shrunk until its whole pyramid fits the budget — finds the near faces in
///   the first frame of a search;
/// - then bands of smaller faces, each continuing the pyramid where the last stopped (one 6/5 step down), at
///   the scale that brings the band's smallest face to the detector's 80 px window, with the pyramid capped at
///   the band's largest face. Each band tiles the frame with tiles that fit the budget and overlap by more
///   than the band's largest face, so a face is whole in some tile. A band's level count is the one that
///   covers its sizes with the fewest tiles per size step: few levels give big tiles but many bands.
public enum SearchPlan {
    /// Detector work of scanning `width` x `height` frame pixels resampled by `scale`, over at most `levels`
    /// pyramid levels (0 = all): pixels summed over the levels dlib builds (down to 40 px a side).
    public static func cost(width: Int, height: Int, scale: Double, levels: Int) -> Double {
        let w = Double(width) * scale, h = Double(height) * scale
        var total = 0.0, factor = 1.0, level = 0
        repeat {
            total += w * h * factor * factor
            factor *= 5.0 / 6.0
            level += 1
        } while min(w, h) * factor >= 40 && (levels == 0 || level < levels)
        return total
    }

    /// The side (frame pixels) of the square that costs `budget` to search at `scale` over `levels`: from the
    /// cost per pixel of a big square, an upper bound for a smaller one, whose pyramid can only stop sooner.
    static func squareSide(scale: Double, levels: Int, budget: Double) -> Double {
        (budget / (cost(width: 1000, height: 1000, scale: scale, levels: levels) / 1e6)).squareRoot()
    }

    /// The order the tracker visits `slices` in, one a frame: a slice that looks for faces of `nearFrom` pixels or
    /// more (the sizes the device's own camera would look for, `VisionSettings.cameraShareFace`) every other frame,
    /// the slices for smaller faces between them. A picture bigger than the camera's searches further away too
    /// (1920x1080: 284 slices over both passes, 27 of them for faces from 180 px), and in plan order a face of a
    /// near size missed when its slices came round (a hand over it, a head turned in a "no" from the first frame)
    /// waited a whole cycle, 9.5 s at 30 fps: augly's real woman, in plain view from 2 s, was found at 5.4 s. Now
    /// the near slices come round every 54 frames and the far ones every 527. At the camera's own size and below
    /// every slice is near: the order is the plan's. docs/vision.md "The camera's own sizes first".
    public static func visitingOrder(_ slices: [DetectionSlice], nearFrom size: Double) -> [DetectionSlice] {
        let near = slices.filter { largestFace($0) >= size }, far = slices.filter { largestFace($0) < size }
        guard !near.isEmpty, !far.isEmpty else { return slices }
        // Whole rounds of the near slices, so none waits longer across the end of the order than within it.
        let rounds = (far.count + near.count - 1) / near.count
        var order: [DetectionSlice] = []
        order.reserveCapacity(rounds * near.count + far.count)
        for i in 0..<(rounds * near.count) {
            order.append(near[i % near.count])
            if i < far.count { order.append(far[i]) }
        }
        return order
    }

    /// The largest face (frame pixels) `slice` finds: unbounded for a whole pyramid (`levels` 0).
    static func largestFace(_ slice: DetectionSlice) -> Double {
        guard slice.levels > 0 else { return .infinity }
        return FaceDetector.windowSize / slice.scale * pow(FaceDetector.pyramidStep, Double(slice.levels - 1))
    }

    /// One pass over every face size. `halfStep` shifts every scale by half a pyramid step: the tracker
    /// alternates the two passes, since a weak face can score above the detector's threshold only near one
    /// exact size, and the two grids together sample sizes twice as finely.
    public static func slices(width: Int, height: Int, settings: VisionSettings, halfStep: Bool = false) -> [DetectionSlice] {
        let budget = Double(settings.searchSlicePixels)
        let window = FaceDetector.windowSize, step = FaceDetector.pyramidStep
        // Coarse: the largest scale whose whole pyramid fits the budget (bisection; cost grows with scale).
        var low = 0.01, high = 4.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if cost(width: width, height: height, scale: mid, levels: 0) <= budget { low = mid } else { high = mid }
        }
        let coarse = min(low, 4.0 * 0.999) / (halfStep ? step.squareRoot() : 1)
        var slices = [DetectionSlice(x: 0, y: 0, width: width, height: height, scale: coarse, levels: 0)]
        var smallestCovered = window / coarse     // the smallest face the slices so far find, frame pixels
        let smallestWanted = settings.smallestFace(width: width, height: height)
        while smallestCovered > smallestWanted * FaceDetector.sizeSlack {
            let largest = smallestCovered / step  // the next pyramid level down
            var best: (tilesPerStep: Double, band: Band)?
            for levels in 1...8 {
                let smallest = max(smallestWanted, largest / pow(step, Double(levels - 1)))
                let scale = min(4.0, window / smallest)
                let band = Band(frameWidth: width, frameHeight: height, largest: largest, scale: scale, levels: levels, budget: budget)
                guard let tiles = band.tileCount else { continue }
                let steps = log(largest / (window / scale)) / log(step) + 1
                let perStep = Double(tiles) / steps
                if best == nil || perStep < best!.tilesPerStep { best = (perStep, band) }
                if smallest <= smallestWanted { break }
            }
            // No band fits (budget too small for a tile), or the scale limit is reached: search what fits.
            guard let band = best?.band, window / band.scale < smallestCovered else { break }
            slices += band.tiles()
            smallestCovered = window / band.scale
        }
        return slices
    }

    /// Faces from `window / scale` to `largest` frame pixels, as tiles of the frame.
    private struct Band {
        let frameWidth, frameHeight: Int
        let largest, scale: Double
        let levels: Int
        let side: Double       // tile side, frame pixels
        let overlap: Double    // frame pixels; more than the largest face, so every face is whole in a tile

        init(frameWidth: Int, frameHeight: Int, largest: Double, scale: Double, levels: Int, budget: Double) {
            self.frameWidth = frameWidth; self.frameHeight = frameHeight
            self.largest = largest; self.scale = scale; self.levels = levels
            overlap = (largest * 1.15).rounded(.up)
            side = SearchPlan.squareSide(scale: scale, levels: levels, budget: budget).rounded(.down)
        }

        var tileCount: Int? {
            guard let xs = starts(frameWidth), let ys = starts(frameHeight) else { return nil }
            return xs.count * ys.count
        }

        func starts(_ length: Int) -> [Int]? {
            let length = Double(length)
            if side >= length { return [0] }
            guard side > overlap * 1.05 else { return nil }
            let n = Int(((length - overlap) / (side - overlap)).rounded(.up))
            let stride = (length - side) / Double(n - 1)
            return (0..<n).map { Int((Double($0) * stride).rounded()) }
        }

        func tiles() -> [DetectionSlice] {
            guard let xs = starts(frameWidth), let ys = starts(frameHeight) else { return [] }
            let w = min(frameWidth, Int(side)), h = min(frameHeight, Int(side))
            return ys.flatMap { y in xs.map { x in DetectionSlice(x: x, y: y, width: w, height: h, scale: scale, levels: levels) } }
        }
    }
}

import Foundation
