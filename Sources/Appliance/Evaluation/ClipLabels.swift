import Foundation
import Gestures

/// What happens in a labelled stretch of a clip. Look labels name where the nose goes in the picture;
/// Nodwire reports the person's own direction (docs/accuracy.md).
enum SegmentLabel: String, CaseIterable, Sendable {
    case nod, shake
    case turnNoseToImageLeft = "turn_nose_to_image_left", turnNoseToImageRight = "turn_nose_to_image_right"
    case lookUp = "look_up", lookDown = "look_down"
    case none
    case noneTalking = "none_talking", noneExpression = "none_expression", noneLateralLean = "none_lateral_lean"

    /// The direction a look in this segment must report. The clips are not mirrored, so the nose going to
    /// the image's left is the person turning to their right.
    var lookDirection: Direction? {
        switch self {
        case .turnNoseToImageLeft: return .right
        case .turnNoseToImageRight: return .left
        case .lookUp: return .up
        case .lookDown: return .down
        default: return nil
        }
    }

    /// The head or body moves a lot without meaning anything: where a false nod or shake hurts most.
    var isTalking: Bool { self == .noneTalking || self == .noneExpression || self == .noneLateralLean }
}

/// One labelled stretch: frames `start...end`, 0-based and inclusive.
struct LabelSegment: Equatable, Sendable {
    var label: SegmentLabel
    var start: Int
    var end: Int

    var frameCount: Int { end - start + 1 }
    func contains(_ frame: Int) -> Bool { start <= frame && frame <= end }
}

/// A clip's timeline, as `{"segments":[{"label","start","end"}]}` (other keys are ignored).
struct ClipLabels: Equatable, Sendable {
    var segments: [LabelSegment]

    /// The timeline from frame `first` on, for a replay that begins there: what ended before is gone, and a
    /// segment that began before begins there.
    func from(frame first: Int) -> ClipLabels {
        ClipLabels(segments: segments.compactMap { s in
            s.end < first ? nil : LabelSegment(label: s.label, start: max(s.start, first), end: s.end)
        })
    }

    /// Where a clip's labels lie: NAME.labels.json beside NAME.y4m.
    static func path(beside video: String) -> String {
        (video.hasSuffix(".y4m") ? String(video.dropLast(4)) : video) + ".labels.json"
    }

    static func read(path: String) throws(EvaluationError) -> ClipLabels {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badLabels(file: path, reason: "cannot read it")
        }
        return try parse(data, file: path)
    }

    static func parse(_ data: Data, file: String) throws(EvaluationError) -> ClipLabels {
        // Frames are read as numbers and checked here: Foundation calls 3.5 where an Int belongs "not valid JSON".
        struct Raw: Decodable { var label: String; var start: Double; var end: Double }
        struct RawFile: Decodable { var segments: [Raw] }
        let raw: RawFile
        do { raw = try JSONDecoder().decode(RawFile.self, from: data) } catch let error as DecodingError {
            throw .badLabels(file: file, reason: describe(error))
        } catch {
            throw .badLabels(file: file, reason: "\(error)")
        }
        var segments: [LabelSegment] = []
        for (i, s) in raw.segments.enumerated() {
            guard let label = SegmentLabel(rawValue: s.label) else {
                let known = SegmentLabel.allCases.map(\.rawValue).joined(separator: ", ")
                throw .badLabels(file: file, reason: "segments[\(i)]: unknown label \"\(s.label)\"; known: \(known)")
            }
            for (key, value) in [("start", s.start), ("end", s.end)] where value.rounded() != value || abs(value) > 1e9 {
                throw .badLabels(file: file, reason: "segments[\(i)].\(key): \(value) is not a frame number")
            }
            let start = Int(s.start), end = Int(s.end)
            guard start >= 0, end >= start else {
                throw .badLabels(file: file, reason: "segments[\(i)] (\(s.label)): start \(start), end \(end); "
                                 + "frames are 0-based and inclusive, so 0 <= start <= end")
            }
            segments.append(LabelSegment(label: label, start: start, end: end))
        }
        return ClipLabels(segments: segments)
    }

    /// "segments[3].end: missing" rather than Foundation's account of coding keys.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "the file" : text)
        }
        switch error {
        case let .keyNotFound(key, context): return "\(path(context.codingPath + [key])): missing"
        case let .typeMismatch(type, context): return "\(path(context.codingPath)): not \(type == Double.self ? "a number" : "a \(type)")"
        case let .valueNotFound(type, context): return "\(path(context.codingPath)): null where a \(type) belongs"
        case let .dataCorrupted(context):
            let why = (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
            return context.codingPath.isEmpty ? "not JSON (\(why))" : "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
