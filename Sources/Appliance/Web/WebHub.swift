import Foundation
import Logging

/// The pages' event streams (Server-Sent Events). An `EventSink`: the frame loop hands each event line to
/// every connected page's bounded queue and returns; a page whose queue would pass `capacity` bytes is
/// dropped (its stream ends, a write stuck on it is cancelled, the page's EventSource reconnects), so
/// no page can make the loop wait or hold memory without bound.
final class WebHub: EventSink, @unchecked Sendable {
    /// One page's queue of SSE messages, drained by that page's request handler.
    final class Client: @unchecked Sendable {
        private let condition = NSLock()
        private var pending: [String] = []
        private var bytes = 0
        private var closed = false
        private var waiter: CheckedContinuation<Void, Never>?
        /// The handler's task while it is in its writing loop: cancelled on a drop, so a write to a
        /// peer that stopped reading ends.
        private var task: UnsafeCurrentTask?

        /// Queues `message`; false (and the client closed) if it would pass `capacity`.
        fileprivate func push(_ message: String, capacity: Int) -> Bool {
            let resume: CheckedContinuation<Void, Never>?
            let ok: Bool
            (resume, ok) = condition.withLock {
                guard !closed else { return (nil, true) }
                if bytes + message.utf8.count > capacity {
                    closed = true
                    pending = []
                    task?.cancel()
                } else {
                    pending.append(message)
                    bytes += message.utf8.count
                }
                defer { waiter = nil }
                return (waiter, !closed)
            }
            resume?.resume()
            return ok
        }

        fileprivate func close() {
            let resume: CheckedContinuation<Void, Never>? = condition.withLock {
                closed = true
                task?.cancel()
                defer { waiter = nil }
                return waiter
            }
            resume?.resume()
        }

        /// The messages queued since the last call, waiting for some; nil once the client is closed.
        func next() async -> String? {
            while true {
                let batch: String?? = condition.withLock {
                    if !pending.isEmpty {
                        defer { pending = []; bytes = 0 }
                        return .some(pending.joined())
                    }
                    return closed ? .some(nil) : nil
                }
                if let batch { return batch }
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let now: Bool = condition.withLock {
                        if closed || !pending.isEmpty { return true }
                        waiter = c
                        return false
                    }
                    if now { c.resume() }
                }
            }
        }

        /// Runs `body` (the writing loop) so that a drop cancels it.
        func cancellable<T>(_ body: () async throws -> T) async rethrows -> T {
            try await withUnsafeCurrentTask { current in
                condition.withLock { task = current; if closed { current?.cancel() } }
                defer { condition.withLock { task = nil } }
                return try await body()
            }
        }
    }

    let capacity: Int
    private let logger: Logger
    private let lock = NSLock()
    private var clients: [ObjectIdentifier: Client] = [:]
    private var droppedCount = 0

    init(capacity: Int, logger: Logger) {
        self.capacity = capacity
        self.logger = logger
    }

    var hasClients: Bool { lock.withLock { !clients.isEmpty } }
    /// Pages dropped so far for falling behind.
    var dropped: Int { lock.withLock { droppedCount } }

    func connect() -> Client {
        let c = Client()
        lock.withLock { clients[ObjectIdentifier(c)] = c }
        return c
    }

    func disconnect(_ c: Client) {
        c.close()
        lock.withLock { _ = clients.removeValue(forKey: ObjectIdentifier(c)) }
    }

    /// Ends every stream (shutdown).
    func closeAll() {
        for c in lock.withLock({ Array(clients.values) }) { disconnect(c) }
    }

    /// An event line of the stream, as the default ("message") event.
    func deliver(line: String) { send(event: nil, data: line) }

    /// One SSE message to every page; `data` is one line of JSON.
    func send(event: String?, data: String) {
        let targets = lock.withLock { Array(clients.values) }
        guard !targets.isEmpty else { return }
        let message = (event.map { "event: \($0)\n" } ?? "") + "data: \(data)\n\n"
        for c in targets where !c.push(message, capacity: capacity) {
            let n: Int = lock.withLock {
                clients.removeValue(forKey: ObjectIdentifier(c))
                droppedCount += 1
                return droppedCount
            }
            logger.warning("web: a page fell \(capacity) bytes behind its event stream and was dropped (\(n) so far); it may reconnect")
        }
    }
}
