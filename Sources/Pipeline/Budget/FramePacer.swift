/// Says whether the newest frame should be processed now, to hold a target rate. Frames are never queued:
/// a frame that is not due is dropped, and the next newest frame gets the next chance.
///
/// Due times advance by whole periods from the last one (not from the last frame), so 15 fps from a 25 fps
/// camera really is 15 fps on average instead of every second frame (12.5 fps).
public struct FramePacer: Sendable {
    private var nextDue: Double?
    private var lastProcessed: Double?
    private var period = 0.0
    /// Frames this early still count as due (timestamps jitter by a little).
    static let tolerance = 0.001

    public init() {}

    public mutating func shouldProcess(at time: Double, rate: Double) -> Bool {
        guard rate > 0 else { nextDue = nil; return false }
        let newPeriod = 1 / rate
        if newPeriod != period {
            // A new rate counts from the last processed frame, not from a due time set for the old rate.
            period = newPeriod
            if let lastProcessed { nextDue = lastProcessed + period }
        }
        if let due = nextDue, time + Self.tolerance < due { return false }
        let due = nextDue ?? time
        // More than a period behind (after a pause or a slow frame): start again from now, no catching up.
        nextDue = time - due > period ? time + period : due + period
        lastProcessed = time
        return true
    }
}
