import Foundation

/// The status as JSON fields, shared by the MQTT status document and the setup page's /api/status:
/// rates over the span between two snapshots, the rest as of the newer one.
enum StatusJSON {
    static func fields(previous: FrameLoopSnapshot, current: FrameLoopSnapshot, seconds: Double, cpuSeconds: Double) -> [(String, String)] {
        let frames = current.frames - previous.frames
        let g = current.governor
        let state = current.commandPaused || g?.mode == .paused ? "paused" : current.sourceProblem != nil ? "no_frames" : current.lastFrameAt == nil ? "starting" : "running"
        return [
            ("state", EventJSON.quoted(state)),
            ("fps", EventJSON.number(seconds > 0 ? Double(frames) / seconds : 0, 1)),
            ("cpu_percent", EventJSON.number(seconds > 0 ? 100 * cpuSeconds / seconds : 0, 1)),
            ("budget_percent", optional(g?.budgetPercent, 1)),
            ("mode", g.map { EventJSON.quoted($0.mode.rawValue) } ?? "null"),
            ("battery_percent", optional(g?.batteryPercent, 0)),
            ("celsius", optional(g?.celsius, 1)),
            ("camera", EventJSON.quoted(current.sourceProblem == nil ? "ok" : "lost")),
            ("camera_problem", current.sourceProblem.map(EventJSON.quoted) ?? "null"),
            ("face_present", current.face == .none ? "false" : "true"),
            ("calibrated", current.face == .tracked ? "true" : "false"),
            ("frames", String(current.frames)),
        ]
    }

    static func optional(_ v: Double?, _ decimals: Int) -> String { v.map { EventJSON.number($0, decimals) } ?? "null" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
