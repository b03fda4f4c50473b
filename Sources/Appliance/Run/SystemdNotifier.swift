import Foundation

/// Speaks systemd's `Type=notify` protocol (sd_notify(3)) directly: datagrams of `KEY=value` lines sent to
/// the Unix socket named by $NOTIFY_SOCKET (a path, or `@name` for an abstract address). Without
/// $NOTIFY_SOCKET every call does nothing, so `run` behaves the same outside systemd.
/// Sending never blocks (a full socket drops the message, as sd_notify does).
final class SystemdNotifier: @unchecked Sendable {
    private let fd: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t
    /// Half of $WATCHDOG_USEC, in seconds, when systemd expects keep-alives from this process; nil otherwise.
    let watchdogInterval: Double?
    /// The socket as given in the environment, for messages.
    let socketName: String?
    private let stopLock = NSLock()
    private var stopSent = false

    /// Reads $NOTIFY_SOCKET, $WATCHDOG_USEC and $WATCHDOG_PID. Throws when the address is unusable.
    init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) throws(RunError) {
        let usec = environment["WATCHDOG_USEC"].flatMap { UInt64($0) } ?? 0
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == pid } ?? true
        watchdogInterval = usec > 0 && pidMatches ? Double(usec) / 2e6 : nil
        var address = sockaddr_un()
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else {
            fd = -1
            self.address = address
            addressLength = 0
            socketName = nil
            return
        }
        socketName = name
        // An abstract address starts with a zero byte, which the environment spells '@'.
        var path = Array(name.utf8)
        guard path.first == UInt8(ascii: "/") || path.first == UInt8(ascii: "@") else {
            throw .notify("NOTIFY_SOCKET=\(name) is neither a path nor an @abstract address")
        }
        if path[0] == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { throw .notify("NOTIFY_SOCKET=\(name) is longer than a socket address (\(capacity - 1) bytes)") }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        // Abstract names are exactly as long as given (no terminating zero counts).
        addressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (path[0] == 0 ? 0 : 1))
        self.address = address
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .notify("cannot create a socket for NOTIFY_SOCKET: \(String(cString: strerror(errno)))") }
    }

    deinit { if fd >= 0 { close(fd) } }

    var isActive: Bool { fd >= 0 }

    /// Sends one state message (e.g. "READY=1", "STATUS=...", several joined by newlines). Returns false when
    /// it could not be delivered (no systemd listening, socket full); callers log that at most once.
    @discardableResult
    func send(_ message: String) -> Bool {
        guard fd >= 0 else { return false }
        var bytes = Array(message.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            withUnsafePointer(to: address) { addr in
                addr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), sa, addressLength) == buffer.count
                }
            }
        }
    }

    func ready() { send("READY=1") }
    /// Once: the shutdown handler and the loop's end both call it.
    func stopping() {
        let first = stopLock.withLock { () -> Bool in defer { stopSent = true }; return !stopSent }
        if first { send("STOPPING=1") }
    }
    func watchdog() { send("WATCHDOG=1") }
    func status(_ text: String) { send("STATUS=" + text.replacingOccurrences(of: "\n", with: " ")) }
}
