import Gestures

/// How true the measured head pose is against a clip's known pose, by the rules of docs/accuracy.md.
/// Pure: measured and true poses by frame in, errors in degrees out.
struct PoseScore: Equatable, Sendable {
    /// The starting offset comes from this many first frames with both poses: a person's resting pose is
    /// theirs, and Nodwire calibrates to it, so only the error beyond it matters.
    static let offsetFrames = 30
    /// Fewer frames with both poses than this give no score.
    static let minimumFrames = 41
    /// The range the gestures use: RMS errors count frames within it.
    static let coreYaw = 30.0
    static let corePitch = 20.0
    /// Beyond this yaw, any pitch error is yaw leaking into pitch (a turn read as a nod).
    static let crossTalkYaw = 20.0

    /// Frames with both a measured and a true pose, and frames with a true pose.
    var frames: Int
    var truthFrames: Int
    /// Measured minus true, removed before the errors below.
    var offset: Angles
    var rmsYaw: Double
    var rmsPitch: Double
    /// The worst |pitch error| while |true yaw| > 20°; nil when the head never turns that far.
    var crossTalk: Double?

    /// nil when too few frames have both poses, or none is within the core range.
    init?(measured: [Int: Angles], truth: [Int: Angles]) {
        let common = measured.keys.filter { truth[$0] != nil }.sorted()
        guard common.count >= Self.minimumFrames else { return nil }
        let first = common.prefix(Self.offsetFrames)
        offset = Angles(yaw: Self.median(first.map { measured[$0]!.yaw - truth[$0]!.yaw }),
                        pitch: Self.median(first.map { measured[$0]!.pitch - truth[$0]!.pitch }))
        var yawSquares = 0.0, pitchSquares = 0.0, core = 0
        var worst: Double?
        for f in common {
            let m = measured[f]!, t = truth[f]!
            let yawError = m.yaw - offset.yaw - t.yaw, pitchError = m.pitch - offset.pitch - t.pitch
            if abs(t.yaw) <= Self.coreYaw && abs(t.pitch) <= Self.corePitch {
                yawSquares += yawError * yawError
                pitchSquares += pitchError * pitchError
                core += 1
            }
            if abs(t.yaw) > Self.crossTalkYaw { worst = max(worst ?? 0, abs(pitchError)) }
        }
        guard core > 0 else { return nil }
        frames = common.count
        truthFrames = truth.count
        rmsYaw = (yawSquares / Double(core)).squareRoot()
        rmsPitch = (pitchSquares / Double(core)).squareRoot()
        crossTalk = worst
    }

    /// The middle value; the mean of the two middle ones for an even count.
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
