/// Anything that delivers a sequence of luma frames: a recording, a still, later the camera.
///
/// Sources fill a frame the caller owns, so a steady loop allocates nothing:
///
///     var source = try Y4MReader(path: "clip.y4m")
///     var frame = source.makeFrame()
///     while try source.next(into: &frame) { process(frame) }
public protocol FrameSource {
    /// Picture width in pixels (> 0).
    var width: Int { get }
    /// Picture height in pixels (> 0).
    var height: Int { get }
    /// Frames per second (> 0, finite); frame `i` is at `time = i / frameRate` seconds.
    var frameRate: Double { get }
    /// Where the frames come from (the file path), for messages.
    var name: String { get }

    /// Fills `frame` with the next picture and sets its `index` (from 0) and `time`.
    ///
    /// Reuses the frame's pixel buffer when it already has this source's width and height (any stride
    /// `>= width` is honoured); otherwise replaces it with a right-sized one (the only allocation).
    /// Returns `false` at a clean end of the stream; after that, or after an error, it keeps returning `false`.
    mutating func next(into frame: inout LumaFrame) throws(FrameSourceError) -> Bool
}

extension FrameSource {
    /// A black frame of this source's size, to pass to `next(into:)`.
    public mutating func makeFrame() -> LumaFrame {
        LumaFrame(width: width, height: height)
    }
}

/// Size limits every reader enforces before allocating anything from a header value.
public enum FrameLimits {
    /// Largest accepted width or height.
    public static let maxSide = 16_384
    /// Largest accepted width × height (64 Mpx).
    public static let maxPixels = 64 * 1024 * 1024

    /// True when `width` × `height` is a picture size the readers accept.
    public static func accepts(width: Int, height: Int) -> Bool {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else { return false }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && product <= maxPixels
    }
}

/// Yields one still picture (e.g. from `PGMReader`) as a one-frame source at 1 frame per second.
public struct StillSource: FrameSource, Sendable {
    public let image: LumaFrame
    public let name: String
    public var width: Int { image.width }
    public var height: Int { image.height }
    public var frameRate: Double { 1 }
    private var delivered = false

    public init(image: LumaFrame, name: String) {
        self.image = image
        self.name = name
    }

    /// Loads a PGM still (see `PGMReader`).
    public init(pgmPath path: String) throws(FrameSourceError) {
        self.init(image: try PGMReader.read(path: path), name: path)
    }

    public mutating func next(into frame: inout LumaFrame) throws(FrameSourceError) -> Bool {
        if delivered { return false }
        delivered = true
        if frame.width != image.width || frame.height != image.height {
            frame = LumaFrame(width: image.width, height: image.height)
        }
        let src = image
        let dstStride = frame.stride
        frame.withMutablePixels { dst in
            src.pixels.withUnsafeBufferPointer { s in
                guard let s0 = s.baseAddress, let d0 = dst.baseAddress else { return }
                for y in 0..<src.height {
                    (d0 + y * dstStride).update(from: s0 + y * src.stride, count: src.width)
                }
            }
        }
        frame.index = 0
        frame.time = 0
        return true
    }
}
