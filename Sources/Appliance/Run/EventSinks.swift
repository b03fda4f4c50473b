import Foundation
import Gestures
import Logging

/// Takes each line of the event stream (a JSON object) from the frame loop. Called on the frame loop's
/// thread, in event order; it must return at once: whatever is slow (a socket, a pipe) happens on the
/// sink's own thread.
protocol EventSink: AnyObject, Sendable {
    func deliver(line: String)
}

/// Whole lines, in order, for a consumer on another thread; when the consumer falls `capacity` bytes behind,
/// further lines are refused (and counted) until it catches up, so the producer never waits.
struct LineBuffer {
    let capacity: Int
    private(set) var bytes: [UInt8] = []
    private var start = 0

    init(capacity: Int) { self.capacity = capacity }

    var pending: Int { bytes.count - start }
    var isEmpty: Bool { pending == 0 }

    /// Appends `line` and a line end; false (and nothing appended) if that would exceed the capacity.
    mutating func append(_ line: String) -> Bool {
        let count = line.utf8.count + 1
        guard pending + count <= capacity else { return false }
        if start > 0 && start >= bytes.count / 2 {
            bytes.removeFirst(start)
            start = 0
        }
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
        return true
    }

    /// Hands the unsent bytes to `send`, which returns how many it took (or a negative number on error).
    mutating func drain(_ send: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard !isEmpty else { return 0 }
        let n = bytes.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        if n > 0 { start += n }
        if start == bytes.count { bytes.removeAll(keepingCapacity: true); start = 0 }
        return n
    }
}

/// Event lines on standard output, written by a thread of their own. If nobody reads stdout (a stuck
/// pipe), lines beyond a bounded buffer are dropped and counted; the loop goes on.
final class StdoutEventWriter: EventSink, @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: LineBuffer
    private var stopping = false
    private var done = false
    private var dropped = 0
    private let logger: Logger
    private let fd: Int32

    init(fd: Int32 = 1, capacity: Int = 1 << 20, logger: Logger) {
        self.fd = fd
        buffer = LineBuffer(capacity: capacity)
        self.logger = logger
        let thread = Thread { [self] in writeLoop() }
        thread.name = "nodwire-stdout"
        thread.start()
    }

    var droppedLines: Int { condition.withLock { dropped } }

    func deliver(line: String) {
        condition.withLock {
            if buffer.append(line) {
                condition.signal()
            } else {
                dropped += 1
                if dropped == 1 || dropped % 1000 == 0 {
                    logger.warning("standard output is not being read: dropped \(dropped) event lines so far")
                }
            }
        }
    }

    /// Writes what is buffered, then ends the thread.
    func finish() {
        condition.withLock {
            stopping = true
            condition.signal()
            while !done { condition.wait() }
        }
    }

    private func writeLoop() {
        condition.lock()
        while true {
            while buffer.isEmpty && !stopping { condition.wait() }
            if buffer.isEmpty && stopping { break }
            // Take the bytes out and write them without holding the lock, so `deliver` never waits for I/O.
            var chunk = buffer
            buffer = LineBuffer(capacity: buffer.capacity)
            condition.unlock()
            var failed: Int32?
            while !chunk.isEmpty && failed == nil {
                let n = chunk.drain { raw in write(fd, raw.baseAddress, raw.count) }
                if n < 0 && errno != EINTR { failed = errno }
            }
            condition.lock()
            if let failed {
                logger.warning("standard output is closed (\(String(cString: strerror(failed)))): no more event lines there")
                break
            }
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
