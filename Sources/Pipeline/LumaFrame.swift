/// One 8-bit luma (Y) picture: what every source delivers and the vision core reads.
///
/// Rows are `stride` bytes apart (`stride >= width`); pixels are row-major, top row first.
/// `index` counts frames from 0 in the source; `time` is seconds from the source's first frame
/// (for recordings, derived from the header's frame rate, so replays are exact).
public struct LumaFrame: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public var index: Int
    public var time: Double
    public private(set) var pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int? = nil, index: Int = 0, time: Double = 0, pixels: [UInt8]) {
        let stride = stride ?? width
        precondition(width > 0 && height > 0 && stride >= width, "a frame needs a positive size and stride >= width")
        precondition(pixels.count >= stride * (height - 1) + width, "pixel buffer too small for the frame")
        self.width = width
        self.height = height
        self.stride = stride
        self.index = index
        self.time = time
        self.pixels = pixels
    }

    /// A black frame, handy as a reusable buffer.
    public init(width: Int, height: Int, index: Int = 0, time: Double = 0) {
        self.init(width: width, height: height, stride: width, index: index, time: time,
                  pixels: [UInt8](repeating: 0, count: width * height))
    }

    @inlinable public subscript(x: Int, y: Int) -> UInt8 {
        pixels[y * stride + x]
    }

    /// Overwrites the pixels in place (no reallocation when the size matches), for sources that reuse one frame.
    public mutating func withMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBufferPointer { try body($0) }
    }
}
