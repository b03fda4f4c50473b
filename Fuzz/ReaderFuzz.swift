// libFuzzer entry point for the Y4M and PGM readers. Built by scripts/fuzz.sh together with
// Sources/Pipeline/LumaFrame.swift and Sources/Pipeline/Readers/*.swift into one module (no dlib needed).
// Any trap (overflow, out-of-bounds, failed precondition) or ASan report is a bug in the readers.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    do {
        var reader = try Y4MReader(bytes: bytes, name: "fuzz.y4m")
        // Start from a tiny frame so the reader must resize it (and must not allocate for a truncated frame);
        // for small pictures use a padded stride to exercise the row-by-row path.
        var frame = LumaFrame(width: 1, height: 1)
        if reader.width * reader.height <= 4096, size > 0, data[0] & 1 == 1 {
            let stride = reader.width + 3
            frame = LumaFrame(width: reader.width, height: reader.height, stride: stride,
                              pixels: [UInt8](repeating: 0, count: stride * reader.height))
        }
        var count = 0
        while try reader.next(into: &frame) {
            precondition(frame.index == count && frame.width == reader.width && frame.height == reader.height)
            precondition(frame.time.isFinite && frame.time >= 0)
            count += 1
        }
        let again = try reader.next(into: &frame)
        precondition(!again, "a finished reader must stay finished")
    } catch {
        precondition(!error.description.isEmpty)
    }

    do {
        let image = try PGMReader.decode(bytes: bytes, name: "fuzz.pgm")
        precondition(image.pixels.count == image.width * image.height)
    } catch {
        precondition(!error.description.isEmpty)
    }
    return 0
}
