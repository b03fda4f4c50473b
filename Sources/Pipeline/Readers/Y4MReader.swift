/// Streams the luma plane of a YUV4MPEG2 (.y4m) recording, one frame at a time.
///
/// Header: `YUV4MPEG2` and space-separated tags `W<width> H<height> F<num>:<den> I<interlace> A<aspect>
/// C<colour space> X<anything>`, ended by a line end. W, H and F are required. Each frame is `FRAME`
/// (plus optional parameters) and a line end, then the Y plane (width × height bytes), then the chroma
/// planes, which are skipped. Files are read in a streaming way (never loaded whole).
public struct Y4MReader: FrameSource, Sendable {
    /// Colour spaces (the `C` tag) accepted, 8-bit only. No `C` tag means `C420`.
    public static let supportedColourSpaces = ["Cmono", "C420jpeg", "C420paldv", "C420mpeg2", "C420", "C422", "C444"]
    /// Longest accepted stream header line.
    public static let maxHeaderBytes = 4096
    /// Longest accepted FRAME line (marker plus parameters).
    public static let maxFrameLineBytes = 1024

    public let width: Int
    public let height: Int
    /// Frames per second: `frameRateNumerator / frameRateDenominator`.
    public let frameRate: Double
    public let frameRateNumerator: Int
    public let frameRateDenominator: Int
    /// The `C` tag as written (`C420` when absent), e.g. "Cmono".
    public let colourSpace: String
    /// The `I` tag value (e.g. "p"), or "" when absent. Not interpreted.
    public let interlacing: String
    public let name: String
    /// Bytes of chroma following each luma plane (0 for Cmono).
    public let chromaBytesPerFrame: Int

    private static let frameMarker: [UInt8] = Array("FRAME".utf8)

    private var stream: ByteStream
    private var nextIndex = 0
    private var finished = false

    /// Opens a recording for streaming. Reads and checks the header now.
    public init(path: String) throws(FrameSourceError) {
        try self.init(stream: try ByteStream(path: path))
    }

    /// Reads a recording held in memory (for tests and fuzzing). `name` is used in messages.
    public init(bytes: [UInt8], name: String) throws(FrameSourceError) {
        try self.init(stream: ByteStream(bytes: bytes, name: name))
    }

    private init(stream: ByteStream) throws(FrameSourceError) {
        var stream = stream
        let name = stream.name
        let signature = Array("YUV4MPEG2".utf8)
        var line: [UInt8] = []
        line.reserveCapacity(128)
        // Signature, then the rest of the header line.
        while true {
            guard let b = try stream.readByte() else {
                if line.count < signature.count { throw .notY4M(path: name) }
                throw .badHeader(path: name, detail: "the file ends inside the header line (no line end after \"\(printable(line))\")")
            }
            if line.count < signature.count {
                guard b == signature[line.count] else { throw .notY4M(path: name) }
            } else if line.count == signature.count, b != 0x20, b != 0x0A {
                throw .badHeader(path: name, detail: "YUV4MPEG2 must be followed by a space or a line end, found \"\(printable([b]))\"")
            }
            if b == 0x0A { break }
            line.append(b)
            if line.count > Self.maxHeaderBytes {
                throw .badHeader(path: name, detail: "the header line is longer than \(Self.maxHeaderBytes) bytes (no line end found)")
            }
        }

        var width: Int?
        var height: Int?
        var rate: (Int, Int)?
        var colour = "C420"
        var interlacing = ""
        for token in line[signature.count...].split(separator: 0x20, omittingEmptySubsequences: true) {
            guard let tag = token.first else { continue }
            let value = token.dropFirst()
            switch tag {
            case UInt8(ascii: "W"):
                guard let w = parseSize(value) else {
                    throw .badHeader(path: name, detail: "width tag \"\(printable(token))\" must be W followed by a whole number, e.g. W640")
                }
                width = w
            case UInt8(ascii: "H"):
                guard let h = parseSize(value) else {
                    throw .badHeader(path: name, detail: "height tag \"\(printable(token))\" must be H followed by a whole number, e.g. H480")
                }
                height = h
            case UInt8(ascii: "F"):
                let parts = value.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 2,
                      let num = parseDecimal(parts[0], limit: Int(Int32.max)),
                      let den = parseDecimal(parts[1], limit: Int(Int32.max)) else {
                    throw .badHeader(path: name, detail: "frame rate tag \"\(printable(token))\" must be F<numerator>:<denominator> "
                        + "with whole numbers up to \(Int32.max), e.g. F25:1 or F30000:1001")
                }
                guard num > 0, den > 0 else {
                    throw .badHeader(path: name, detail: "frame rate \(num):\(den) is not allowed; both numbers must be positive, e.g. F25:1 or F30000:1001")
                }
                rate = (num, den)
            case UInt8(ascii: "C"):
                colour = String(decoding: token, as: UTF8.self)
            case UInt8(ascii: "I"):
                interlacing = String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "A"), UInt8(ascii: "X"):
                break
            default:
                throw .badHeader(path: name, detail: "unknown tag \"\(printable(token))\"; allowed tags start with W, H, F, I, A, C or X")
            }
        }
        guard let width else { throw .badHeader(path: name, detail: "there is no width tag (W, e.g. W640)") }
        guard let height else { throw .badHeader(path: name, detail: "there is no height tag (H, e.g. H480)") }
        guard let rate else {
            throw .badHeader(path: name, detail: "there is no frame rate tag (F, e.g. F25:1 or F30000:1001); frame times depend on it")
        }
        guard FrameLimits.accepts(width: width, height: height) else {
            throw .unsupportedSize(path: name, width: width, height: height, maxSide: FrameLimits.maxSide, maxPixels: FrameLimits.maxPixels)
        }
        let chromaW = (width + 1) / 2, chromaH = (height + 1) / 2
        let chroma: Int
        switch colour {
        case "Cmono": chroma = 0
        case "C420jpeg", "C420paldv", "C420mpeg2", "C420": chroma = 2 * chromaW * chromaH
        case "C422": chroma = 2 * chromaW * height
        case "C444": chroma = 2 * width * height
        default:
            throw .unsupportedColourSpace(path: name, found: colour, allowed: Self.supportedColourSpaces)
        }

        self.width = width
        self.height = height
        self.frameRateNumerator = rate.0
        self.frameRateDenominator = rate.1
        self.frameRate = Double(rate.0) / Double(rate.1)
        self.colourSpace = colour
        self.interlacing = interlacing
        self.name = name
        self.chromaBytesPerFrame = chroma
        self.stream = stream
    }

    /// Bytes of picture per frame (luma plus chroma), excluding the FRAME line.
    public var bytesPerFrame: Int { width * height + chromaBytesPerFrame }

    /// Time in seconds of frame `index`, exact for rational rates like 30000:1001.
    public func time(ofFrame index: Int) -> Double {
        Double(index) * Double(frameRateDenominator) / Double(frameRateNumerator)
    }

    public mutating func next(into frame: inout LumaFrame) throws(FrameSourceError) -> Bool {
        if finished { return false }
        do throws(FrameSourceError) {
            guard try readFrameLine() else {
                finished = true
                return false
            }
            let index = nextIndex
            let picture = bytesPerFrame
            // In memory we know what is left: report truncation before allocating anything.
            if let left = stream.remainingIfKnown, left < picture {
                throw FrameSourceError.truncatedFrame(path: name, frame: index, expectedBytes: picture, gotBytes: max(0, left))
            }
            if frame.width != width || frame.height != height {
                frame = LumaFrame(width: width, height: height)
            }
            let got = try readLuma(into: &frame)
            if got < width * height {
                throw FrameSourceError.truncatedFrame(path: name, frame: index, expectedBytes: picture, gotBytes: got)
            }
            let skipped = try stream.skip(chromaBytesPerFrame)
            if skipped < chromaBytesPerFrame {
                throw FrameSourceError.truncatedFrame(path: name, frame: index, expectedBytes: picture, gotBytes: got + skipped)
            }
            frame.index = index
            frame.time = time(ofFrame: index)
            nextIndex += 1
            return true
        } catch {
            finished = true
            throw error
        }
    }

    /// Reads `FRAME[ params]\n`. Returns false on a clean end of file (no byte at all).
    private mutating func readFrameLine() throws(FrameSourceError) -> Bool {
        let marker = Self.frameMarker
        for i in 0..<marker.count {
            guard let b = try stream.readByte() else {
                if i == 0 { return false }
                throw .truncatedFrame(path: name, frame: nextIndex, expectedBytes: bytesPerFrame, gotBytes: 0)
            }
            if b != marker[i] {
                throw .badFrameMarker(path: name, frame: nextIndex, found: try foundText(Array(marker[..<i]) + [b]))
            }
        }
        guard let b = try stream.readByte() else {
            throw .truncatedFrame(path: name, frame: nextIndex, expectedBytes: bytesPerFrame, gotBytes: 0)
        }
        if b == 0x0A { return true }
        guard b == 0x20 else { throw .badFrameMarker(path: name, frame: nextIndex, found: try foundText(marker + [b])) }
        // Frame parameters: ignored, up to the line end.
        var length = marker.count + 1
        while true {
            guard let p = try stream.readByte() else {
                throw .truncatedFrame(path: name, frame: nextIndex, expectedBytes: bytesPerFrame, gotBytes: 0)
            }
            if p == 0x0A { return true }
            length += 1
            if length > Self.maxFrameLineBytes {
                throw .badFrameMarker(path: name, frame: nextIndex,
                                      found: "a FRAME line longer than \(Self.maxFrameLineBytes) bytes without a line end")
            }
        }
    }

    /// Error path only: what was read so far plus a few following bytes, printable.
    private mutating func foundText(_ prefix: [UInt8]) throws(FrameSourceError) -> String {
        var bytes = prefix
        while bytes.count < 16, let b = try stream.readByte() { bytes.append(b) }
        return printable(bytes)
    }

    /// Reads the Y plane into the frame (honouring its stride); returns the bytes read.
    private mutating func readLuma(into frame: inout LumaFrame) throws(FrameSourceError) -> Int {
        let width = self.width, height = self.height, stride = frame.stride
        var result: Result<Int, FrameSourceError> = .success(0)
        frame.withMutablePixels { pixels in
            let raw = UnsafeMutableRawBufferPointer(pixels)
            do throws(FrameSourceError) {
                if stride == width {
                    result = .success(try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<width * height])))
                } else {
                    var total = 0
                    for y in 0..<height {
                        let start = y * stride
                        let n = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start..<start + width]))
                        total += n
                        if n < width { break }
                    }
                    result = .success(total)
                }
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}

/// Parses an unsigned decimal made only of ASCII digits (at least one), returning nil if it exceeds `limit`.
func parseDecimal<C: Collection>(_ digits: C, limit: Int) -> Int? where C.Element == UInt8 {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for d in digits {
        guard d >= 0x30, d <= 0x39 else { return nil }
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(d - 0x30))
        guard !o1, !o2, sum <= limit else { return nil }
        value = sum
    }
    return value
}

/// A width or height: digits only; absurdly long numbers become `Int.max` (rejected later as too large).
func parseSize<C: Collection>(_ digits: C) -> Int? where C.Element == UInt8 {
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return parseDecimal(digits, limit: Int.max) ?? Int.max
}
