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

    /// A direction reached less than this (degrees) was not shown: that axis keeps its current values.
    /// The zones themselves follow the guided fit's rule (`GestureFit.zone`), without a talking margin.
    static let minimumReach = GestureFit.minimumReach

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
            let z = GestureFit.zone(reach: min(a, b), noise: noise, talk: nil)
            return (z.idle, z.threshold)
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
