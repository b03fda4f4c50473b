import Foundation

/// A secret kept in a file of its own (a password, the web token), so it is never in the config: its first line.
enum SecretFile {
    struct Problem: Error { var why: String }

    static func firstLine(_ path: String) throws(Problem) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(why: FileManager.default.fileExists(atPath: path) ? "it cannot be read (permissions?)" : "there is no such file")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let secret = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !secret.isEmpty else { throw Problem(why: "its first line is empty") }
        return secret
    }
}
