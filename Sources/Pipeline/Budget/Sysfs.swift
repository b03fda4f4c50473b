import Foundation

/// A sysfs file that could not be used: missing, unreadable or holding something unexpected. Never fatal:
/// the loop runs on without that reading and says so once.
public struct SysfsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Small reads of sysfs-like folders, whose root is a setting (so tests use temporary folders).
enum Sysfs {
    /// The file's text without the trailing newline.
    static func text(_ path: String) -> Result<String, SysfsProblem> {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "missing"
            return .failure(SysfsProblem(path: path, reason: reason))
        }
        guard let s = String(data: data, encoding: .utf8) else { return .failure(SysfsProblem(path: path, reason: "not text")) }
        return .success(s.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A whole number (sysfs writes integers), checked against what is plausible.
    static func integer(_ path: String, allowed: ClosedRange<Int>, meaning: String) -> Result<Int, SysfsProblem> {
        text(path).flatMap { s in
            guard let v = Int(s) else { return .failure(SysfsProblem(path: path, reason: "\"\(s.prefix(40))\" is not a whole number (\(meaning))")) }
            guard allowed.contains(v) else {
                return .failure(SysfsProblem(path: path, reason: "\(v) is outside \(allowed.lowerBound)...\(allowed.upperBound) (\(meaning))"))
            }
            return .success(v)
        }
    }

    /// Entries of a folder, sorted; a missing root is a problem, an empty one is not.
    static func entries(_ root: String) -> Result<[String], SysfsProblem> {
        do { return .success(try FileManager.default.contentsOfDirectory(atPath: root).sorted()) } catch {
            return .failure(SysfsProblem(path: root, reason: "cannot list the folder"))
        }
    }
}
