import Foundation
import Gestures
import Pipeline

/// The head samples of the frames the loop processes, kept while a guided fit on the setup page records
/// them. The loop only appends under a lock (never waits on the web side); the record is bounded, so a
/// session nobody finishes cannot grow without end.
final class SampleTap: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [HeadSample] = []
    /// About three minutes at 30 frames a second: longer than any guided session.
    static let limit = 6000

    /// Where the frames go too, when the session is kept as a clip.
    let clip: SessionClipWriter?

    init(clip: SessionClipWriter? = nil) {
        self.clip = clip
        samples.reserveCapacity(1024)
    }

    func add(_ s: HeadSample, frame: LumaFrame) {
        let kept: Bool = lock.withLock {
            guard samples.count < Self.limit else { return false }
            samples.append(s)
            return true
        }
        if kept { clip?.offer(frame) }
    }

    var count: Int { lock.withLock { samples.count } }
    var first: HeadSample? { lock.withLock { samples.first } }
    var last: HeadSample? { lock.withLock { samples.last } }
    var all: [HeadSample] { lock.withLock { samples } }
}
