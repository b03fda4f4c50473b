#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one open file descriptor and closes it when the last user lets go.
/// Immutable, hence safely shareable between copies of a reader or writer.
final class FileRef: Sendable {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { _ = systemClose(fd) }
}

@inline(__always) func systemRead(_ fd: Int32, _ buf: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buf, count)
    #elseif canImport(Musl)
    return Musl.read(fd, buf, count)
    #else
    return Darwin.read(fd, buf, count)
    #endif
}

@inline(__always) func systemWrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buf, count)
    #elseif canImport(Musl)
    return Musl.write(fd, buf, count)
    #else
    return Darwin.write(fd, buf, count)
    #endif
}

@inline(__always) func systemPwrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int, _ offset: off_t) -> Int {
    #if canImport(Glibc)
    return Glibc.pwrite(fd, buf, count, offset)
    #elseif canImport(Musl)
    return Musl.pwrite(fd, buf, count, offset)
    #else
    return Darwin.pwrite(fd, buf, count, offset)
    #endif
}

@inline(__always) func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #elseif canImport(Musl)
    return Musl.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}

/// The OS's message for `code`, e.g. "No such file or directory".
func osReason(_ code: Int32) -> String {
    if let s = strerror(code) { return String(cString: s) }
    return "error \(code)"
}

/// Opens `path` for reading; returns the descriptor and whether it is a regular file (seekable, known size).
func openForReading(_ path: String) throws(FrameSourceError) -> (FileRef, regular: Bool) {
    var fd: Int32
    repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw .cannotOpen(path: path, reason: osReason(errno)) }
    let ref = FileRef(fd: fd)
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw .cannotOpen(path: path, reason: osReason(errno)) }
    let kind = UInt32(st.st_mode) & 0o170000
    if kind == 0o040000 { throw .cannotOpen(path: path, reason: "it is a directory") }
    return (ref, kind == 0o100000)
}

/// Current size of the open regular file, or nil.
func fileSize(_ fd: Int32) -> Int64? {
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    return Int64(st.st_size)
}

/// A forward-only byte stream over an in-memory array or a file, with a small read-ahead buffer.
///
/// A value type: regular files are read with `pread` at a stored offset, so a copy of the stream is an
/// independent cursor. Pipes and devices fall back to `read` (copies then share the OS position).
/// Once the buffer exists, reading allocates nothing.
struct ByteStream: Sendable {
    enum Source: Sendable {
        case memory([UInt8])
        case file(FileRef, positional: Bool)
    }

    static let chunk = 64 * 1024

    let name: String
    private let source: Source
    private var buffer: [UInt8] = []
    private var bufPos = 0
    private var bufEnd = 0
    /// Memory: index of the next byte. File: offset of the next byte to fetch from the OS (after the buffer).
    private var position = 0

    init(bytes: [UInt8], name: String) {
        self.name = name
        self.source = .memory(bytes)
    }

    init(path: String) throws(FrameSourceError) {
        let (ref, regular) = try openForReading(path)
        self.name = path
        self.source = .file(ref, positional: regular)
        self.buffer = [UInt8](repeating: 0, count: Self.chunk)
    }

    /// Bytes left, when known without a system call (in-memory streams only).
    var remainingIfKnown: Int? {
        if case .memory(let bytes) = source { return bytes.count - position }
        return nil
    }

    /// Reads up to `count` bytes from the OS into `dst`, retrying interrupted calls. 0 means end of file.
    private static func rawRead(_ ref: FileRef, positional: Bool, offset: inout Int, _ dst: UnsafeMutableRawPointer,
                                _ count: Int, name: String) throws(FrameSourceError) -> Int {
        while true {
            let n = positional ? pread(ref.fd, dst, count, off_t(offset)) : systemRead(ref.fd, dst, count)
            if n >= 0 {
                offset += n
                return n
            }
            if errno == EINTR { continue }
            throw .readFailed(path: name, reason: osReason(errno))
        }
    }

    private mutating func refill(_ ref: FileRef, _ positional: Bool) throws(FrameSourceError) {
        let name = self.name
        var offset = position
        var result: Result<Int, FrameSourceError> = .success(0)
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            do throws(FrameSourceError) {
                result = .success(try Self.rawRead(ref, positional: positional, offset: &offset, base, raw.count, name: name))
            } catch {
                result = .failure(error)
            }
        }
        position = offset
        bufPos = 0
        bufEnd = try result.get()
    }

    /// The next byte, or nil at end of stream.
    mutating func readByte() throws(FrameSourceError) -> UInt8? {
        switch source {
        case .memory(let bytes):
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        case .file(let ref, let positional):
            if bufPos == bufEnd {
                try refill(ref, positional)
                if bufEnd == 0 { return nil }
            }
            defer { bufPos += 1 }
            return buffer[bufPos]
        }
    }

    /// Fills `dst` as far as the stream allows; returns the bytes copied (fewer than `dst.count` only at end of stream).
    mutating func read(into dst: UnsafeMutableRawBufferPointer) throws(FrameSourceError) -> Int {
        guard let out = dst.baseAddress, dst.count > 0 else { return 0 }
        switch source {
        case .memory(let bytes):
            let n = min(dst.count, bytes.count - position)
            if n > 0 {
                bytes.withUnsafeBytes { src in
                    if let s = src.baseAddress { out.copyMemory(from: s + position, byteCount: n) }
                }
                position += n
            }
            return n
        case .file(let ref, let positional):
            var done = 0
            while done < dst.count {
                if bufPos < bufEnd {
                    let n = min(bufEnd - bufPos, dst.count - done)
                    buffer.withUnsafeBytes { src in
                        if let s = src.baseAddress { (out + done).copyMemory(from: s + bufPos, byteCount: n) }
                    }
                    bufPos += n
                    done += n
                    continue
                }
                let want = dst.count - done
                if want >= Self.chunk {
                    // Big reads go straight into the destination, skipping the buffer.
                    let n = try Self.rawRead(ref, positional: positional, offset: &position, out + done, want, name: name)
                    if n == 0 { break }
                    done += n
                } else {
                    try refill(ref, positional)
                    if bufEnd == 0 { break }
                }
            }
            return done
        }
    }

    /// Skips up to `count` bytes; returns how many were skipped (fewer only at end of stream).
    mutating func skip(_ count: Int) throws(FrameSourceError) -> Int {
        guard count > 0 else { return 0 }
        switch source {
        case .memory(let bytes):
            let n = min(count, bytes.count - position)
            position += n
            return n
        case .file(let ref, let positional):
            var done = min(count, bufEnd - bufPos)
            bufPos += done
            if done == count { return done }
            if positional, let size = fileSize(ref.fd) {
                // Regular file: move the offset, bounded by the current file size.
                let available = max(0, Int(clamping: size) - position)
                let n = min(count - done, available)
                position += n
                return done + n
            }
            while done < count {
                try refill(ref, positional)
                if bufEnd == 0 { break }
                let n = min(bufEnd, count - done)
                bufPos = n
                done += n
            }
            return done
        }
    }

    /// Everything left in the stream (from where it is), or nil when that is more than `limit` bytes.
    mutating func readRest(limit: Int) throws(FrameSourceError) -> [UInt8]? {
        var data: [UInt8] = []
        var expected = Self.chunk * 16
        if case .file(let ref, true) = source, let size = fileSize(ref.fd) {
            let left = max(0, Int(clamping: size) - position) + (bufEnd - bufPos)   // not yet read, buffered included
            guard left <= limit else { return nil }
            expected = left + 1  // one more byte to see the end
        }
        var result: Result<Int, FrameSourceError> = .success(0)
        while true {
            let old = data.count
            let step = min(expected, limit + 1 - old)
            expected = Self.chunk * 16
            data += [UInt8](repeating: 0, count: step)
            data.withUnsafeMutableBytes { raw in
                do throws(FrameSourceError) {
                    result = .success(try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[old..<old + step])))
                } catch {
                    result = .failure(error)
                }
            }
            let n = try result.get()
            data.removeLast(step - n)
            if data.count > limit { return nil }
            if n < step { return data }
        }
    }
}
