import Foundation

/// Sets values in a TOML config file the way a person would: the key's line is replaced where it is, or
/// added at the end of its [section] (a new section at the end of the file if there is none). Comments
/// and everything else stay. Callers check the result with the loader before writing it.
enum ConfigFileEdit {
    static func set(_ values: [(key: String, value: ConfigValue)], in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        func header(_ line: String) -> String? {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("["), let end = t.firstIndex(of: "]") else { return nil }
            return t[t.index(after: t.startIndex)..<end].trimmingCharacters(in: CharacterSet(charactersIn: "[] \"'"))
        }
        for (key, value) in values {
            let dot = key.lastIndex(of: ".")!
            let section = String(key[..<dot])
            let name = String(key[key.index(after: dot)...])
            let entry = "\(name) = \(value.text)"
            guard let start = lines.firstIndex(where: { header($0) == section }) else {
                if let last = lines.last, !last.isEmpty { lines.append("") }
                lines += ["[\(section)]", entry]
                continue
            }
            let end = lines[(start + 1)...].firstIndex { header($0) != nil } ?? lines.count
            let existing = lines[(start + 1)..<end].firstIndex { raw in
                let t = raw.trimmingCharacters(in: .whitespaces)
                guard !t.hasPrefix("#"), let eq = t.firstIndex(of: "=") else { return false }
                return t[..<eq].trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) == name
            }
            if let existing {
                lines[existing] = entry
            } else {
                var at = end
                while at > start + 1, lines[at - 1].trimmingCharacters(in: .whitespaces).isEmpty { at -= 1 }
                lines.insert(entry, at: at)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
