import CTurboJPEG
import Pipeline

/// Grey frames to JPEG with libjpeg-turbo (the setup page's live picture).
enum JPEG {
    /// The frame as a greyscale JPEG, or nil if the library refuses (it says why only to stderr-less callers).
    static func encode(_ frame: LumaFrame, quality: Int32 = 70) -> [UInt8]? {
        guard let handle = tjInitCompress() else { return nil }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = frame.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, Int32(frame.width), Int32(frame.stride), Int32(frame.height), Int32(TJPF_GRAY.rawValue),
                        &output, &size, Int32(TJSAMP_GRAY.rawValue), quality, TJFLAG_FASTDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
