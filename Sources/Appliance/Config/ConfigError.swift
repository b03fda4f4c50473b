/// Why a config file was refused, worded for the person editing it: the file, the line, the key, the
/// value, and what is allowed. Nothing starts with a refused file (exit code 78, EX_CONFIG).
enum ConfigError: Error, Equatable, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case syntax(file: String, line: Int, column: Int, message: String)
    case unknownKey(file: String, line: Int?, key: String, known: [String])
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
        case let .syntax(file, line, column, message):
            return "\(file):\(line):\(column): not valid TOML: \(message)"
        case let .unknownKey(file, line, key, known):
            let hint = Self.closest(to: key, in: known).map { " Did you mean \($0)?" } ?? ""
            return "\(at(file, line)): unknown setting \(key).\(hint) Known here: \(known.joined(separator: ", "))"
        case let .notATable(file, line, key):
            return "\(at(file, line)): \(key) is a section of settings, not a value; write [\(key)] and its settings below it"
        case let .wrongType(file, line, key, value, allowed):
            return "\(at(file, line)): \(key) = \(value) has the wrong type; allowed: \(allowed)"
        case let .outOfRange(file, line, key, value, allowed):
            return "\(at(file, line)): \(key) = \(value) is not allowed; allowed: \(allowed)"
        case let .inconsistent(file, key, problem):
            return "\(file): \(key): \(problem)"
        }
    }

    /// The known key nearest to a misspelt one (edit distance at most 3), for a hint.
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
        let last = Array(key.split(separator: ".").last.map(String.init) ?? key)
        return known.map { ($0, distance(last, Array($0.split(separator: ".").last.map(String.init) ?? $0))) }
            .filter { $0.1 <= 3 }.min { $0.1 < $1.1 }?.0
    }
}
