import Foundation
import Gestures

/// The head samples of the frames the loop processes, kept while a guided fit on the setup page records
/// them. The loop only appends under a lock (never waits on the web side); the record is bounded, so a
/// session nobody finishes cannot grow without end.
final class SampleTap: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [HeadSample] = []
    /// About three minutes at 30 frames a second: longer than any guided session.
    static let limit = 6000

    init() { samples.reserveCapacity(1024) }

    func add(_ s: HeadSample) {
        lock.withLock { if samples.count < Self.limit { samples.append(s) } }
    }

    var count: Int { lock.withLock { samples.count } }
    var first: HeadSample? { lock.withLock { samples.first } }
    var last: HeadSample? { lock.withLock { samples.last } }
    var all: [HeadSample] { lock.withLock { samples } }
}
