#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who holds the camera hardware: libcamera takes a POSIX lock (lockf) on every media device of a camera
/// it acquires. A camera that another process holds may even be missing from libcamera's list (some
/// pipelines, vimc among them, cannot probe a media device while it streams), so "busy" is told from these
/// locks, and the holder is named from them.
public struct MediaDeviceLock: Sendable, Equatable, CustomStringConvertible {
    /// "/dev/media0".
    public let device: String
    /// The media device's model from sysfs ("VIMC MDEV", "unicam"), when readable.
    public let model: String?
    /// The process holding the lock and its program name (/proc/PID/comm).
    public let pid: Int32
    public let program: String?

    public var description: String {
        let what = model.map { "\(device) (\($0))" } ?? device
        let who = program.map { "'\($0)' (pid \(pid))" } ?? "pid \(pid)"
        return "\(what) is held by \(who)"
    }

    /// Media devices locked by another process now. Our own locks never show (POSIX locks do not
    /// conflict with their owner), nor do devices this process may not open.
    public static func held(devices pattern: String = "/dev/media*") -> [MediaDeviceLock] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        var locks: [MediaDeviceLock] = []
        for i in 0..<Int(found.gl_pathc) {
            guard let p = found.gl_pathv[i] else { continue }
            let path = String(cString: p)
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var probe = flock()
            probe.l_type = Int16(F_WRLCK)
            probe.l_whence = Int16(SEEK_SET)
            guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { continue }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            locks.append(MediaDeviceLock(device: path, model: firstLine(of: "/sys/bus/media/devices/\(name)/model"),
                                         pid: probe.l_pid, program: firstLine(of: "/proc/\(probe.l_pid)/comm")))
        }
        return locks
    }

    private static func firstLine(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let line = buffer[..<n].prefix { $0 != 0x0A && $0 != 0 }
        return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
    }
}
