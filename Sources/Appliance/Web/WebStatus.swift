import Foundation
import Gestures
import Pipeline

/// What the page shows of the appliance, read from the frame loop's snapshot and the output runner (as
/// the status line and the MQTT status are): the status document with rates over the last one to two
/// seconds, the head's pose, and pulses on request.
final class WebStatus: @unchecked Sendable {
    let loop: any LoopView
    let outputs: OutputRunner?
    /// Outputs a page may pulse (the status LED follows its patterns, not requests).
    let pulsable: [String]
    let sourceName: String
    let hub: WebHub
    let auth: WebAuth
    private let lock = NSLock()
    /// Rates are measured from `older` (one to two seconds back); `tick()` moves both along.
    private var older: (snapshot: FrameLoopSnapshot, at: Double, cpu: Double)
    private var newer: (snapshot: FrameLoopSnapshot, at: Double, cpu: Double)

    init(loop: any LoopView, outputs: OutputRunner?, pulsable: [String], sourceName: String, hub: WebHub, auth: WebAuth) {
        self.loop = loop
        self.outputs = outputs
        self.pulsable = pulsable
        self.sourceName = sourceName
        self.hub = hub
        self.auth = auth
        let start = (loop.current, MonotonicClock.now(), ProcessCPUClock.now())
        (older, newer) = (start, start)
    }

    /// About once a second.
    func tick() {
        let now = (loop.current, MonotonicClock.now(), ProcessCPUClock.now())
        lock.withLock { (older, newer) = (newer, now) }
    }

    func json() -> String {
        let base = lock.withLock { older }
        let current = loop.current
        let (now, cpu) = (MonotonicClock.now(), ProcessCPUClock.now())
        let z = current.zones
        let names = outputs?.names ?? []
        let values = outputs?.values ?? []
        let list = names.indices.map { i in
            "{\"name\":\(EventJSON.quoted(names[i])),\"value\":\(values[i] ? 1 : 0),\"pulsable\":\(pulsable.contains(names[i]))}"
        }
        return StatusJSON.object(StatusJSON.fields(previous: base.snapshot, current: current, seconds: now - base.at, cpuSeconds: cpu - base.cpu) + [
            ("source", EventJSON.quoted(sourceName)),
            ("calibrating", current.face == .calibrating ? "true" : "false"),
            ("neutral", Self.angles(current.neutral)),
            ("zones", "{\"idle_yaw\":\(EventJSON.number(z.idleYaw, 1)),\"idle_pitch\":\(EventJSON.number(z.idlePitch, 1)),\"threshold_yaw\":\(EventJSON.number(z.thresholdYaw, 1)),\"threshold_pitch\":\(EventJSON.number(z.thresholdPitch, 1)),"
                + "\"held_share_yaw\":\(EventJSON.number(z.heldShareYaw, 2)),\"held_share_pitch\":\(EventJSON.number(z.heldSharePitch, 2)),"
                + "\"held_for\":\(EventJSON.number(z.heldFor, 2))}"),
            ("outputs", "[" + list.joined(separator: ",") + "]"),
            ("token_required", auth.needsToken ? "true" : "false"),
            ("web_dropped", String(hub.dropped)),
        ])
    }

    /// The head at the last processed frame: `{"time":…,"pose":{"yaw":…,"pitch":…}|null,"neutral":…|null}`.
    static func poseJSON(_ s: FrameLoopSnapshot) -> String {
        "{\"time\":\(EventJSON.number(s.frameTime, 3)),\"pose\":\(angles(s.face == .none ? nil : s.pose)),\"neutral\":\(angles(s.neutral))}"
    }

    /// What was seen in a picture: `{"time":…,"width":…,"height":…,"face":{"box":[l,t,r,b],"landmarks":[[x,y]…],"pointer":[x,y],"contrast":…,"dim":…}|null}`.
    static func faceJSON(_ p: LoopPicture) -> String {
        func n(_ v: Double) -> String { EventJSON.number(v, 1) }
        let face = p.face.map { f in
            let marks = (0..<5).map { "[\(n(f.landmarks[$0].x)),\(n(f.landmarks[$0].y))]" }.joined(separator: ",")
            return "{\"box\":[\(n(f.box.left)),\(n(f.box.top)),\(n(f.box.right)),\(n(f.box.bottom))],\"landmarks\":[\(marks)],\"pointer\":[\(n(f.pose.pointer.x)),\(n(f.pose.pointer.y))],"
                + "\"contrast\":\(n(f.contrast)),\"dim\":\(f.dim)}"
        } ?? "null"
        return "{\"time\":\(EventJSON.number(p.frame.time, 3)),\"width\":\(p.frame.width),\"height\":\(p.frame.height),\"face\":\(face)}"
    }

    static func angles(_ a: Angles?) -> String {
        a.map { "{\"yaw\":\(EventJSON.number($0.yaw, 2)),\"pitch\":\(EventJSON.number($0.pitch, 2))}" } ?? "null"
    }

    struct Reply { var ok: Bool; var message: String }

    /// A pulse on output `name` for `ms` (as `nodwire gpio test` does).
    func pulse(_ name: String, ms: Int) -> Reply {
        guard let outputs, pulsable.contains(name), let index = outputs.names.firstIndex(of: name) else {
            return Reply(ok: false, message: "\(EventJSON.quoted(name)) is not an output that can be pulsed (there are: \(pulsable.joined(separator: ", ")))")
        }
        do { try outputs.pulse(index, ms: ms, cause: "web pulse") } catch { return Reply(ok: false, message: "\(error)") }
        return Reply(ok: true, message: "\(name) pulsed for \(ms) ms")
    }
}
