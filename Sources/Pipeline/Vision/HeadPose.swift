import Foundation

/// Where a head points, separated from where it is: rotation in degrees, plus a pointer in pixels.
public struct HeadPose: Sendable, Equatable {
    /// Degrees; positive when the person turns toward their own right.
    public var yaw: Double
    /// Degrees; positive when the person looks up.
    public var pitch: Double
    /// The head pointer: centre of the circle through both eye centres and the base of the nose, in image pixels.
    public var pointer: Point2
}

/// Turns five landmarks into a head pose that a sideways lean or a step closer does not change.
///
/// Signals (see docs/vision.md): the nose's offset from the eye midpoint, measured along and across the
/// eye line (so roll does not matter) and divided by the eye distance (so distance does not matter).
/// A small geometric head model turns the two ratios into angles; the viewing angle of the face, from
/// the focal length, is removed so a head off to one side of the picture is not read as turned.
public struct HeadPoseEstimator: Sendable {
    /// How far the base of the nose stands in front of the eye corners, in eye distances (about 0.5 for adults).
    public static let noseDepth = 0.50
    /// How far the base of the nose sits below the eye line, in eye distances, for a level head (~0.6).
    public static let noseDrop = 0.60

    public var imageWidth: Int
    public var imageHeight: Int
    /// Focal length in pixels; a typical webcam is about 0.8 x the larger image side.
    public var focalLength: Double
    /// True when the camera delivers a mirrored picture (like a selfie preview): swaps left and right.
    public var mirrored: Bool

    public init(imageWidth: Int, imageHeight: Int, focalLength: Double, mirrored: Bool) {
        self.imageWidth = imageWidth; self.imageHeight = imageHeight; self.focalLength = focalLength; self.mirrored = mirrored
    }

    /// The ratios before any angle model: nose offset along / across the eye line, in eye distances.
    public static func ratios(_ l: FaceLandmarks) -> (along: Double, across: Double) {
        let a = l.imageLeftEye, b = l.imageRightEye
        let eye = b - a
        let d = eye.length
        guard d > 0 else { return (0, 0) }
        let u = eye * (1 / d), n = Point2(x: -u.y, y: u.x)  // n points down the face for an upright head
        let v = l.nose - (a + b) * 0.5
        return (v.dot(u) / d, v.dot(n) / d)
    }

    public func pose(_ l: FaceLandmarks) -> HeadPose {
        let (along, across) = Self.ratios(l)
        let depth = Self.noseDepth, drop = Self.noseDrop
        // Turning by y moves the nose base sideways by depth*sin(y) while the eye line shortens by cos(y).
        let apparentYaw = atan(along / depth)
        // Pitching by p: drop*cos(p) + depth*sin(p), stretched by 1/cos(yaw) since the eye line shortened.
        let r = (drop * drop + depth * depth).squareRoot(), phase = atan2(drop, depth)
        let level = max(-1, min(1, across * cos(apparentYaw) / r))
        let apparentPitchDown = asin(level) - phase
        // Seen off-axis, a head facing the camera's axis looks turned toward the picture's edge by the viewing angle.
        let centre = (l.imageLeftEye + l.imageRightEye) * 0.5
        let viewX = atan((centre.x - Double(imageWidth) / 2) / focalLength)
        let viewY = atan((centre.y - Double(imageHeight) / 2) / focalLength)
        let imageYaw = apparentYaw - viewX          // nose toward the image's right
        let pitchDown = apparentPitchDown - viewY   // nose toward the image's bottom
        // Facing the camera, a person's own right is the image's left unless the picture is mirrored.
        let degrees = 180 / Double.pi
        return HeadPose(yaw: (mirrored ? imageYaw : -imageYaw) * degrees, pitch: -pitchDown * degrees,
                        pointer: Self.circumcentre(l.imageLeftEye, l.imageRightEye, l.nose))
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
