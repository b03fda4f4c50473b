/// What went wrong reading or writing pictures. Every case names the file; `description` is a
/// sentence for a person: the file, the frame where relevant, what is wrong and what is allowed.
public enum FrameSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened (reason from the OS, e.g. "No such file or directory").
    case cannotOpen(path: String, reason: String)
    /// The OS reported an error while reading.
    case readFailed(path: String, reason: String)
    /// The file does not start with the `YUV4MPEG2` signature.
    case notY4M(path: String)
    /// The Y4M stream header is malformed (`detail` says how).
    case badHeader(path: String, detail: String)
    /// The Y4M `C` tag names a colour space the reader does not handle.
    case unsupportedColourSpace(path: String, found: String, allowed: [String])
    /// Width/height out of range (must be 1...maxSide each and width × height <= maxPixels).
    case unsupportedSize(path: String, width: Int, height: Int, maxSide: Int, maxPixels: Int)
    /// Frame `frame` (0-based) ends early: `expectedBytes` of picture were due, only `gotBytes` were there.
    case truncatedFrame(path: String, frame: Int, expectedBytes: Int, gotBytes: Int)
    /// Where frame `frame` should start there is no valid `FRAME` line; `found` shows what is there.
    case badFrameMarker(path: String, frame: Int, found: String)
    /// The PGM header or pixel data is malformed (`detail` says how).
    case badPGM(path: String, detail: String)
    /// The PGM has `maxval` > 255 (16-bit samples); only 8-bit is supported.
    case unsupportedDepth(path: String, maxval: Int)
    /// The PGM ends early: `expectedPixels` were due, `gotPixels` were there.
    case truncatedPGM(path: String, expectedPixels: Int, gotPixels: Int)
    /// A frame handed to a writer has a different size from the one the file was opened with.
    case wrongFrameSize(path: String, expectedWidth: Int, expectedHeight: Int, gotWidth: Int, gotHeight: Int)
    /// Writing failed (OS reason, bad parameters, or the writer is closed).
    case writeFailed(path: String, reason: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .cannotOpen(let p, _), .readFailed(let p, _), .notY4M(let p), .badHeader(let p, _),
             .unsupportedColourSpace(let p, _, _), .unsupportedSize(let p, _, _, _, _),
             .truncatedFrame(let p, _, _, _), .badFrameMarker(let p, _, _), .badPGM(let p, _),
             .unsupportedDepth(let p, _), .truncatedPGM(let p, _, _), .wrongFrameSize(let p, _, _, _, _),
             .writeFailed(let p, _):
            return p
        }
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "\(path): cannot open the file (\(reason))"
        case let .readFailed(path, reason):
            return "\(path): reading failed (\(reason))"
        case let .notY4M(path):
            return "\(path): is not a YUV4MPEG2 (.y4m) recording: it must start with the word YUV4MPEG2 "
                + "(convert other videos with: ffmpeg -i in.mp4 -pix_fmt gray -f yuv4mpegpipe out.y4m)"
        case let .badHeader(path, detail):
            return "\(path): the Y4M header is malformed: \(detail)"
        case let .unsupportedColourSpace(path, found, allowed):
            return "\(path): colour space '\(found)' is not supported; allowed are \(allowed.joined(separator: ", ")) "
                + "(8-bit only; re-encode with ffmpeg -pix_fmt gray or yuv420p)"
        case let .unsupportedSize(path, width, height, maxSide, maxPixels):
            return "\(path): picture size \(width)x\(height) is not supported; width and height must be 1...\(maxSide) "
                + "and width × height at most \(maxPixels) pixels"
        case let .truncatedFrame(path, frame, expected, got):
            if got == 0 {
                return "\(path): frame \(frame) is truncated: expected \(expected) bytes of picture, found none "
                    + "(the file ends inside the FRAME line; was the recording cut off?)"
            }
            return "\(path): frame \(frame) is truncated: expected \(expected) bytes of picture, found \(got) "
                + "(the file ends early; was the recording cut off?)"
        case let .badFrameMarker(path, frame, found):
            return "\(path): frame \(frame) does not start with a FRAME line: found \"\(found)\" "
                + "(each frame must begin with FRAME, optional parameters and a line end; "
                + "the header's size or colour space may not match the data)"
        case let .badPGM(path, detail):
            return "\(path): is not a valid PGM image: \(detail) "
                + "(allowed: binary P5 or ASCII P2 with 8-bit samples)"
        case let .unsupportedDepth(path, maxval):
            return "\(path): PGM has maxval \(maxval) (16-bit samples); only 8-bit images (maxval 1...255) are supported "
                + "(convert with: convert in.pgm -depth 8 out.pgm)"
        case let .truncatedPGM(path, expected, got):
            return "\(path): PGM image is truncated: expected \(expected) pixels, found \(got) (the file ends early)"
        case let .wrongFrameSize(path, ew, eh, gw, gh):
            return "\(path): cannot write a \(gw)x\(gh) frame into a recording opened as \(ew)x\(eh); "
                + "all frames of one recording must have the same size"
        case let .writeFailed(path, reason):
            return "\(path): writing failed (\(reason))"
        }
    }
}

/// Renders bytes for an error message: printable ASCII as is, the rest as \xNN, at most `limit` bytes.
func printable<C: Collection>(_ bytes: C, limit: Int = 24) -> String where C.Element == UInt8 {
    var out = ""
    var n = 0
    for b in bytes {
        if n == limit { out += "…"; break }
        switch b {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(b))
        default:
            let hex: [Character] = Array("0123456789ABCDEF")
            out += "\\x" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
        }
        n += 1
    }
    return out
}
