import Foundation

/// A head pose as the gesture engine needs it: rotation in degrees, the head pointer and the face size in
/// pixels (so it can tell a turn from a body moving about).
public struct HeadPose: Sendable, Equatable {
    /// Degrees; positive when the person turns toward their own right.
    public var yaw: Double
    /// Degrees; positive when the person looks up.
    public var pitch: Double
    /// The head pointer in image pixels (passed through to `move` events, and used to see the body move).
    public var pointerX: Double
    public var pointerY: Double
    /// Width of the face in pixels: translations are judged in face widths, whatever the distance.
    public var faceSize: Double
    /// Yaw and pitch relative to the line of sight, before the viewing angle is taken off (by default the same
    /// as `yaw` and `pitch`): a nod or shake must show in these too, not only in where the face is in the
    /// picture, which a camera rocking on its mount moves.
    public var sightYaw: Double
    public var sightPitch: Double
    /// The yaw of a face looking into the lens from where this one is (`yaw` less `sightYaw`), degrees.
    var viewingAngle: Double { yaw - sightYaw }
    /// Where the eyes are in the picture (their midpoint, pixels), measured toward the person's own right and
    /// upward (the directions of `yaw` and `pitch`), when known. A head turns and nods about the neck, behind
    /// the eyes, so it carries them the way it turns; a face that only changes shape (a nose wrinkled, a mouth
    /// opening) moves the landmarks the pose is read from, but not the eyes, and a camera rocking on its mount
    /// moves them the other way. Unknown (nil): nods and shakes are not judged on it.
    public var eyesRight: Double?
    public var eyesUp: Double?
    /// How far the outer eye corners sit below the inner ones, in eye distances, when known (`nil`: nods are not
    /// judged on it). It grows as the head tips up, the outer corners lying further back, whatever the nose and
    /// lips do; `pitch` is read from the base of the nose, which a lip raised while talking moves too.
    public var cornerDrop: Double?

    public init(yaw: Double, pitch: Double, pointerX: Double = 0, pointerY: Double = 0, faceSize: Double = 100,
                sightYaw: Double? = nil, sightPitch: Double? = nil, eyesRight: Double? = nil, eyesUp: Double? = nil, cornerDrop: Double? = nil) {
        self.yaw = yaw; self.pitch = pitch; self.pointerX = pointerX; self.pointerY = pointerY; self.faceSize = faceSize
        self.sightYaw = sightYaw ?? yaw; self.sightPitch = sightPitch ?? pitch
        self.eyesRight = eyesRight; self.eyesUp = eyesUp; self.cornerDrop = cornerDrop
    }
}

/// How far the head moved in the picture that its own turn does not explain: the body moving, not the head
/// turning. A head turns sideways about its neck, whose axis lies behind the eyes, so a head turned 40° has
/// carried its face sideways as well (0.55 face widths on the rendered heads), which read as a body moving
/// (`posture.max_translation` 0.5): wide looks were dropped (turning while talking: the 35-40° turns) and slow
/// wide shakes (±30° at 0.5 Hz: none found on the four rendered faces). docs/gestures.md "A wide turn is not a
/// body moving".
enum BodyTravel {
    /// Face widths a sideways turn carries the face, per unit sine of the yaw: the pointer against the sine
    /// of the read yaw gave 0.57-1.03 on the four rendered dev sweeps and 0.26 on the real clm_look. A middle
    /// figure: a body leaning sideways still travels its whole way, less only what the pose's own yaw explains.
    static let neckCarry = 0.6

    /// The travel (`dx`, `dy` in pixels, for a face `faceSize` pixels wide) less, sideways, what a turn by
    /// `yaw` degrees explains (its sign left out, so a mirrored camera needs nothing). Up and down stays whole:
    /// no look up or down was dropped as a body moving in any set; a half-hidden face whose fit slips reads a
    /// jump of −28° of pitch with its pointer jumping down (two false looks when pitch excused it); and a nod's
    /// travel excused by its pitch found 2 more slow wide nods (corners) but gave a false nod on a face
    /// changing shape (`degrade.py expression`).
    static func faceWidths(dx: Double, dy: Double, faceSize: Double, turnedBy yaw: Double) -> Double {
        let size = max(1, faceSize)
        let across = max(0, abs(dx) / size - neckCarry * abs(sin(yaw * .pi / 180))), down = dy / size
        return (across * across + down * down).squareRoot()
    }
}

/// One frame's worth of input: when, and the pose if a face was seen.
public struct HeadSample: Sendable, Equatable {
    public var frame: Int
    /// Seconds, monotonic: the engine never reads a clock.
    public var time: Double
    /// nil when no face was seen in this frame.
    public var pose: HeadPose?
    /// The face is someone else's than the one before it, however soon after it (the tracker took a nearer face
    /// instead of one that stayed put, or the person back in their place instead of whoever it followed
    /// meanwhile, or found a face away from where the last was lost): calibrated afresh, never a face coming back.
    public var newFace: Bool

    public init(frame: Int, time: Double, pose: HeadPose?, newFace: Bool = false) {
        self.frame = frame; self.time = time; self.pose = pose; self.newFace = newFace
    }
}

/// The person's own directions.
public enum Direction: String, Sendable, CaseIterable {
    case left, right, up, down
}

public enum GestureKind: String, Sendable, CaseIterable {
    case faceFound = "face_found", faceLost = "face_lost", calibrated
    case lookStart = "look_start", lookStop = "look_stop", look, nod, shake, move
    /// A swing that settled without being heard as a nod or shake, and why (`GestureEvent.unheard`): for the
    /// person setting Nodwire up, never bound to an output.
    case unheard
}

/// Yaw and pitch in degrees.
public struct Angles: Sendable, Equatable {
    public var yaw: Double
    public var pitch: Double
    public init(yaw: Double, pitch: Double) { self.yaw = yaw; self.pitch = pitch }

    /// Both angles within `degrees` of `other`'s: the head held there.
    func within(_ degrees: Double, of other: Angles) -> Bool {
        abs(yaw - other.yaw) <= degrees && abs(pitch - other.pitch) <= degrees
    }

    /// Either angle moved faster than `speed` degrees a second since `earlier`, `seconds` ago.
    func moved(fasterThan speed: Double, since earlier: Angles, seconds: Double) -> Bool {
        abs(yaw - earlier.yaw) / seconds > speed || abs(pitch - earlier.pitch) / seconds > speed
    }

    /// The mean of `poses` (not empty).
    static func mean(_ poses: [Angles]) -> Angles {
        let n = Double(poses.count)
        return Angles(yaw: poses.reduce(0) { $0 + $1.yaw } / n, pitch: poses.reduce(0) { $0 + $1.pitch } / n)
    }
}

/// A value for each direction (the proportional speeds of a `move` event).
public struct DirectionValues: Sendable, Equatable {
    public var left = 0.0, right = 0.0, up = 0.0, down = 0.0
    public init() {}
    public subscript(d: Direction) -> Double {
        get {
            switch d {
            case .left: return left
            case .right: return right
            case .up: return up
            case .down: return down
            }
        }
        set {
            switch d {
            case .left: left = newValue
            case .right: right = newValue
            case .up: up = newValue
            case .down: down = newValue
            }
        }
    }
}

public struct GestureEvent: Sendable, Equatable {
    public var kind: GestureKind
    public var frame: Int
    public var time: Double
    public var direction: Direction?
    /// Degrees beyond neutral along the direction's axis.
    public var distance: Double?
    /// Out-and-back pairs of a nod or shake.
    public var cycles: Int?
    /// calibrated: initial, request, face_lost, recentre. look_stop: returned, face_lost, recentre, direction_change.
    public var reason: String?
    public var neutral: Angles?
    public var offset: Angles?
    public var pointer: (x: Double, y: Double)? {
        get { pointerX.map { ($0, pointerY ?? 0) } }
        set { pointerX = newValue?.x; pointerY = newValue?.y }
    }
    public var pointerX: Double?
    public var pointerY: Double?
    public var proportional: DirectionValues?
    /// An `unheard` event's reason.
    public var unheard: Unheard?

    public init(_ kind: GestureKind, frame: Int, time: Double, direction: Direction? = nil, distance: Double? = nil,
                cycles: Int? = nil, reason: String? = nil, neutral: Angles? = nil) {
        self.kind = kind; self.frame = frame; self.time = time; self.direction = direction; self.distance = distance
        self.cycles = cycles; self.reason = reason; self.neutral = neutral
    }
}
