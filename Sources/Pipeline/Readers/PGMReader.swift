/// Loads 8-bit greyscale PGM stills: binary `P5` and ASCII `P2`, with `#` comments in the header.
///
/// Samples are scaled to 0...255 when maxval is below 255; maxval above 255 (16-bit) is rejected.
/// A file holds one picture: `read(path:)` refuses a file larger than its header says the picture takes.
public struct PGMReader: Sendable {
    /// Most header bytes read before the size is known (comments included; a real header is a few dozen).
    public static let maxHeaderBytes = 64 * 1024
    /// Most bytes an ASCII (P2) pixel may take, spaces and comments included ("255 " is 4).
    public static let maxP2BytesPerPixel = 16

    private init() {}

    /// Reads and decodes the PGM file at `path`. The header is read first and the size it gives bounds the
    /// rest, so a huge or endless file (/dev/zero, a disk image) is refused after its first bytes rather
    /// than read into memory (a Pi Zero 2 W has 512 MB).
    public static func read(path: String) throws(FrameSourceError) -> LumaFrame {
        var stream = try ByteStream(path: path)
        var bytes = [UInt8](repeating: 0, count: maxHeaderBytes)
        var got: Result<Int, FrameSourceError> = .success(0)
        bytes.withUnsafeMutableBytes { raw in
            do throws(FrameSourceError) { got = .success(try stream.read(into: raw)) } catch { got = .failure(error) }
        }
        let n = try got.get()
        bytes.removeLast(maxHeaderBytes - n)
        var parser = Parser(bytes: bytes, name: path)
        let header: Parser.Header
        do throws(FrameSourceError) { header = try parser.header() } catch {
            if n == maxHeaderBytes, parser.pos >= n {
                throw .badPGM(path: path, detail: "the header goes on past \(maxHeaderBytes) bytes without giving the picture size")
            }
            throw error
        }
        let pixels = header.width * header.height   // at most FrameLimits.maxPixels
        let limit = header.binary ? parser.rasterStart() + pixels : parser.pos + pixels * maxP2BytesPerPixel
        let kind = "a \(header.width)x\(header.height) P\(header.binary ? 5 : 2) picture"
        let tooLarge = FrameSourceError.badPGM(path: path, detail: "the file is larger than \(kind) takes "
            + "(\(header.binary ? "" : "at most ")\(limit) bytes with its header); a PGM file holds one picture")
        guard n <= limit, let rest = try stream.readRest(limit: limit - n) else { throw tooLarge }
        return try decode(bytes: bytes + rest, name: path)
    }

    /// Decodes a PGM held in memory; `name` is used in messages.
    public static func decode(bytes: [UInt8], name: String) throws(FrameSourceError) -> LumaFrame {
        var parser = Parser(bytes: bytes, name: name)
        return try parser.decode()
    }

    private struct Parser {
        let bytes: [UInt8]
        let name: String
        var pos = 0

        init(bytes: [UInt8], name: String) {
            self.bytes = bytes
            self.name = name
        }

        static func isSpace(_ b: UInt8) -> Bool {
            b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C
        }

        static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

        /// Skips whitespace and `#` comments (to the end of the line).
        mutating func skipSpaceAndComments() {
            while pos < bytes.count {
                let b = bytes[pos]
                if Self.isSpace(b) {
                    pos += 1
                } else if b == 0x23 {
                    while pos < bytes.count, bytes[pos] != 0x0A, bytes[pos] != 0x0D { pos += 1 }
                } else {
                    return
                }
            }
        }

        /// Reads a decimal number; very long numbers clamp to Int.max. Nil if no digit is at `pos`.
        mutating func number() -> Int? {
            let start = pos
            var value = 0
            while pos < bytes.count, Self.isDigit(bytes[pos]) {
                let (t, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = t.addingReportingOverflow(Int(bytes[pos] - 0x30))
                value = (o1 || o2) ? Int.max : s
                pos += 1
            }
            return pos > start ? value : nil
        }

        /// A header field: whitespace/comments, then a number ended by whitespace, `#` or the end.
        mutating func headerField(_ what: String) throws(FrameSourceError) -> Int {
            skipSpaceAndComments()
            guard pos < bytes.count else {
                throw .badPGM(path: name, detail: "the header ends before the \(what)")
            }
            guard let value = number() else {
                throw .badPGM(path: name, detail: "expected the \(what) (a whole number) but found \"\(printable(bytes[pos...].prefix(12)))\"")
            }
            if pos < bytes.count, !Self.isSpace(bytes[pos]), bytes[pos] != 0x23 {
                throw .badPGM(path: name, detail: "the \(what) must be followed by whitespace, found \"\(printable(bytes[pos...].prefix(12)))\"")
            }
            return value
        }

        struct Header {
            var binary: Bool
            var width: Int
            var height: Int
            var maxval: Int
        }

        /// The signature, size and maxval, checked; `pos` is left just after the maxval.
        mutating func header() throws(FrameSourceError) -> Header {
            guard bytes.count >= 2, bytes[0] == 0x50 else {
                throw .badPGM(path: name, detail: "it does not start with P5 or P2 (found \"\(printable(bytes.prefix(8)))\")")
            }
            let binary: Bool
            switch bytes[1] {
            case 0x35: binary = true
            case 0x32: binary = false
            case 0x31, 0x34:
                throw .badPGM(path: name, detail: "it is a black-and-white PBM (P\(bytes[1] - 0x30)), not a greyscale PGM")
            case 0x33, 0x36:
                throw .badPGM(path: name, detail: "it is a colour PPM (P\(bytes[1] - 0x30)), not a greyscale PGM")
            default:
                throw .badPGM(path: name, detail: "it does not start with P5 or P2 (found \"\(printable(bytes.prefix(8)))\")")
            }
            pos = 2
            if pos < bytes.count, !Self.isSpace(bytes[pos]), bytes[pos] != 0x23 {
                throw .badPGM(path: name, detail: "the P\(binary ? 5 : 2) signature must be followed by whitespace")
            }
            let width = try headerField("width")
            let height = try headerField("height")
            let maxval = try headerField("maxval")
            guard maxval >= 1 else { throw .badPGM(path: name, detail: "maxval is 0; it must be 1...255") }
            guard maxval <= 255 else {
                if maxval <= 65535 { throw .unsupportedDepth(path: name, maxval: maxval) }
                throw .badPGM(path: name, detail: "maxval \(maxval) is out of range (PGM allows 1...65535; 1...255 is supported)")
            }
            guard FrameLimits.accepts(width: width, height: height) else {
                throw .unsupportedSize(path: name, width: width, height: height,
                                       maxSide: FrameLimits.maxSide, maxPixels: FrameLimits.maxPixels)
            }
            return Header(binary: binary, width: width, height: height, maxval: maxval)
        }

        mutating func decode() throws(FrameSourceError) -> LumaFrame {
            let h = try header()
            let (binary, width, height, maxval) = (h.binary, h.width, h.height, h.maxval)
            let count = width * height
            var pixels = binary ? try binaryRaster(count) : try asciiRaster(count, width: width, maxval: maxval)
            if maxval < 255 {
                var table = [UInt8](repeating: 255, count: 256)
                for v in 0...maxval { table[v] = UInt8((v * 255 + maxval / 2) / maxval) }
                for i in pixels.indices {
                    let v = Int(pixels[i])
                    guard v <= maxval else {
                        throw .badPGM(path: name, detail: "pixel (\(i % width), \(i / width)) has value \(v), above the maxval \(maxval)")
                    }
                    pixels[i] = table[v]
                }
            }
            return LumaFrame(width: width, height: height, pixels: pixels)
        }

        /// Where a P5 raster starts, `pos` being just after the maxval: exactly one whitespace byte (or a
        /// comment line) separates them.
        func rasterStart() -> Int {
            var at = pos
            if at < bytes.count {
                if bytes[at] == 0x23 {
                    while at < bytes.count, bytes[at] != 0x0A, bytes[at] != 0x0D { at += 1 }
                }
                at += 1
            }
            return at
        }

        mutating func binaryRaster(_ count: Int) throws(FrameSourceError) -> [UInt8] {
            pos = rasterStart()
            let available = max(0, bytes.count - pos)
            guard available >= count else { throw .truncatedPGM(path: name, expectedPixels: count, gotPixels: available) }
            return Array(bytes[pos..<pos + count])
        }

        mutating func asciiRaster(_ count: Int, width: Int, maxval: Int) throws(FrameSourceError) -> [UInt8] {
            // n values need at least 2n - 1 bytes; if they are not there, only count what is (no big allocation).
            let store = bytes.count - pos >= 2 * count - 1
            var pixels: [UInt8] = store ? [UInt8](repeating: 0, count: count) : []
            var got = 0
            while got < count {
                skipSpaceAndComments()
                guard pos < bytes.count else { break }
                guard let value = number() else {
                    throw .badPGM(path: name, detail: "pixel (\(got % width), \(got / width)) is not a number: "
                        + "found \"\(printable(bytes[pos...].prefix(12)))\"")
                }
                if pos < bytes.count, !Self.isSpace(bytes[pos]), bytes[pos] != 0x23 {
                    throw .badPGM(path: name, detail: "pixel (\(got % width), \(got / width)) is followed by \"\(printable(bytes[pos...].prefix(12)))\" instead of whitespace")
                }
                guard value <= maxval else {
                    throw .badPGM(path: name, detail: "pixel (\(got % width), \(got / width)) has value \(value), above the maxval \(maxval)")
                }
                if store { pixels[got] = UInt8(value) }
                got += 1
            }
            guard got == count else { throw .truncatedPGM(path: name, expectedPixels: count, gotPixels: got) }
            return pixels
        }
    }
}
