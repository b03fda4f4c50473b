import Foundation
import Logging
import Pipeline
import ServiceLifecycle

/// The MQTT link as a service of `nodwire run`: starts it, publishes the status (retained) every
/// `status_interval` seconds and at once when something a dashboard shows changes, and on shutdown, which
/// comes after the frame loop's, sends what is left, publishes "offline" and disconnects.
struct MQTTService: Service {
    let link: MQTTLink
    let loop: FrameLoop
    let logger: Logger

    func run() async throws {
        let (link, loop) = (self.link, self.loop)
        link.start()
        do {
            try await cancelWhenGracefulShutdown {
                var previous = loop.current
                var previousAt = MonotonicClock.now()
                var previousCPU = ProcessCPUClock.now()
                var lastSent: MQTTStatus.Key?
                var lastSentAt = -Double.infinity
                while true {
                    let now = MonotonicClock.now()
                    let current = loop.current
                    let key = MQTTStatus.Key(current, link.currentHealth.connected)
                    if key != lastSent || now - lastSentAt >= link.settings.statusInterval {
                        let cpu = ProcessCPUClock.now()
                        link.publishState(topic: link.statusTopic, payload: MQTTStatus.json(
                            previous: previous, current: current, seconds: now - previousAt, cpuSeconds: cpu - previousCPU, link: link))
                        (lastSent, lastSentAt) = (key, now)
                        // Rates over at least a second, so a change-triggered status does not report a 0.1 s blip.
                        if now - previousAt >= 1 { (previous, previousAt, previousCPU) = (current, now, cpu) }
                    }
                    try await Task.sleep(nanoseconds: 250_000_000)
                }
            }
        } catch is CancellationError {}
        // Up to a few seconds of goodbye: on a thread of its own, not one of the concurrency pool's.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { link.stop(); done.resume() }.start()
        }
    }
}

/// The retained status document at `<prefix>/status`.
enum MQTTStatus {
    /// What is sent at once when it changes.
    struct Key: Equatable {
        var face: FrameLoopSnapshot.Face
        var sourceProblem: String?
        var mode: String?
        var commandPaused: Bool
        var connected: Bool

        init(_ s: FrameLoopSnapshot, _ connected: Bool) {
            face = s.face
            sourceProblem = s.sourceProblem
            mode = s.governor?.mode.rawValue
            commandPaused = s.commandPaused
            self.connected = connected
        }
    }

    static func json(previous: FrameLoopSnapshot, current: FrameLoopSnapshot, seconds: Double, cpuSeconds: Double, link: MQTTLink) -> String {
        let counters = link.counters
        return StatusJSON.object(StatusJSON.fields(previous: previous, current: current, seconds: seconds, cpuSeconds: cpuSeconds) + [
            ("mqtt_dropped", String(counters.dropped)),
            ("mqtt_stale", String(counters.stale)),
            ("mqtt_reconnects", String(max(0, link.currentHealth.connects - 1))),
        ])
    }
}
