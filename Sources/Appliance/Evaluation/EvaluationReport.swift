/// The evaluation as people read it (a line a clip, then the totals) and as scripts read it (a JSON object
/// a line, keys in a fixed order, like the event stream). docs/accuracy.md explains every field.
enum EvaluationReport {
    // MARK: text

    static func text(_ r: ClipReport) -> String {
        let g = r.gestures
        var line = "\(r.name.padding(toLength: max(24, r.name.count), withPad: " ", startingAt: 0))"
            + " face \(percent(r.faceFraction))  nod \(counts(g.nod))  shake \(counts(g.shake))"
            + "  look \(counts(g.look)) wrong \(g.wrongDirection)"
            + "  talking \(EventJSON.number(g.talkingMinutes, 2)) min false \(g.falseInTalking)"
        if let p = r.pose {
            line += "  pose rms yaw \(EventJSON.number(p.rmsYaw, 1)) pitch \(EventJSON.number(p.rmsPitch, 1))"
                + " cross-talk \(p.crossTalk.map { EventJSON.number($0, 1) } ?? "-")"
        }
        let missed = frames("nod", g.nod.missedAt, why: g.nod.missedWhy) + frames("shake", g.shake.missedAt, why: g.shake.missedWhy)
            + frames("look", g.look.missedAt)
        let spurious = frames("nod", g.nod.falseAt) + frames("shake", g.shake.falseAt) + frames("look", g.look.falseAt)
        if !missed.isEmpty { line += "  missed " + missed.joined(separator: " ") }
        if !spurious.isEmpty { line += "  false " + spurious.joined(separator: " ") }
        if !g.wrongDirectionAt.isEmpty { line += "  wrong " + frames("look", g.wrongDirectionAt).joined(separator: " ") }
        let repeated = frames("nod", g.nod.repeatedAt) + frames("shake", g.shake.repeatedAt)
        if !repeated.isEmpty { line += "  repeated " + repeated.joined(separator: " ") }
        return line
    }

    static func text(_ t: EvaluationTotals) -> String {
        let g = t.gestures
        var line = "totals (\(t.clips) clip\(t.clips == 1 ? "" : "s")): face \(percent(t.faceFraction)); nod \(counts(g.nod));"
            + " shake \(counts(g.shake)); look \(counts(g.look)), wrong direction \(g.wrongDirection);"
            + " false nod/shake in talking \(g.falseInTalking) in \(EventJSON.number(g.talkingMinutes, 2)) min"
            + (g.falseInTalkingPerMinute.map { " (\(EventJSON.number($0, 2))/min)" } ?? "")
            + "; nods and shakes repeated \(g.nod.repeated + g.shake.repeated)"
        if let yaw = t.medianRmsYaw, let pitch = t.medianRmsPitch {
            line += "; pose rms yaw \(EventJSON.number(yaw, 1)) pitch \(EventJSON.number(pitch, 1)) (median of \(t.poseClips) clips)"
                + ", worst cross-talk \(t.worstCrossTalk.map { EventJSON.number($0, 1) } ?? "-")"
        }
        let swings = g.nod + g.shake
        if let median = swings.medianDelay, let worst = swings.worstDelay {
            line += "; nods and shakes reported \(EventJSON.number(median, 2)) s after their end (median), \(EventJSON.number(worst, 2)) s at worst"
        }
        return line
    }

    /// "3/4 false 1": found of labelled, then false events.
    private static func counts(_ k: KindScore) -> String { "\(k.found)/\(k.segments) false \(k.falseEvents)" }
    private static func percent(_ f: Double) -> String { EventJSON.number(f * 100, 1) + "%" }
    private static func frames(_ kind: String, _ at: [Int], why: [String] = []) -> [String] {
        at.enumerated().map { i, f in "\(kind)@\(f)" + (i < why.count && !why[i].isEmpty ? "(\(why[i]))" : "") }
    }

    // MARK: JSON

    static func json(_ r: ClipReport) -> String {
        let g = r.gestures
        var fields: [(String, String)] = [
            ("type", "\"clip\""), ("name", EventJSON.quoted(r.name)), ("frames", "\(r.frames)"),
            ("frames_processed", "\(r.framesProcessed)"), ("frames_with_face", "\(r.framesWithFace)"), ("face_fraction", EventJSON.number(r.faceFraction, 4)),
            ("nod", kind(g.nod, at: true)), ("shake", kind(g.shake, at: true)),
            ("look", kind(g.look, at: true, wrong: (g.wrongDirection, g.wrongDirectionAt))), ("talking", talking(g)),
        ]
        fields.append(("pose", r.pose.map { p in
            object([("frames", "\(p.frames)"), ("truth_frames", "\(p.truthFrames)"),
                    ("offset", object([("yaw", EventJSON.number(p.offset.yaw, 2)), ("pitch", EventJSON.number(p.offset.pitch, 2))])),
                    ("rms_yaw", EventJSON.number(p.rmsYaw, 2)), ("rms_pitch", EventJSON.number(p.rmsPitch, 2)),
                    ("cross_talk", p.crossTalk.map { EventJSON.number($0, 2) } ?? "null")])
        } ?? "null"))
        return object(fields)
    }

    static func json(_ t: EvaluationTotals) -> String {
        let g = t.gestures
        let pose = t.poseClips == 0 ? "null" : object([
            ("clips", "\(t.poseClips)"), ("median_rms_yaw", t.medianRmsYaw.map { EventJSON.number($0, 2) } ?? "null"),
            ("median_rms_pitch", t.medianRmsPitch.map { EventJSON.number($0, 2) } ?? "null"),
            ("worst_cross_talk", t.worstCrossTalk.map { EventJSON.number($0, 2) } ?? "null"),
        ])
        return object([
            ("type", "\"totals\""), ("clips", "\(t.clips)"), ("frames", "\(t.frames)"),
            ("frames_processed", "\(t.framesProcessed)"), ("frames_with_face", "\(t.framesWithFace)"),
            ("face_fraction", EventJSON.number(t.faceFraction, 4)), ("nod", kind(g.nod, at: false)), ("shake", kind(g.shake, at: false)),
            ("look", kind(g.look, at: false, wrong: (g.wrongDirection, nil))), ("talking", talking(g)), ("pose", pose),
        ])
    }

    private static func kind(_ k: KindScore, at: Bool, wrong: (Int, [Int]?)? = nil) -> String {
        var f = [("segments", "\(k.segments)"), ("found", "\(k.found)"), ("missed", "\(k.missed)"), ("false", "\(k.falseEvents)")]
        if let wrong {
            f.append(("wrong_direction", "\(wrong.0)"))
        } else {
            // Nods and shakes: reported again inside their windows, and how long after the labelled end they
            // were reported (looks wait by design).
            f.append(("repeated", "\(k.repeated)"))
            f.append(("delay_median", k.medianDelay.map { EventJSON.number($0, 3) } ?? "null"))
            f.append(("delay_worst", k.worstDelay.map { EventJSON.number($0, 3) } ?? "null"))
        }
        if at {
            f.append(("missed_at", list(k.missedAt)))
            if wrong == nil { f.append(("missed_why", "[" + k.missedWhy.map(EventJSON.quoted).joined(separator: ",") + "]")) }
            f.append(("false_at", list(k.falseAt)))
            if let frames = wrong?.1 { f.append(("wrong_direction_at", list(frames))) } else { f.append(("repeated_at", list(k.repeatedAt))) }
        }
        return object(f)
    }

    private static func talking(_ g: GestureScore) -> String {
        object([("minutes", EventJSON.number(g.talkingMinutes, 3)), ("false", "\(g.falseInTalking)"),
                ("false_per_minute", g.falseInTalkingPerMinute.map { EventJSON.number($0, 2) } ?? "null")])
    }

    private static func list(_ v: [Int]) -> String { "[" + v.map(String.init).joined(separator: ",") + "]" }
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}
