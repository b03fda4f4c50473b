import Gestures

/// What `nodwire calibrate` learns about one person: how still their head is at rest and how far they
/// comfortably turn and tilt from their neutral. From that it proposes the idle zone and the look thresholds
/// (the engine learns neutral itself at every start, so neutral is shown, not saved).
struct PersonalZones: Equatable {
    /// Offsets from neutral seen after calibration (degrees): the furthest in each direction.
    private(set) var reach = DirectionValues()
    /// Spread of the pose at rest: root mean square offset over the first `restSamples` after calibration.
    private var restSquares = Angles(yaw: 0, pitch: 0)
    private(set) var restCount = 0
    let restSamples: Int

    /// A threshold sits at this fraction of the smaller comfortable reach of its axis, so both sides are
    /// reached without strain; the idle zone is `noiseFactor` times the rest spread, kept between
    /// `idleFractions` of the threshold (the defaults' ratio is about 0.4).
    static let thresholdFraction = 0.5
    static let idleFractions = 0.35...0.45
    static let noiseFactor = 4.0
    /// A direction reached less than this (degrees) was not shown: that axis keeps its current values.
    static let minimumReach = 6.0

    init(restSamples: Int = 15) { self.restSamples = restSamples }

    mutating func add(offset o: Angles) {
        if restCount < restSamples {
            restSquares.yaw += o.yaw * o.yaw
            restSquares.pitch += o.pitch * o.pitch
            restCount += 1
        }
        reach.right = max(reach.right, o.yaw)
        reach.left = max(reach.left, -o.yaw)
        reach.up = max(reach.up, o.pitch)
        reach.down = max(reach.down, -o.pitch)
    }

    var restSpread: Angles {
        guard restCount > 0 else { return Angles(yaw: 0, pitch: 0) }
        return Angles(yaw: (restSquares.yaw / Double(restCount)).squareRoot(), pitch: (restSquares.pitch / Double(restCount)).squareRoot())
    }

    /// The zones to use: measured axes replaced, the others as in `current`. Also says which axes were
    /// not shown (a direction not reached far enough).
    func proposal(from current: GestureSettings.Zones) -> (zones: GestureSettings.Zones, missing: [Direction]) {
        var z = current
        let missing = Direction.allCases.filter { reach[$0] < Self.minimumReach }
        func axis(_ a: Double, _ b: Double, noise: Double) -> (idle: Double, threshold: Double) {
            let threshold = min(60, max(2, Self.thresholdFraction * min(a, b)))
            let idle = min(Self.idleFractions.upperBound * threshold, max(Self.idleFractions.lowerBound * threshold, Self.noiseFactor * noise))
            return ((idle * 10).rounded() / 10, (threshold * 10).rounded() / 10)
        }
        if !missing.contains(.left) && !missing.contains(.right) {
            (z.idleYaw, z.thresholdYaw) = axis(reach.left, reach.right, noise: restSpread.yaw)
        }
        if !missing.contains(.up) && !missing.contains(.down) {
            (z.idlePitch, z.thresholdPitch) = axis(reach.up, reach.down, noise: restSpread.pitch)
        }
        return (z, missing)
    }
}
