#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Records luma frames as a `Cmono` YUV4MPEG2 file (readable by `Y4MReader`, ffmpeg, mpv...).
///
/// The header (`YUV4MPEG2 W.. H.. F num:den Ip A1:1 Cmono`) is written on `init`; each `write` appends
/// `FRAME\n` and the picture. Writing allocates nothing per frame. The file is closed by `close()`
/// (or when the last copy of the writer goes away).
public struct Y4MWriter: Sendable {
    public let path: String
    public let width: Int
    public let height: Int
    public private(set) var frameRateNumerator: Int
    public private(set) var frameRateDenominator: Int
    /// Frames written so far.
    public private(set) var framesWritten = 0

    private var file: FileRef?
    /// Where the header's frame rate starts, when it was written at a fixed width to be set later.
    private let rateOffset: Int?
    /// Packs strided frames into one contiguous write; allocated once, on the first strided frame.
    private var scratch: [UInt8] = []

    /// Creates (or truncates) `path` and writes the stream header.
    /// `frameRate` (frames per second, > 0) is stored as a fraction: 25 -> 25:1, 29.97… -> 30000:1001, 20.34 -> 2034:100.
    /// With `rateSetLater`, the fraction is written with leading zeros at a fixed width (`F0000000030:0000001`,
    /// which `Y4MReader` and ffmpeg read as 30:1), so `setFrameRate` can correct it in place once the
    /// frames' own times are known: for frames that arrive at a rate nobody can promise beforehand.
    public init(path: String, width: Int, height: Int, frameRate: Double, rateSetLater: Bool = false) throws(FrameSourceError) {
        guard FrameLimits.accepts(width: width, height: height) else {
            throw .unsupportedSize(path: path, width: width, height: height,
                                   maxSide: FrameLimits.maxSide, maxPixels: FrameLimits.maxPixels)
        }
        let (num, den) = try Self.fraction(frameRate, path: path)
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: osReason(errno)) }
        self.file = FileRef(fd: fd)
        self.path = path
        self.width = width
        self.height = height
        self.frameRateNumerator = num
        self.frameRateDenominator = den
        let lead = "YUV4MPEG2 W\(width) H\(height) F"
        self.rateOffset = rateSetLater ? lead.utf8.count : nil
        let header = Array((lead + Self.rateField(num, den, fixedWidth: rateSetLater) + " Ip A1:1 Cmono\n").utf8)
        try writeAll(header, count: header.count)
    }

    /// `num:den`, or at the fixed width `setFrameRate` overwrites (10 and 7 digits: Int32.max and 1000000).
    private static func rateField(_ num: Int, _ den: Int, fixedWidth: Bool) -> String {
        guard fixedWidth else { return "\(num):\(den)" }
        func padded(_ n: Int, _ digits: Int) -> String { let s = String(n); return String(repeating: "0", count: max(0, digits - s.count)) + s }
        return padded(num, 10) + ":" + padded(den, 7)
    }

    /// Sets the header's frame rate in place (the writer must have been made with `rateSetLater`).
    public mutating func setFrameRate(_ rate: Double) throws(FrameSourceError) {
        guard let offset = rateOffset else {
            throw .writeFailed(path: path, reason: "the frame rate can be set later only in a file begun with rateSetLater")
        }
        let (num, den) = try Self.fraction(rate, path: path)
        let field = Array(Self.rateField(num, den, fixedWidth: true).utf8)
        if let error = field.withUnsafeBytes({ writeRaw($0, at: offset) }) { throw error }
        frameRateNumerator = num
        frameRateDenominator = den
    }

    /// Frames per second as written in the header.
    public var frameRate: Double { Double(frameRateNumerator) / Double(frameRateDenominator) }

    /// Frames per second of frames that came at `times` (seconds), to 0.01; nil for fewer than two or no time
    /// between them. How a recording whose rate nobody promised gets one for its header.
    public static func rate(ofFrameTimes times: [Double]) -> Double? {
        guard times.count > 1, let a = times.first, let b = times.last, b > a else { return nil }
        return max(0.01, (Double(times.count - 1) / (b - a) * 100).rounded() / 100)
    }

    /// `rational(rate)`, or the error naming what is allowed.
    private static func fraction(_ rate: Double, path: String) throws(FrameSourceError) -> (Int, Int) {
        guard let f = rational(rate) else {
            throw .writeFailed(path: path, reason: "frame rate \(rate) is not allowed; it must be a number between 0.000001 and 1000000 frames per second")
        }
        return f
    }

    /// A fraction for `rate`: the first of denominators 1, 1001, 10, 100, ... 1000000 that represents it
    /// to 1e-9 relative accuracy, else the nearest with denominator 1000000. Nil if out of range.
    public static func rational(_ rate: Double) -> (numerator: Int, denominator: Int)? {
        guard rate.isFinite, rate >= 1e-6, rate <= 1e6 else { return nil }
        for den in [1, 1001, 10, 100, 1000, 10_000, 100_000] {
            let num = (rate * Double(den)).rounded()
            if num >= 1, abs(num / Double(den) - rate) <= rate * 1e-9 { return (Int(num), den) }
        }
        let num = max(1, (rate * 1e6).rounded())
        return num <= Double(Int32.max) ? (Int(num), 1_000_000) : nil
    }

    /// Appends one frame (any stride). Its size must match the writer's.
    public mutating func write(_ frame: LumaFrame) throws(FrameSourceError) {
        guard frame.width == width, frame.height == height else {
            throw .wrongFrameSize(path: path, expectedWidth: width, expectedHeight: height,
                                  gotWidth: frame.width, gotHeight: frame.height)
        }
        let marker: StaticString = "FRAME\n"
        if let error = writeRaw(UnsafeRawBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)) { throw error }
        let plane = width * height
        if frame.stride == width {
            try writeAll(frame.pixels, count: plane)
        } else {
            if scratch.count != plane { scratch = [UInt8](repeating: 0, count: plane) }
            let (w, h, stride) = (width, height, frame.stride)
            scratch.withUnsafeMutableBufferPointer { dst in
                frame.pixels.withUnsafeBufferPointer { src in
                    guard let d = dst.baseAddress, let s = src.baseAddress else { return }
                    for y in 0..<h { (d + y * w).update(from: s + y * stride, count: w) }
                }
            }
            try writeAll(scratch, count: plane)
        }
        framesWritten += 1
    }

    /// Closes the file (once no copy of this writer holds it). Further writes fail.
    public mutating func close() {
        file = nil
    }

    /// Writes the first `count` bytes of `array`.
    private func writeAll(_ array: [UInt8], count: Int) throws(FrameSourceError) {
        let error = array.withUnsafeBytes { raw in writeRaw(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
        if let error { throw error }
    }

    /// Writes all of `data` (at the end, or at byte `offset` without moving the end), retrying short and
    /// interrupted writes; returns the error, if any.
    private func writeRaw(_ data: UnsafeRawBufferPointer, at offset: Int? = nil) -> FrameSourceError? {
        guard let file else { return .writeFailed(path: path, reason: "the writer is closed") }
        guard var p = data.baseAddress else { return nil }
        var left = data.count
        while left > 0 {
            let n = offset.map { systemPwrite(file.fd, p, left, off_t($0 + data.count - left)) } ?? systemWrite(file.fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                return .writeFailed(path: path, reason: osReason(errno))
            }
            if n == 0 { return .writeFailed(path: path, reason: "the device accepted no more data") }
            p += n
            left -= n
        }
        return nil
    }
}
