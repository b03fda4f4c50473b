/// A camera pixel format: its DRM fourcc code (what libcamera uses) and, for the formats Nodwire can read,
/// where the luma is in memory.
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    public let fourcc: UInt32

    public init(fourcc: UInt32) { self.fourcc = fourcc }

    /// From the four-character code, e.g. "YU12" (missing characters are spaces, as in "R8  ").
    public init(code: String) {
        var value: UInt32 = 0
        for (i, byte) in Array(code.utf8.prefix(4)).enumerated() { value |= UInt32(byte) << (8 * UInt32(i)) }
        for i in min(code.utf8.count, 4)..<4 { value |= 0x20 << (8 * UInt32(i)) }
        self.fourcc = value
    }

    /// The four characters, e.g. "YU12" (non-printable bytes as "?").
    public var code: String {
        String(decoding: (0..<4).map { i -> UInt8 in
            let b = UInt8(truncatingIfNeeded: fourcc >> (8 * UInt32(i)))
            return (0x20...0x7E).contains(b) ? b : 0x3F
        }, as: UTF8.self)
    }

    /// libcamera's name when Nodwire knows the format ("YUV420"), else the code.
    public var description: String { Self.known[self]?.name ?? code }

    /// Where the luma is, or nil when Nodwire cannot read this format.
    public var lumaLayout: LumaLayout? { Self.known[self]?.layout }

    public static let yuv420 = PixelFormat(code: "YU12")
    public static let nv12 = PixelFormat(code: "NV12")

    /// Asked for first, in this order: they carry a full-resolution Y plane, so luma is a plain copy.
    public static let preferred: [PixelFormat] = [.yuv420, .nv12]

    /// The formats Nodwire reads, by libcamera name (DRM fourcc memory order: "RGB888" is B, G, R in memory).
    static let known: [PixelFormat: (name: String, layout: LumaLayout)] = {
        var table: [PixelFormat: (name: String, layout: LumaLayout)] = [:]
        func add(_ code: String, _ name: String, _ layout: LumaLayout) { table[PixelFormat(code: code)] = (name, layout) }
        // Planar and semi-planar YUV, and grey: plane 0 is the Y plane.
        for (code, name) in [("YU12", "YUV420"), ("YV12", "YVU420"), ("NV12", "NV12"), ("NV21", "NV21"),
                             ("NV16", "NV16"), ("NV61", "NV61"), ("NV24", "NV24"), ("NV42", "NV42"),
                             ("YU16", "YUV422"), ("YV16", "YVU422"), ("YU24", "YUV444"), ("R8  ", "R8")] {
            add(code, name, .plane)
        }
        // Packed 4:2:2: Y every other byte.
        add("YUYV", "YUYV", .packed(lumaOffset: 0, step: 2))
        add("YVYU", "YVYU", .packed(lumaOffset: 0, step: 2))
        add("UYVY", "UYVY", .packed(lumaOffset: 1, step: 2))
        add("VYUY", "VYUY", .packed(lumaOffset: 1, step: 2))
        // RGB: byte positions of red, green and blue in a pixel.
        add("RG24", "RGB888", .rgb(bytesPerPixel: 3, red: 2, green: 1, blue: 0))
        add("BG24", "BGR888", .rgb(bytesPerPixel: 3, red: 0, green: 1, blue: 2))
        add("XR24", "XRGB8888", .rgb(bytesPerPixel: 4, red: 2, green: 1, blue: 0))
        add("AR24", "ARGB8888", .rgb(bytesPerPixel: 4, red: 2, green: 1, blue: 0))
        add("XB24", "XBGR8888", .rgb(bytesPerPixel: 4, red: 0, green: 1, blue: 2))
        add("AB24", "ABGR8888", .rgb(bytesPerPixel: 4, red: 0, green: 1, blue: 2))
        add("RX24", "RGBX8888", .rgb(bytesPerPixel: 4, red: 3, green: 2, blue: 1))
        add("RA24", "RGBA8888", .rgb(bytesPerPixel: 4, red: 3, green: 2, blue: 1))
        add("BX24", "BGRX8888", .rgb(bytesPerPixel: 4, red: 1, green: 2, blue: 3))
        add("BA24", "BGRA8888", .rgb(bytesPerPixel: 4, red: 1, green: 2, blue: 3))
        return table
    }()

    /// Names of every format Nodwire reads, for messages.
    public static var readable: [String] { known.values.map(\.name).sorted() }
}

/// Where the luma of a camera picture is in plane 0.
public enum LumaLayout: Sendable, Equatable {
    /// One byte of luma per pixel (a Y plane, or grey).
    case plane
    /// Luma every `step` bytes, the first at `lumaOffset` (packed YUV 4:2:2).
    case packed(lumaOffset: Int, step: Int)
    /// Interleaved RGB: luma is computed (BT.601 weights, full range).
    case rgb(bytesPerPixel: Int, red: Int, green: Int, blue: Int)

    public var bytesPerPixel: Int {
        switch self {
        case .plane: return 1
        case let .packed(_, step): return step
        case let .rgb(bpp, _, _, _): return bpp
        }
    }

    /// Bytes of plane 0 a `width` x `height` picture with rows `stride` apart occupies.
    public func bytesNeeded(width: Int, height: Int, stride: Int) -> Int {
        stride * (height - 1) + width * bytesPerPixel
    }
}

/// Turns one camera picture into a `LumaFrame`: a copy for Y planes, a per-pixel pick or weighted sum for
/// packed formats, with the flips the camera could not do itself applied on the way.
public enum LumaConverter {
    /// BT.601 luma of 8-bit R, G, B in integer arithmetic (weights 77/150/29 out of 256, rounded).
    @inlinable public static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (77 * Int(red) + 150 * Int(green) + 29 * Int(blue) + 128) >> 8)
    }

    /// Fills `frame` (replaced by a right-sized one if its size differs) from `source`, rows `stride` bytes
    /// apart in `layout`. Returns false, leaving the frame alone, when `source` is too small for the picture
    /// or the stride is shorter than a row.
    @discardableResult
    public static func fill(_ frame: inout LumaFrame, from source: UnsafeRawBufferPointer, width: Int, height: Int,
                            stride: Int, layout: LumaLayout, flips: Flips = .none) -> Bool {
        guard width > 0, height > 0, stride >= width * layout.bytesPerPixel,
              source.count >= layout.bytesNeeded(width: width, height: height, stride: stride),
              let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        if frame.width != width || frame.height != height { frame = LumaFrame(width: width, height: height) }
        let dstStride = frame.stride
        frame.withMutablePixels { pixels in
            guard let d0 = pixels.baseAddress else { return }
            for y in 0..<height {
                let srcRow = base + (flips.vertical ? height - 1 - y : y) * stride
                let dst = d0 + y * dstStride
                switch layout {
                case .plane:
                    if flips.horizontal {
                        for x in 0..<width { dst[x] = srcRow[width - 1 - x] }
                    } else {
                        dst.update(from: srcRow, count: width)
                    }
                case let .packed(offset, step):
                    var s = srcRow + offset + (flips.horizontal ? (width - 1) * step : 0)
                    let delta = flips.horizontal ? -step : step
                    for x in 0..<width { dst[x] = s.pointee; s += delta }
                case let .rgb(bpp, r, g, b):
                    var s = srcRow + (flips.horizontal ? (width - 1) * bpp : 0)
                    let delta = flips.horizontal ? -bpp : bpp
                    for x in 0..<width {
                        dst[x] = luma(red: s[r], green: s[g], blue: s[b])
                        s += delta
                    }
                }
            }
        }
        return true
    }
}
