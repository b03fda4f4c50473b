import Foundation

/// Where a head points, separated from where it is: rotation in degrees, plus a pointer in pixels.
public struct HeadPose: Sendable, Equatable {
    /// Degrees; positive when the person turns toward their own right.
    public var yaw: Double
    /// Degrees; positive when the person looks up.
    public var pitch: Double
    /// The head pointer: centre of the circle through both eye centres and the base of the nose, in image pixels.
    public var pointer: Point2
    /// The same turn and tilt relative to the line of sight from the camera, before the viewing angle is taken
    /// off: what the landmarks themselves show. A camera rocking on its mount moves the picture and so changes
    /// `yaw` and `pitch`, but not these (the face does not turn); a nodding head changes both alike.
    public var sightYaw: Double
    public var sightPitch: Double
    /// Where the eyes are (their midpoint, image pixels), measured toward the person's own right (the image's
    /// left unless the picture is mirrored) and upward: the directions of `yaw` and `pitch`, so a head turning
    /// or nodding about the neck carries its eyes the same way as its angles.
    public var eyesRight: Double
    public var eyesUp: Double
    /// How far the outer eye corners sit below the inner ones, across the eye line, in eye distances. The outer
    /// corners lie further back in the head, so tipping it up lowers them against the inner ones: pitch seen in
    /// the eyes alone, which a lip raised or a nose wrinkled does not move (`pitch` is read from the base of the
    /// nose, just above the lip). Its level differs from face to face; only its changes mean anything.
    public var cornerDrop: Double
}

/// The two measurements the pose comes from: the base of the nose relative to the eye midpoint, along and
/// across the eye line (so roll does not matter), in eye distances (so distance does not matter).
public struct NoseOffset: Sendable, Equatable {
    public var along: Double
    public var across: Double
    public init(along: Double, across: Double) { self.along = along; self.across = across }
}

/// Turns five landmarks into a head pose, relative to the person's own face, that a sideways lean or a step
/// closer does not change.
///
/// **Head model** (docs/vision.md): the eye centres at ±½ eye distance, the base of the nose `drop` below
/// their midpoint and `depth` in front of it. Pitching by θ turns (depth, drop) by θ, so with
/// `a = drop·cosθ + depth·sinθ` and `b = depth·cosθ − drop·sinθ`, a² + b² = drop² + depth² for every pose.
/// Turning by ψ then moves the nose sideways by b·sinψ while the eye line shortens by cosψ, so
/// `along = b·tanψ` and `across = a / cosψ`. Both angles are solved from both measurements together: yaw
/// does not leak into pitch (the across stretch of a turn is removed) and nothing is clamped.
///
/// **Person, not population**: how far a nose sits below the eyes differs from face to face, and a camera
/// below or above the face changes it again. A fixed `drop` saturates (a level head read −40°). So `drop` is
/// learnt from the first frames of each face (`geometrySamples`, the median), and pitch is relative to that
/// rest. Only `depth`, which sets the scale of both angles, is a population figure (`noseDepth`).
public struct HeadPoseEstimator: Sendable {
    /// How far the base of the nose stands in front of the eye-corner midpoints, in eye distances. Fitted to
    /// the sweeps of the rendered faces (0.41, 0.57, 0.59, 0.52: docs/vision.md); a face with a flatter or
    /// longer nose reads both angles up to ~15% small or large, which the gesture thresholds allow for.
    public static let noseDepth = 0.52
    /// How far the base of the nose sits below the eye line for a level head facing the camera, in eye
    /// distances: used only until a face's own is known, and for stills. The rendered faces give 0.63-0.73.
    public static let typicalDrop = 0.66
    /// Frames of a newly found face whose median gives its own `drop` (a third of a second at 25-30 fps).
    public static let geometrySamples = 9
    /// Smallest `b` (the nose's depth after pitching) the model is solved for, as a fraction of `noseDepth`. Near
    /// where the nose base would turn out of sight the model's pitch grows at 1/b a unit of the nose's drop (and
    /// yaw at 1/b a unit of its sideways shift), without limit; the five-point nose base of a real face drops
    /// further than the population's nose (the real clm_look's reached `b` = 0.1 at ~14° down by MediaPipe), so
    /// the model would read a deep nod's bottom as a hold at its reach and amplify its jitter into turns. Past
    /// half the level head's depth (twice a level head's rate), the pitch goes on at a level head's rate (1/depth)
    /// and yaw at that floor: never held, never folded. Rendered faces get there only in ±30° nods (docs/vision.md).
    static let minDepthFraction = 0.5

    public var imageWidth: Int
    public var imageHeight: Int
    /// Focal length in pixels; a typical webcam is about 0.8 x the larger image side.
    public var focalLength: Double
    /// True when the camera delivers a mirrored picture (like a selfie preview): swaps left and right.
    public var mirrored: Bool
    /// This face's own drop and the vertical viewing angle it was learnt at, once known.
    public private(set) var rest: (drop: Double, viewY: Double)?
    private var learning: [Double] = []
    private var learningViewY = 0.0

    public init(imageWidth: Int, imageHeight: Int, focalLength: Double, mirrored: Bool) {
        self.imageWidth = imageWidth; self.imageHeight = imageHeight; self.focalLength = focalLength; self.mirrored = mirrored
        learning.reserveCapacity(Self.geometrySamples)
    }

    /// A new face (or the same after a long absence): learn its geometry again from the next frames.
    public mutating func forgetFace() {
        rest = nil
        learning.removeAll(keepingCapacity: true)
    }

    /// The nose offset before any angle model.
    public static func offset(_ l: FaceLandmarks) -> NoseOffset {
        let a = l.imageLeftEye, b = l.imageRightEye
        let eye = b - a
        let d = eye.length
        guard d > 0 else { return NoseOffset(along: 0, across: 0) }
        let u = eye * (1 / d), n = Point2(x: -u.y, y: u.x)  // n points down the face for an upright head
        let v = l.nose - (a + b) * 0.5
        return NoseOffset(along: v.dot(u) / d, across: v.dot(n) / d)
    }

    /// Solves the head model: image yaw ψ (nose toward the image's right) and pitch θ (down) in radians,
    /// for a face whose level drop is `drop`.
    static func solve(_ o: NoseOffset, drop: Double, depth: Double = noseDepth) -> (yaw: Double, pitchDown: Double) {
        let r2 = drop * drop + depth * depth, floor = minDepthFraction * depth
        let x2 = o.along * o.along, y2 = o.across * o.across
        // With s = sin²ψ, a = across·cosψ and b = along·cosψ/sinψ on the circle a² + b² = r² give
        // y²s² + (r² + x² − y²)s − x² = 0, whose one root in [0, 1] is the turn (the roots' product is −x²/y²).
        var sinSquared = 0.0
        if y2 > 1e-12 {
            let k = r2 + x2 - y2
            sinSquared = min(1, max(0, (-k + (k * k + 4 * y2 * x2).squareRoot()) / (2 * y2)))
        } else {
            sinSquared = x2 / (x2 + r2)   // nose on the eye line: all of r is depth
        }
        var yaw = (o.along < 0 ? -1.0 : 1.0) * asin(sinSquared.squareRoot())
        let a = o.across * cos(yaw)
        let b = (max(0, r2 - a * a)).squareRoot()
        if b < floor {
            // Past the floor (`minDepthFraction`): on at a level head's rate, never held, never folded.
            yaw = atan(o.along / floor)
            let reach = (r2 - floor * floor).squareRoot(), side = o.across < 0 ? -1.0 : 1.0
            let beyond = max(0, abs(o.across * cos(yaw)) - reach)
            return (yaw, side * (atan2(reach, floor) + beyond / depth) - atan2(drop, depth))
        }
        return (yaw, atan2(a, b) - atan2(drop, depth))
    }

    public mutating func pose(_ l: FaceLandmarks) -> HeadPose {
        let o = Self.offset(l)
        let centre = (l.imageLeftEye + l.imageRightEye) * 0.5
        // Seen off-axis, a head facing the camera's axis looks turned toward the picture's edge by the viewing angle.
        let viewX = atan((centre.x - Double(imageWidth) / 2) / focalLength)
        let viewY = atan((centre.y - Double(imageHeight) / 2) / focalLength)
        let geometry = rest ?? learn(o, viewY: viewY)
        let solved = Self.solve(o, drop: geometry.drop)
        let imageYaw = solved.yaw - viewX                            // nose toward the image's right
        let pitchDown = solved.pitchDown - (viewY - geometry.viewY)  // nose toward the image's bottom
        // Facing the camera, a person's own right is the image's left unless the picture is mirrored.
        let degrees = 180 / Double.pi
        func ownRight(_ imageRightward: Double) -> Double { mirrored ? imageRightward : -imageRightward }
        return HeadPose(yaw: ownRight(imageYaw) * degrees, pitch: -pitchDown * degrees,
                        pointer: Self.circumcentre(l.imageLeftEye, l.imageRightEye, l.nose),
                        sightYaw: ownRight(solved.yaw) * degrees, sightPitch: -solved.pitchDown * degrees,
                        eyesRight: ownRight(centre.x), eyesUp: -centre.y, cornerDrop: Self.cornerDrop(l))
    }

    /// One more frame of a new face: its level drop (the across offset with its turn removed), the median
    /// of those seen so far; fixed once `geometrySamples` are in.
    private mutating func learn(_ o: NoseOffset, viewY: Double) -> (drop: Double, viewY: Double) {
        let a = o.across * cos(atan(o.along / Self.noseDepth))   // a turned head's across stretch removed
        if learning.isEmpty { learningViewY = viewY }
        // Kept sorted as it fills (its capacity is reserved), so the median costs no allocation.
        learning.insert(a, at: learning.firstIndex { $0 > a } ?? learning.count)
        let n = learning.count
        let median = n % 2 == 1 ? learning[n / 2] : (learning[n / 2 - 1] + learning[n / 2]) / 2
        let geometry = (drop: max(0.05, median), viewY: learningViewY)
        if learning.count >= Self.geometrySamples { rest = geometry }
        return geometry
    }

    /// `HeadPose.cornerDrop`. Of each eye's two corners the outer is the one further from the other eye.
    static func cornerDrop(_ l: FaceLandmarks) -> Double {
        let a = (l.p0 + l.p1) * 0.5, b = (l.p2 + l.p3) * 0.5
        let (outerA, innerA) = (l.p0 - b).length >= (l.p1 - b).length ? (l.p0, l.p1) : (l.p1, l.p0)
        let (outerB, innerB) = (l.p2 - a).length >= (l.p3 - a).length ? (l.p2, l.p3) : (l.p3, l.p2)
        let eye = l.imageRightEye - l.imageLeftEye, d = eye.length
        guard d > 0 else { return 0 }
        let u = eye * (1 / d), n = Point2(x: -u.y, y: u.x)  // n points down the face for an upright head
        return ((outerA + outerB) * 0.5 - (innerA + innerB) * 0.5).dot(n) / d
    }

    /// A pose from fixed, typical proportions: for a single still, where there is no rest to learn from.
    public static func stillPose(_ l: FaceLandmarks, imageWidth: Int, imageHeight: Int, focalLength: Double, mirrored: Bool) -> HeadPose {
        var e = HeadPoseEstimator(imageWidth: imageWidth, imageHeight: imageHeight, focalLength: focalLength, mirrored: mirrored)
        e.rest = (typicalDrop, 0)
        return e.pose(l)
    }

    /// Centre of the circle through three points; their centroid when they are (nearly) on a line.
    public static func circumcentre(_ a: Point2, _ b: Point2, _ c: Point2) -> Point2 {
        let d = 2 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y))
        let scale = max((b - a).length, (c - a).length)
        guard abs(d) > 1e-6 * scale * scale else { return (a + b + c) * (1.0 / 3) }
        let a2 = a.dot(a), b2 = b.dot(b), c2 = c.dot(c)
        return Point2(x: (a2 * (b.y - c.y) + b2 * (c.y - a.y) + c2 * (a.y - b.y)) / d,
                      y: (a2 * (c.x - b.x) + b2 * (a.x - c.x) + c2 * (b.x - a.x)) / d)
    }
}
