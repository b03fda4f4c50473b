/// Which camera to use and how: the one place for the camera's defaults (VGA, 30 fps, upright, not mirrored:
/// what the vision core is tuned for). The camera may adjust size and rate; `CameraCapture` reports what it got.
public struct CameraSettings: Sendable, Equatable {
    /// Which camera: its number in `nodwire cameras` (`.index(0)` is the first) or its libcamera id.
    public var camera: CameraSelector = .index(0)
    /// Picture size to ask for, pixels. Cameras round it to what they can do (vimc: 636x480 for 640x480).
    public var width = 640
    public var height = 480
    /// Frames per second to ask for, set through libcamera's FrameDurationLimits when the camera offers
    /// that control (Raspberry Pi cameras do, vimc and most USB cameras do not); 0 leaves the camera's default.
    public var fps = 30.0
    /// Degrees to turn the picture: 0, or 180 for a camera mounted upside down. Done by the sensor when it
    /// can flip, otherwise while copying the frame.
    public var rotation = 0
    /// Mirror the picture left-right (after the rotation), for a selfie view.
    public var mirror = false

    public init() {}

    public static let allowedRotations = [0, 180]
    public static let sizeRange = 16...4096
    public static let fpsRange = 0.0...240.0

    /// The flips (left-right, top-bottom) these settings ask for: a 180° turn is both.
    public var flips: Flips {
        rotation == 180 ? Flips(horizontal: !mirror, vertical: true) : Flips(horizontal: mirror, vertical: false)
    }

    /// Refuses settings no camera can meet, naming the setting and what is allowed.
    public func validate() throws(CameraError) {
        func refuse(_ setting: String, _ value: String, _ allowed: String) throws(CameraError) {
            throw .invalidSetting(setting: setting, value: value, allowed: allowed)
        }
        if case let .index(i) = camera, i < 0 { try refuse("camera", "\(i)", "a camera number from 0, or a camera id") }
        if case let .id(id) = camera, id.isEmpty { try refuse("camera", "\"\"", "a camera number from 0, or a camera id") }
        let sizes = "\(Self.sizeRange.lowerBound)...\(Self.sizeRange.upperBound) pixels"
        if !Self.sizeRange.contains(width) { try refuse("width", "\(width)", sizes) }
        if !Self.sizeRange.contains(height) { try refuse("height", "\(height)", sizes) }
        if !fps.isFinite || !Self.fpsRange.contains(fps) {
            try refuse("fps", "\(fps)", "0 (the camera's default) or up to \(Int(Self.fpsRange.upperBound)) frames per second")
        }
        if !Self.allowedRotations.contains(rotation) { try refuse("rotation", "\(rotation)", "0 or 180 degrees") }
    }
}

/// A camera by position in libcamera's list or by id.
public enum CameraSelector: Sendable, Equatable, CustomStringConvertible {
    case index(Int)
    case id(String)

    /// "0", "1"... select by position; anything else is an id ("" stays an invalid id).
    public init(parsing text: String) {
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let i = Int(text) {
            self = .index(i)
        } else {
            self = .id(text)
        }
    }

    public var description: String {
        switch self {
        case let .index(i): return "\(i)"
        case let .id(id): return id
        }
    }
}

/// Left-right and top-bottom flips of a picture. Two flips together are a 180° turn.
public struct Flips: Sendable, Equatable, CustomStringConvertible {
    public var horizontal: Bool
    public var vertical: Bool

    public init(horizontal: Bool = false, vertical: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let none = Flips()

    /// What is still to do after `done` has been applied (flips undo themselves).
    public func remaining(after done: Flips) -> Flips {
        Flips(horizontal: horizontal != done.horizontal, vertical: vertical != done.vertical)
    }

    public var description: String {
        switch (horizontal, vertical) {
        case (false, false): return "none"
        case (true, false): return "mirror"
        case (false, true): return "vertical flip"
        case (true, true): return "180° turn"
        }
    }
}
