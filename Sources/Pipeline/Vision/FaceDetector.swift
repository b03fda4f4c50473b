import CDlibFace

/// One pass of dlib's HOG face detector over part of a frame.
public struct DetectionSlice: Sendable, Equatable {
    /// The region searched, in frame pixels.
    public var x, y, width, height: Int
    /// Resampling before the search: below 1 finds only bigger faces, faster; above 1 finds smaller ones.
    public var scale: Double
    /// Image-pyramid levels (each 5/6 of the last); 0 = all. Bounds the biggest face this slice finds.
    public var levels: Int

    public init(x: Int, y: Int, width: Int, height: Int, scale: Double, levels: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height; self.scale = scale; self.levels = levels
    }
}

/// A face found by the detector, in frame pixels; `score` is the detector's confidence (0 is its threshold).
public struct Detection: Sendable, Equatable {
    public var box: FaceBox
    public var score: Double
}

/// dlib's frontal HOG face detector (no model file: its weights are built into dlib).
public final class FaceDetector {
    private let raw: OpaquePointer
    private var found = [nw_box](repeating: nw_box(), count: 16)

    /// The smallest face, in pixels at scale 1, the detector's 80x80 window finds.
    public static let windowSize = 80.0
    /// Each pyramid level shrinks the image by this factor, so a slice with `levels` finds faces up to
    /// `windowSize / scale * pyramidStep^(levels-1)`.
    public static let pyramidStep = 6.0 / 5.0
    /// How far off its window's size a face may be and still be found (its boxes come ~10% either side).
    public static let sizeSlack = 1.1

    public init() throws(VisionError) {
        guard let d = nw_detector_create() else { throw .detectorUnavailable }
        raw = d
    }

    deinit { nw_detector_destroy(raw) }

    /// Faces in one slice, best first. The slice is clipped to the frame.
    public func detect(in frame: LumaFrame, slice: DetectionSlice) -> [Detection] {
        let x = max(0, min(slice.x, frame.width - 1)), y = max(0, min(slice.y, frame.height - 1))
        let w = min(slice.width - (x - slice.x), frame.width - x), h = min(slice.height - (y - slice.y), frame.height - y)
        guard w > 8, h > 8 else { return [] }
        let count = frame.pixels.withUnsafeBufferPointer { px in
            found.withUnsafeMutableBufferPointer { out in
                nw_detect(raw, px.baseAddress, Int32(frame.width), Int32(frame.height), Int32(frame.stride),
                          Int32(x), Int32(y), Int32(w), Int32(h), Float(slice.scale), Int32(slice.levels),
                          out.baseAddress, Int32(out.count))
            }
        }
        guard count > 0 else { return [] }
        return found[0..<Int(count)].map {
            Detection(box: FaceBox(left: Double($0.left), top: Double($0.top), right: Double($0.right), bottom: Double($0.bottom)),
                      score: Double($0.score))
        }
    }
}
