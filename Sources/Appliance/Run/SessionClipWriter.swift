import Foundation
import Pipeline

/// Keeps the frames of a guided fit as a YUV4MPEG2 clip, on a thread of its own: the frame loop only
/// hands over a frame (a queue of `capacity`; when the disk falls behind, frames are dropped, never
/// waited for). The times of the frames written are kept, so the prompts can be written beside them as a
/// labelled timeline when the session ends. The loop hands over frames at its processing rate, which the
/// budget governor may change during the session, so the header's rate is set at the end from the frames'
/// own times (`frameRate` is a first guess until then).
final class SessionClipWriter: @unchecked Sendable {
    let path: String
    private(set) var frameRate: Double
    static let capacity = 8
    private let condition = NSCondition()
    private var queue: [LumaFrame] = []
    private var finishing = false
    private var finished = false
    private(set) var dropped = 0
    private var written: [Double] = []
    private var failure: String?
    private var thread: Thread?

    init(path: String, frameRate: Double) {
        self.path = path
        self.frameRate = frameRate
        let t = Thread { [weak self] in self?.drain() }
        t.name = "nodwire session clip"
        thread = t
        t.start()
    }

    /// From the frame loop: never blocks on the disk.
    func offer(_ frame: LumaFrame) {
        condition.lock()
        defer { condition.unlock() }
        guard !finishing else { return }
        if queue.count >= Self.capacity { dropped += 1; return }
        queue.append(frame)
        condition.signal()
    }

    /// Waits for what was queued to be written; the times of the frames in the clip, or why it failed.
    func finish() -> Result<[Double], ClipFailure> {
        condition.lock()
        finishing = true
        condition.broadcast()
        while !finished { condition.wait() }
        defer { condition.unlock() }
        if let failure { return .failure(ClipFailure(message: failure)) }
        return .success(written)
    }

    struct ClipFailure: Error { var message: String }

    private func drain() {
        var writer: Y4MWriter?
        while true {
            condition.lock()
            while queue.isEmpty && !finishing { condition.wait() }
            if queue.isEmpty && finishing {
                if var w = writer, failure == nil, let rate = Y4MWriter.rate(ofFrameTimes: written) {
                    do { try w.setFrameRate(rate); frameRate = rate } catch { failure = "\(path): \(error)" }
                }
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let frame = queue.removeFirst()
            let failed = failure != nil
            condition.unlock()
            guard !failed else { continue }
            do {
                if writer == nil {
                    writer = try Y4MWriter(path: path, width: frame.width, height: frame.height, frameRate: frameRate, rateSetLater: true)
                }
                try writer!.write(frame)
                condition.lock(); written.append(frame.time); condition.unlock()
            } catch {
                condition.lock(); failure = "\(path): \(error)"; condition.unlock()
            }
        }
    }
}
