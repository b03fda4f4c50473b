/// What the tracker saw of the face in one frame.
public struct FaceObservation: Sendable, Equatable {
    public var box: FaceBox
    public var landmarks: FaceLandmarks
    public var pose: HeadPose
}

/// What the tracker did in a frame, for statistics and the status display.
public enum TrackerWork: Sendable, Equatable {
    case searched        // one slice of the search for a face
    case tracked         // landmarks only
    case trackedAndRechecked(found: Bool)
}

/// Finds one face and follows it frame to frame.
///
/// Searching: the detector runs one slice a frame over a plan that covers the picture at every face size
/// from `minFaceSize` up (a coarse, shrunk pass first), so no frame pays for a whole search. Tracking: the
/// landmark cascade fits on the box predicted from the last fit (refitting once when it moved a lot), and
/// every `recheckInterval` the detector confirms the face on a small patch around it. Several faces: the
/// largest one found is followed and never swapped for another, since re-checks only look near it.
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

    public init(settings: VisionSettings, model: ShapeModel) throws(VisionError) {
        self.settings = settings
        detector = try FaceDetector()
        fitter = LandmarkFitter(model: model)
        estimator = HeadPoseEstimator(imageWidth: 1, imageHeight: 1, focalLength: 1, mirrored: settings.mirrored)
    }

    /// Forget the face: the next frame starts a new search.
    public func reset() {
        isTracking = false
        cursor = 0
    }

    /// Processes one frame; returns the face if one is being tracked and its landmarks fit.
    public func process(_ frame: LumaFrame) -> (FaceObservation?, TrackerWork) {
        if planSize != (frame.width, frame.height) {
            plan = SearchPlan.slices(width: frame.width, height: frame.height, settings: settings)
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
            reset()
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
                    reset()
                    return (nil, work)
                }
            }
        }
        return (FaceObservation(box: fitted, landmarks: landmarks, pose: estimator.pose(landmarks)), work)
    }

    private func search(_ frame: LumaFrame) -> FaceObservation? {
        guard !plan.isEmpty else { return nil }
        let slice = plan[cursor]
        cursor = (cursor + 1) % plan.count
        guard let largest = detector.detect(in: frame, slice: slice).max(by: { $0.box.area < $1.box.area }) else { return nil }
        // Landmarks fitted on a fresh detector box jump; start tracking from the next frame.
        startTracking(largest.box, at: frame.time)
        return nil
    }

    private func startTracking(_ found: FaceBox, at time: Double) {
        box = found
        velocity = Point2(x: 0, y: 0)
        isTracking = true
        needsFirstFit = true
        missedRechecks = 0
        lastRecheck = time
    }

    /// Looks for the face on a small patch around the tracked box; re-seeds the box if the tracker drifted.
    private func recheck(_ frame: LumaFrame) -> Bool {
        lastRecheck = frame.time
        // A patch 1.6 face widths wide, shrunk so the face is a little over the detector's window: about
        // 150x150 pixels whatever the camera, so a re-check costs the same (~2 ms) at any resolution.
        let size = box.width
        let slice = DetectionSlice(x: Int(box.left - size * 0.3), y: Int(box.top - size * 0.3),
                                   width: Int(size * 1.6), height: Int(size * 1.6),
                                   scale: min(2, max(0.2, 1.15 * FaceDetector.windowSize / size)), levels: 3)
        guard let best = detector.detect(in: frame, slice: slice).max(by: { $0.box.overlap(box) < $1.box.overlap(box) }),
              best.box.overlap(box) > 0.3 else { return false }
        missedRechecks = 0
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

    /// Every face in a still picture, with landmarks (detector over the whole plan, then two fits each).
    public func faces(in frame: LumaFrame) -> [FaceObservation] {
        let slices = SearchPlan.slices(width: frame.width, height: frame.height, settings: settings)
        var boxes: [FaceBox] = []
        for slice in slices {
            for d in detector.detect(in: frame, slice: slice) where !boxes.contains(where: { $0.overlap(d.box) > 0.3 }) {
                boxes.append(d.box)
            }
        }
        let still = HeadPoseEstimator(imageWidth: frame.width, imageHeight: frame.height,
                                      focalLength: settings.focalLengthFactor * Double(max(frame.width, frame.height)),
                                      mirrored: settings.mirrored)
        return boxes.map { found in
            var l = fitter.fit(frame, box: found)
            l = fitter.fit(frame, box: fitter.box(enclosing: l))
            return FaceObservation(box: fitter.box(enclosing: l), landmarks: l, pose: still.pose(l))
        }
    }
}

/// How a face search is cut into slices so that none takes much longer than another.
public enum SearchPlan {
    public static func slices(width: Int, height: Int, settings: VisionSettings) -> [DetectionSlice] {
        let budget = Double(settings.searchSlicePixels)
        // Coarse pass: the whole picture shrunk to the budget finds the big (near) faces in one frame.
        let coarse = min(1, (budget / Double(width * height)).squareRoot())
        var slices = [DetectionSlice(x: 0, y: 0, width: width, height: height, scale: coarse, levels: 0)]
        let coarseSmallest = FaceDetector.windowSize / coarse
        guard settings.minFaceSize < coarseSmallest * 0.95 else { return slices }
        // Fine pass: enlarged enough for the smallest face, pyramid capped where the coarse pass takes over,
        // tiled with enough overlap that a face on a seam is whole in some tile.
        let fine = FaceDetector.windowSize / settings.minFaceSize
        let levels = Int((log(coarseSmallest / settings.minFaceSize) / log(FaceDetector.pyramidStep)).rounded(.up)) + 1
        let overlap = coarseSmallest * 1.1
        let side = (budget / (fine * fine)).squareRoot()       // tile side in frame pixels
        let tile = max(side, overlap * 1.6)
        func starts(_ length: Int) -> [Int] {
            if Double(length) <= tile { return [0] }
            let n = Int(((Double(length) - overlap) / (tile - overlap)).rounded(.up))
            let step = (Double(length) - tile) / Double(n - 1)
            return (0..<n).map { Int((Double($0) * step).rounded()) }
        }
        let tw = min(width, Int(tile.rounded(.up))), th = min(height, Int(tile.rounded(.up)))
        for y in starts(height) {
            for x in starts(width) {
                slices.append(DetectionSlice(x: x, y: y, width: tw, height: th, scale: fine, levels: levels))
            }
        }
        return slices
    }
}

import Foundation
