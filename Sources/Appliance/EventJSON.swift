import Gestures

/// One JSON object a line for each event: the stream `replay` prints and other programs read.
/// Keys come in a fixed order (frame, time, type, then the event's own), numbers with fixed precision.
enum EventJSON {
    static func line(_ e: GestureEvent) -> String {
        var fields: [(String, String)] = [("frame", String(e.frame)), ("time", number(e.time, 3)), ("type", quoted(e.kind.rawValue))]
        if let d = e.direction { fields.append(("direction", quoted(d.rawValue))) }
        if let d = e.distance { fields.append(("distance", number(d, 1))) }
        if let c = e.cycles { fields.append(("cycles", String(c))) }
        if let r = e.reason { fields.append(("reason", quoted(r))) }
        if let n = e.neutral { fields.append(("neutral", "{\"yaw\":\(number(n.yaw, 1)),\"pitch\":\(number(n.pitch, 1))}")) }
        if let o = e.offset { fields.append(("offset", "{\"yaw\":\(number(o.yaw, 1)),\"pitch\":\(number(o.pitch, 1))}")) }
        if let p = e.pointer { fields.append(("pointer", "{\"x\":\(number(p.x, 1)),\"y\":\(number(p.y, 1))}")) }
        if let v = e.proportional {
            let parts = Direction.allCases.map { "\"\($0.rawValue)\":\(number(v[$0], 3))" }
            fields.append(("speed", "{" + parts.joined(separator: ",") + "}"))
        }
        if let u = e.unheard {
            // Not a nod / not a shake, the rule that said so and its numbers, the swing, and one sentence.
            fields.append(("not", quoted(u.kind.rawValue)))
            fields.append(("rule", quoted(u.rule.rawValue)))
            if let m = u.measured { fields.append(("measured", number(m, 2))) }
            if let a = u.allowed { fields.append(("allowed", number(a, 2))) }
            if let s = u.setting { fields.append(("setting", quoted(s))) }
            fields.append(("range", number(u.range, 1)))
            fields.append(("start", number(u.start, 3)))
            fields.append(("end", number(u.end, 3)))
            fields.append(("why", quoted(u.sentence)))
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A line of the stream that is not a gesture: what happened to the source or the loop
    /// (`camera_lost`, `camera_found`, `paused`, `resumed`), with why.
    static func line(_ type: String, frame: Int, time: Double, reason: String? = nil) -> String {
        var s = "{\"frame\":\(frame),\"time\":\(number(time, 3)),\"type\":\(quoted(type))"
        if let reason { s += ",\"reason\":\(quoted(reason))" }
        return s + "}"
    }

    /// JSON strings escape as TOML basic strings do.
    static func quoted(_ s: String) -> String { ConfigValue.quoted(s) }

    static func number(_ v: Double, _ decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (v * scale).rounded() / scale
        let text = String(r == 0 ? 0 : r)   // no "-0.0"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
