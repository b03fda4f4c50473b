import Gestures

/// A guided fit's proposal as a person reads it (terminal or page) and as config keys to save.
struct FitReport {
    let proposal: FitProposal
    let current: GestureSettings

    /// The settings the fit decides, each with its current and proposed value.
    var changes: [(key: String, old: ConfigValue, new: ConfigValue)] {
        let (a, b) = (current, proposal.settings)
        var out: [(String, ConfigValue, ConfigValue)] = [
            ("gestures.zones.idle_yaw", .double(a.zones.idleYaw), .double(b.zones.idleYaw)),
            ("gestures.zones.idle_pitch", .double(a.zones.idlePitch), .double(b.zones.idlePitch)),
            ("gestures.zones.threshold_yaw", .double(a.zones.thresholdYaw), .double(b.zones.thresholdYaw)),
            ("gestures.zones.threshold_pitch", .double(a.zones.thresholdPitch), .double(b.zones.thresholdPitch)),
        ]
        for (name, x, y) in [("nod", a.nod, b.nod), ("shake", a.shake, b.shake)] {
            out += [("gestures.\(name).min_amplitude", .double(x.minAmplitude), .double(y.minAmplitude)),
                    ("gestures.\(name).single", .bool(x.single), .bool(y.single)),
                    ("gestures.\(name).single_range", .double(x.singleRange), .double(y.singleRange)),
                    ("gestures.\(name).max_stroke", .double(x.maxStroke), .double(y.maxStroke)),
                    ("gestures.\(name).max_hold", .double(x.maxHold), .double(y.maxHold))]
        }
        return out.map { (key: $0.0, old: $0.1, new: $0.2) }
    }

    /// What `--save` writes: the settings the fit changed, nothing else (a value it kept stays a default,
    /// or whatever the file says).
    var values: [(key: String, value: ConfigValue)] { changes.filter { $0.old != $0.new }.map { ($0.key, $0.new) } }

    var text: String {
        let m = proposal.measures, s = proposal.score
        func f(_ v: Double) -> String { EventJSON.number(v, 1) }
        var lines = [
            "neutral: yaw \(f(m.neutral.yaw))°, pitch \(f(m.neutral.pitch))°; rest noise (rms) yaw \(f(m.restNoise.yaw))°, pitch \(f(m.restNoise.pitch))°",
            "reach from neutral: left \(f(m.reach.left))°, right \(f(m.reach.right))°, up \(f(m.reach.up))°, down \(f(m.reach.down))°",
            "nod strokes: \(m.nodStroke.map { f($0) + "°" } ?? "none seen")\(m.nodStrokeTime.map { ", the slowest " + f($0) + " s" } ?? "")"
                + "\(m.nodStopTime.map { ", stopping up to " + f($0) + " s at the bottom" } ?? "");"
                + " shake strokes: \(m.shakeStroke.map { f($0) + "°" } ?? "none seen")\(m.shakeStrokeTime.map { ", the slowest " + f($0) + " s" } ?? "")"
                + "\(m.shakeStopTime.map { ", stopping up to " + f($0) + " s at the sides" } ?? "")",
            m.talked ? "talking: largest stroke pitch \(f(m.talkPitchStroke))°, yaw \(f(m.talkYawStroke))°; went yaw \(f(m.talkOffset.yaw))°, pitch \(f(m.talkOffset.pitch))° from rest"
                     : "talking: not recorded (no margin for it could be measured)",
        ]
        lines += proposal.notes.map { "note: " + $0 }
        lines.append("proposed (current → proposed):")
        for c in changes { lines.append("  \(c.key) = \(c.new.text)" + (c.old == c.new ? "" : "   (was \(c.old.text))")) }
        let found = s.found.map(\.rawValue), missed = s.missed.map(\.rawValue)
        lines.append("this session with the proposal: found \(found.count) of \(found.count + missed.count) prompted gestures"
                     + (missed.isEmpty ? "" : " (missed: \(missed.joined(separator: ", ")))")
                     + "; \(s.falseWhileTalking) event(s) while talking, \(s.falseElsewhere) nod/shake where none was asked")
        for step in s.missed { if let u = s.whyMissed[step] { lines.append("  \(step.rawValue) prompt: \(u.sentence)") } }
        return lines.joined(separator: "\n")
    }

    /// The same for the setup page.
    var json: String {
        let m = proposal.measures, s = proposal.score
        func n(_ v: Double) -> String { EventJSON.number(v, 2) }
        let changeList = changes.map { "{\"key\":\"\($0.key)\",\"old\":\($0.old.text),\"new\":\($0.new.text)}" }.joined(separator: ",")
        let notes = proposal.notes.map { ConfigValue.quoted($0) }.joined(separator: ",")
        return "{\"neutral\":{\"yaw\":\(n(m.neutral.yaw)),\"pitch\":\(n(m.neutral.pitch))},"
            + "\"reach\":{\"left\":\(n(m.reach.left)),\"right\":\(n(m.reach.right)),\"up\":\(n(m.reach.up)),\"down\":\(n(m.reach.down))},"
            + "\"nod_stroke\":\(m.nodStroke.map(n) ?? "null"),\"shake_stroke\":\(m.shakeStroke.map(n) ?? "null"),"
            + "\"nod_stroke_time\":\(m.nodStrokeTime.map(n) ?? "null"),\"shake_stroke_time\":\(m.shakeStrokeTime.map(n) ?? "null"),"
            + "\"nod_stop_time\":\(m.nodStopTime.map(n) ?? "null"),\"shake_stop_time\":\(m.shakeStopTime.map(n) ?? "null"),"
            + "\"changes\":[\(changeList)],\"notes\":[\(notes)],"
            + "\"found\":[\(s.found.map { "\"\($0.rawValue)\"" }.joined(separator: ","))],"
            + "\"missed\":[\(s.missed.map { "\"\($0.rawValue)\"" }.joined(separator: ","))],"
            + "\"why_missed\":{\(s.missed.compactMap { step in s.whyMissed[step].map { "\"\(step.rawValue)\":\(ConfigValue.quoted($0.sentence))" } }.joined(separator: ","))},"
            + "\"false_while_talking\":\(s.falseWhileTalking),\"false_elsewhere\":\(s.falseElsewhere)}"
    }
}
