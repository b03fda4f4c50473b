import Foundation
import Gestures

/// The true head pose of each frame of a synthetic clip: CSV with a header naming at least `frame`, `yaw`
/// and `pitch` (degrees, Nodwire's signs: the person's own right and up are positive).
struct PoseTruth: Equatable, Sendable {
    var poses: [Int: Angles]

    static func read(path: String) throws(EvaluationError) -> PoseTruth {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badTruth(file: path, line: nil, reason: "cannot read it")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path)
    }

    static func parse(_ text: String, file: String) throws(EvaluationError) -> PoseTruth {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let header = lines.first, !header.isEmpty else {
            throw .badTruth(file: file, line: 1, reason: "empty; expected a header frame,yaw,pitch,...")
        }
        let names = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var column: [String: Int] = [:]
        for key in ["frame", "yaw", "pitch"] {
            guard let i = names.firstIndex(of: key) else {
                throw .badTruth(file: file, line: 1, reason: "no \(key) column in the header \"\(header)\"")
            }
            column[key] = i
        }
        var poses: [Int: Angles] = [:]
        for (n, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == names.count else {
                throw .badTruth(file: file, line: n + 1, reason: "\(fields.count) fields where the header has \(names.count)")
            }
            guard let frame = Int(fields[column["frame"]!]), frame >= 0 else {
                throw .badTruth(file: file, line: n + 1, reason: "frame \"\(fields[column["frame"]!])\" is not a frame number")
            }
            guard let yaw = Double(fields[column["yaw"]!]), let pitch = Double(fields[column["pitch"]!]),
                  yaw.isFinite, pitch.isFinite else {
                throw .badTruth(file: file, line: n + 1, reason: "yaw and pitch must be numbers (degrees)")
            }
            guard poses[frame] == nil else { throw .badTruth(file: file, line: n + 1, reason: "frame \(frame) again") }
            poses[frame] = Angles(yaw: yaw, pitch: pitch)
        }
        return PoseTruth(poses: poses)
    }
}
