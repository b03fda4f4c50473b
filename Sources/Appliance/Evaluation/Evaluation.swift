import Foundation
import Gestures
import Pipeline

/// One clip to evaluate: the recording, its labels and, for synthetic clips, its true pose.
struct LabelledClip: Sendable {
    var name: String
    var video: String
    var labels: ClipLabels
    var truth: PoseTruth?
}

/// What one clip gave.
struct ClipReport: Sendable {
    var name: String
    var frames: Int
    /// Frames that went through the pipeline: fewer than `frames` at a `rate` below the recording's.
    var framesProcessed: Int
    var framesWithFace: Int
    var gestures: GestureScore
    var pose: PoseScore?

    var faceFraction: Double { framesProcessed > 0 ? Double(framesWithFace) / Double(framesProcessed) : 0 }
}

/// The sum over clips; the pose errors as the median of the clips' and the worst cross-talk of any.
struct EvaluationTotals: Sendable {
    var clips = 0
    var frames = 0
    var framesProcessed = 0
    var framesWithFace = 0
    var gestures = GestureScore()
    var poseClips = 0
    var medianRmsYaw: Double?
    var medianRmsPitch: Double?
    var worstCrossTalk: Double?

    var faceFraction: Double { framesProcessed > 0 ? Double(framesWithFace) / Double(framesProcessed) : 0 }

    init(_ reports: [ClipReport]) {
        for r in reports {
            clips += 1
            frames += r.frames
            framesProcessed += r.framesProcessed
            framesWithFace += r.framesWithFace
            gestures = gestures + r.gestures
        }
        let poses = reports.compactMap(\.pose)
        poseClips = poses.count
        if !poses.isEmpty {
            medianRmsYaw = PoseScore.median(poses.map(\.rmsYaw))
            medianRmsPitch = PoseScore.median(poses.map(\.rmsPitch))
        }
        worstCrossTalk = poses.compactMap(\.crossTalk).max()
    }
}

/// Every labelled clip of a folder, replayed through the whole pipeline and scored.
struct Evaluation {
    let settings: NodwireConfig
    /// Frames processed a second (the rest dropped, as the device's loop drops them at `budget.active_rate`);
    /// nil processes every frame of the recording.
    var rate: Double? = nil
    /// Seconds into every clip where the replay begins (`--start`): a face first seen there, wherever the person
    /// happens to be (mid-sentence, turned, mid-nod). What is labelled before is not scored; a segment the start
    /// cuts is scored from it.
    var start: Double = 0
    /// A fresh processor for each clip: the tracker must not carry one clip's face into the next.
    let makeProcessor: () throws -> FaceProcessor

    /// The clips of `directory`, sorted by name, their labels and poses read and checked before anything
    /// is replayed (a broken file is reported at once, not after minutes of replay). A recording without
    /// labels is passed to `skipped`.
    static func clips(in directory: String, skipped: (String) -> Void = { _ in }) throws(EvaluationError) -> [LabelledClip] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { throw .noDirectory(directory) }
        let folder = URL(fileURLWithPath: directory)
        var clips: [LabelledClip] = []
        for file in names.sorted() where file.hasSuffix(".y4m") {
            let name = String(file.dropLast(4))
            let path = { (suffix: String) in folder.appendingPathComponent(name + suffix).path }
            let labelsPath = ClipLabels.path(beside: path(".y4m"))
            guard FileManager.default.fileExists(atPath: labelsPath) else { skipped(path(".y4m")); continue }
            let truth = FileManager.default.fileExists(atPath: path(".pose.csv")) ? try PoseTruth.read(path: path(".pose.csv")) : nil
            let labels = try ClipLabels.read(path: labelsPath)
            clips.append(LabelledClip(name: name, video: path(".y4m"), labels: labels, truth: truth))
        }
        guard !clips.isEmpty else { throw .noClips(directory) }
        return clips
    }

    /// Replays one clip, every frame (or at `rate`), and scores what came out. The pose is the vision core's own, before
    /// the gesture engine smooths it.
    func run(_ clip: LabelledClip) throws -> ClipReport {
        var events: [GestureEvent] = []
        var measured: [Int: Angles] = [:]
        let summary = try Replay(file: clip.video, settings: settings, processor: try makeProcessor(), rate: rate, start: start)
            .run(onFrame: { result in
                if let pose = result.face?.pose { measured[result.index] = Angles(yaw: pose.yaw, pitch: pose.pitch) }
            }, onEvent: { events.append($0) })
        return ClipReport(name: clip.name, frames: summary.frames, framesProcessed: summary.processed, framesWithFace: summary.framesWithFace,
                          gestures: GestureScore(events: events, labels: clip.labels.from(frame: Replay.firstFrame(at: start, frameRate: summary.frameRate)),
                                                 frameRate: summary.frameRate),
                          pose: clip.truth.flatMap { PoseScore(measured: measured, truth: $0.poses) })
    }
}
