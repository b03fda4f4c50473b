/// One frame's outcome: the face (if one is tracked), what the tracker did, and what it cost.
public struct FrameResult: Sendable {
    public var index: Int
    public var time: Double
    public var face: FaceObservation?
    public var work: TrackerWork
    /// CPU time this thread spent on the frame, milliseconds.
    public var cpuMilliseconds: Double
}

/// The vision half of the pipeline: frame in, face and head pose out, with its own cost measured.
public final class FaceProcessor {
    public let tracker: FaceTracker

    public init(settings: VisionSettings) throws(VisionError) {
        tracker = try FaceTracker(settings: settings, model: try ShapeModel(path: settings.modelPath))
    }

    public func process(_ frame: LumaFrame) -> FrameResult {
        let start = ThreadCPUClock.now()
        let (face, work) = tracker.process(frame)
        return FrameResult(index: frame.index, time: frame.time, face: face, work: work,
                           cpuMilliseconds: (ThreadCPUClock.now() - start) * 1000)
    }
}
