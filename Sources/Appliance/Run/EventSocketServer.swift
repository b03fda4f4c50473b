import Foundation
import Gestures
import Logging
import Pipeline

/// Serves the event lines on a Unix stream socket to any number of readers (a kiosk app, `nodwire events`).
///
/// A reader gets every line from when it connects. The frame loop never waits for a reader: each has a
/// bounded buffer (`events.client_buffer_bytes`), and one that falls further behind is disconnected, with
/// a log line, rather than handed a stream with holes in it (a missing look_stop would leave a kiosk
/// believing a look never ended); it may connect again. Readers that hang up are forgotten.
/// One thread polls the listening socket and all readers.
final class EventSocketServer: EventSink, @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let bufferBytes: Int
    private let logger: Logger
    private let lock = NSLock()
    private var clients: [Int32: LineBuffer] = [:]
    private var stopping = false
    private var thread: Thread?
    private let finished = StopSignal()
    private var _disconnectedSlow = 0

    /// Binds and listens now, so a bad path fails before anything starts. A leftover socket file nobody
    /// listens on (from a crash) is replaced; one a live program serves is refused.
    init(path: String, clientBufferBytes: Int, logger: Logger) throws(RunError) {
        self.path = path
        bufferBytes = clientBufferBytes
        self.logger = logger
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw .eventSocket(path: path, reason: "the path exists and is not a socket; remove it or choose another events.socket_path")
            }
            if let probe = try? UnixSocket.connect(path: path) {
                close(probe)
                throw .eventSocket(path: path, reason: "another program already serves it (is nodwire run already running?)")
            }
            unlink(path)
        }
        let fd: Int32
        do { fd = try UnixSocket.listen(path: path) } catch { throw .eventSocket(path: path, reason: error.reason) }
        listener = fd
        // Readers need write permission to connect: the owner and its group (add a kiosk app's user to it).
        chmod(path, 0o660)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0, UnixSocket.configure(pipeEnds[0]), UnixSocket.configure(pipeEnds[1]) else {
            close(fd)
            unlink(path)
            throw .eventSocket(path: path, reason: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
    }

    deinit {
        close(listener)
        close(wakeRead)
        close(wakeWrite)
    }

    var clientCount: Int { lock.withLock { clients.count } }
    /// Readers disconnected because they fell too far behind.
    var disconnectedSlow: Int { lock.withLock { _disconnectedSlow } }

    func start() {
        let t = Thread { [self] in pollLoop(); finished.raise() }
        t.name = "nodwire-events"
        thread = t
        t.start()
    }

    func deliver(line: String) {
        var slow: [Int32] = []
        lock.withLock {
            for fd in clients.keys where clients[fd]!.append(line) == false { slow.append(fd) }
            for fd in slow { drop(fd) }
            _disconnectedSlow += slow.count
        }
        for fd in slow { logger.warning("events: a reader fell more than \(bufferBytes) bytes behind and was disconnected", metadata: ["fd": "\(fd)"]) }
        wake()
    }

    /// Sends what readers can still take without waiting, closes them and the socket, removes the path.
    func stop() {
        lock.withLock { stopping = true }
        wake()
        if thread != nil { _ = finished.wait(until: MonotonicClock.now() + 5) }
        lock.withLock {
            for fd in clients.keys { _ = flush(fd); close(fd) }
            clients.removeAll()
        }
        unlink(path)
    }

    private func wake() {
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)   // a full pipe already means "wake up"
    }

    /// Must hold the lock.
    private func drop(_ fd: Int32) {
        clients[fd] = nil
        close(fd)
    }

    /// Sends buffered bytes until the reader would block. False: the reader is gone. Must hold the lock.
    private func flush(_ fd: Int32) -> Bool {
        guard var buffer = clients[fd] else { return false }
        defer { clients[fd] = buffer }
        while !buffer.isEmpty {
            let n = buffer.drain { raw in send(fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
        }
        return true
    }

    private func pollLoop() {
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let done: Bool = lock.withLock {
                for (fd, buffer) in clients {
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (buffer.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
                }
                return stopping
            }
            if done { return }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("events: poll failed: \(String(cString: strerror(errno))); no more events on \(path)")
                return
            }
            if fds[1].revents != 0 { while read(wakeRead, &scratch, scratch.count) > 0 {} }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptReaders() }
            var gone: [Int32] = []
            lock.withLock {
                for p in fds.dropFirst(2) where p.revents != 0 && clients[p.fd] != nil {
                    if p.revents & Int16(POLLIN) != 0 {
                        // Readers have nothing to say; anything they send is read and ignored. 0 is a hang-up.
                        let n = recv(p.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
                        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { gone.append(p.fd); continue }
                    }
                    if p.revents & Int16(POLLERR | POLLHUP) != 0 { gone.append(p.fd); continue }
                    if p.revents & Int16(POLLOUT) != 0, !flush(p.fd) { gone.append(p.fd) }
                }
                for fd in gone { drop(fd) }
            }
            for _ in gone { logger.debug("events: a reader disconnected") }
        }
    }

    private func acceptReaders() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd >= 0, !UnixSocket.configure(fd) { close(fd); continue }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { logger.warning("events: accept failed: \(String(cString: strerror(errno)))") }
                return
            }
            let count: Int = lock.withLock {
                clients[fd] = LineBuffer(capacity: bufferBytes)
                return clients.count
            }
            logger.debug("events: a reader connected", metadata: ["readers": "\(count)"])
        }
    }
}

/// Unix stream socket calls with the error as a sentence.
enum UnixSocket {
    struct Failure: Error { var reason: String }

    /// Non-blocking and closed on exec (pipe2 and accept4 are not in every libc's Swift view).
    static func configure(_ fd: Int32) -> Bool {
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0
    }

    static func address(_ path: String) throws(Failure) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { throw Failure(reason: "a socket path must have 1 to \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        return (address, socklen_t(MemoryLayout<sockaddr_un>.size))
    }

    private static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(Failure) -> R {
        let (address, length) = try self.address(path)
        return withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    private static func newSocket(flags: Int32) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        return fd
    }

    /// A non-blocking listening socket bound to `path`.
    static func listen(path: String) throws(Failure) -> Int32 {
        let fd = try newSocket(flags: Int32(SOCK_NONBLOCK.rawValue))
        let bound = try withAddress(path) { bind(fd, $0, $1) }
        if bound != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(reason: reason)
        }
        guard Glibc.listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw Failure(reason: reason)
        }
        return fd
    }

    /// A blocking socket connected to `path`.
    static func connect(path: String) throws(Failure) -> Int32 {
        let fd = try newSocket(flags: 0)
        let result = try withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(reason: reason)
        }
        return fd
    }
}
