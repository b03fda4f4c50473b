/// Settings of the face detector and tracker. Each default works for an adult 0.4-1.5 m from a VGA camera.
public struct VisionSettings: Sendable, Equatable {
    /// Path of dlib's 5-point landmark model (`shape_predictor_5_face_landmarks.dat`, CC0).
    /// Default: `Models/` beside the working directory, where scripts/fetch-model.sh puts it.
    public var modelPath = "Models/shape_predictor_5_face_landmarks.dat"
    /// Smallest face to search for, in pixels of box width in a VGA picture. dlib's window is 80 px; smaller
    /// faces need an enlarged search (slower to find, same cost once tracked). 80 px at VGA is about 1 m away;
    /// 60 px ~1.4 m. A smaller picture shows the same person smaller, so there it means the same share of the
    /// picture (`smallestFace`).
    public var minFaceSize = 60.0
    /// Detector work a frame may take while searching for a face, in pixels scanned summed over the image
    /// pyramid: the search is cut into slices of at most this and one slice runs a frame. 150000 (a 320x240
    /// picture's pyramid is ~230000) costs about 5 ms on an x86-64 core, expect 3-4x that on a Pi 4.
    public var searchSlicePixels = 150_000
    /// Seconds between re-checks of a tracked face by the detector (near the face, on a small image).
    public var recheckInterval = 0.5
    /// Consecutive failed re-checks before the face counts as lost. A turned head can fail one or two.
    public var missedRechecksBeforeLost = 3
    /// Focal length as a multiple of the larger image side (a typical webcam: 0.8; wide-angle lenses less).
    public var focalLengthFactor = 0.8
    /// Spread (standard deviation, grey levels) of the face's pixels below which the landmark fit stretches
    /// them to it: dlib's model splits on raw pixel differences and slides on a dim or flatly lit face. 0: off.
    /// Faces measure 19-26 in the real clips, 23-70 in the stills and rendered faces; dimmed to 30%, 6-10.
    /// 20 stretches only faces dimmer than any of those (docs/vision.md "Contrast"): the real clips dimmed
    /// to 0.5, 0.3 and 0.2 keep their looks. 40 also fitted faces of 25-33 better when turned (the worst
    /// false pitch at 30° of yaw on one rendered face fell from 11.3° to 2.9°), but gave a false nod on the
    /// real ht_sway dimmed to 0.3, where its quantised grey levels were stretched fourfold.
    public var contrastFloor = 20.0
    /// The camera delivers a mirrored picture (a selfie view). Left and right in events are the person's own.
    public var mirrored = false

    public init() {}

    /// The larger side of the picture `minFaceSize` is given for: VGA, the camera's own mode.
    public static let referenceSide = 640.0
    /// No smaller than this is looked for in any picture (the config's least `min_face_size`): five landmarks
    /// on a face under ~30 px are a few pixels apart.
    public static let smallestFaceAnywhere = 30.0

    /// The smallest face the device's own camera (VGA, `referenceSide`) would look for, as the same share of a
    /// `width` x `height` picture's larger side: 180 px at 1920x1080. A bigger picture searches for smaller faces
    /// too (`smallestFace`), but these sizes come first (`SearchPlan.visitingOrder`).
    public func cameraShareFace(width: Int, height: Int) -> Double {
        minFaceSize * Double(max(width, height)) / Self.referenceSide
    }

    /// Smallest face to search for in a `width` x `height` picture, pixels. At VGA and above, `minFaceSize`
    /// itself (a bigger picture searches further away at the same setting, within the search budget). Below
    /// VGA, the same share of the picture's larger side, down to `smallestFaceAnywhere`: a 320x240 recording
    /// of a person 1.4 m away shows a face 30 px wide, which 60 px would never look for (docs/vision.md
    /// "A smaller picture").
    public func smallestFace(width: Int, height: Int) -> Double {
        let side = Double(max(width, height))
        guard side < Self.referenceSide else { return minFaceSize }
        return min(minFaceSize, max(Self.smallestFaceAnywhere, cameraShareFace(width: width, height: height)))
    }
}
