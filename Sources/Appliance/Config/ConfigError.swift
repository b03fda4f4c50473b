/// Why a config file was refused, worded for the person editing it: the file, the line, the key, the
/// value, and what is allowed. Nothing starts with a refused file (exit code 78, EX_CONFIG).
enum ConfigError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case notText(file: String, line: Int, column: Int, problem: String)
    case empty(file: String)
    case syntax(file: String, line: Int, column: Int, message: String)
    case unknownKey(file: String, line: Int?, key: String, known: [String])
    /// A setting an earlier version read, with what replaced it.
    case retired(file: String, line: Int?, key: String, replacement: String)
    case notATable(file: String, line: Int?, key: String)
    case wrongType(file: String, line: Int?, key: String, value: String, allowed: String)
    case outOfRange(file: String, line: Int?, key: String, value: String, allowed: String)
    case inconsistent(file: String, key: String, problem: String)

    static let exitCode: Int32 = 78

    var description: String {
        func at(_ file: String, _ line: Int?) -> String { line.map { "\(file):\($0)" } ?? file }
        switch self {
        case let .unreadable(file, reason):
            return "\(file): cannot read the config file: \(reason)"
        case let .notText(file, line, column, problem):
            return "\(file):\(line):\(column): \(problem); a config file is UTF-8 text with no control characters but tab, newline and carriage return"
        case let .empty(file):
            return "\(file): the file is empty, which a power cut can leave; it is not taken as all the defaults. "
                + "For every default, write a comment in it, e.g. # all defaults"
        case let .syntax(file, line, column, message):
            return "\(file):\(line):\(column): not valid TOML: \(message)"
        case let .unknownKey(file, line, key, known):
            let hint = Self.closest(to: key, in: known).map { " Did you mean \($0)?" } ?? ""
            return "\(at(file, line)): unknown setting \(Self.clip(key)).\(hint) Known here: \(known.joined(separator: ", "))"
        case let .retired(file, line, key, replacement):
            return "\(at(file, line)): \(key) is no longer read: \(replacement)"
        case let .notATable(file, line, key):
            return "\(at(file, line)): \(Self.clip(key)) is a section of settings, not a value; write [\(Self.clip(key))] and its settings below it"
        case let .wrongType(file, line, key, value, allowed):
            return "\(at(file, line)): \(Self.clip(key)) = \(Self.clip(value)) has the wrong type; allowed: \(allowed)"
        case let .outOfRange(file, line, key, value, allowed):
            return "\(at(file, line)): \(Self.clip(key)) = \(Self.clip(value)) is not allowed; allowed: \(allowed)"
        case let .inconsistent(file, key, problem):
            return "\(file): \(key): \(problem)"
        }
    }

    /// Longest key or value a message repeats whole; a longer one is cut with an ellipsis (a 10 MB key
    /// is not echoed back).
    static let echoLimit = 80

    static func clip(_ s: String) -> String {
        guard s.utf8.count > echoLimit else { return s }
        return String(s.prefix(echoLimit - 1)) + "…"
    }

    /// The known key nearest to a misspelt one (edit distance at most 3), for a hint. Edit distance takes
    /// time and memory in proportion to the product of the lengths, so a key name longer than any known
    /// one by more than 3 (which cannot be within 3 edits) gets no hint.
    static func closest(to key: String, in known: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for i in 1...max(1, a.count) where !a.isEmpty {
                var previous = row[0]
                row[0] = i
                for j in 1...max(1, b.count) where !b.isEmpty {
                    let current = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                    previous = current
                }
            }
            return row[b.count]
        }
        func name(_ key: String) -> [Character] { Array(key.split(separator: ".").last.map(String.init) ?? key) }
        let names = known.map(name)
        guard key.utf8.count <= 1000, case let last = name(key), last.count <= (names.map(\.count).max() ?? 0) + 3 else { return nil }
        return zip(known, names).map { ($0, distance(last, $1)) }.filter { $0.1 <= 3 }.min { $0.1 < $1.1 }?.0
    }
}
