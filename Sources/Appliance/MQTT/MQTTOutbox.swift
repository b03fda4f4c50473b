/// What waits for the broker. Events queue in order, at most `capacity` of them: when the broker is slow or
/// away the oldest are dropped (and counted), and one older than the age limit when its turn comes is
/// dropped too (counted as stale), so a reconnect never delivers an old "yes". State topics (status, output
/// values) keep only their newest value: after an outage the broker hears how things are, not how they were.
struct MQTTOutbox {
    struct Message: Equatable {
        var topic: String
        var payload: String
        var retain: Bool
        /// MonotonicClock seconds when it was queued.
        var queuedAt: Double
    }

    let capacity: Int
    private var events: [Message] = []
    private var head = 0
    /// Newest value of each state topic not yet sent, and the order the topics first became pending.
    private var state: [String: Message] = [:]
    private var stateOrder: [String] = []
    private(set) var dropped = 0
    private(set) var stale = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var pendingEvents: Int { events.count - head }
    var isEmpty: Bool { pendingEvents == 0 && stateOrder.isEmpty }

    mutating func push(event: Message) {
        if pendingEvents >= capacity {
            head += 1
            dropped += 1
        }
        if head > 64 && head * 2 > events.count {
            events.removeFirst(head)
            head = 0
        }
        events.append(event)
    }

    mutating func push(state message: Message) {
        if state.updateValue(message, forKey: message.topic) == nil { stateOrder.append(message.topic) }
    }

    /// The next message to send: state first (small, and what a dashboard shows), then the oldest event
    /// not older than `maxAge` at `now`.
    mutating func next(now: Double, maxAge: Double) -> Message? {
        if !stateOrder.isEmpty {
            let topic = stateOrder.removeFirst()
            return state.removeValue(forKey: topic)
        }
        while head < events.count {
            let m = events[head]
            head += 1
            if head == events.count { events.removeAll(keepingCapacity: true); head = 0 }
            if now - m.queuedAt > maxAge { stale += 1; continue }
            return m
        }
        return nil
    }
}
