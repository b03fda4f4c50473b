/// A value as written in a config file, after TOML parsing.
enum ConfigValue: Equatable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// A TOML basic string: quotes, backslashes and control characters escaped, so a written file reads back.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where c.value < 0x20 || c.value == 0x7F:
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    var text: String {
        switch self {
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .double(d): return "\(d)"
        case let .string(s): return Self.quoted(s)
        }
    }
}

/// One setting of the config file: its dotted key, what it means, what it accepts, and where it lives in
/// `NodwireConfig`. The default is whatever the settings types start with: one place for each default.
struct SettingSpec {
    enum Kind: Equatable {
        case bool
        case int(ClosedRange<Int>)
        case double(ClosedRange<Double>)
        case choice([String])
        case path
        case optionalPath
        case text           // any non-empty string
        case optionalText   // any string, "" for none
        case oneOf([Int])   // one of a few whole numbers

        var allowed: String {
            switch self {
            case .bool: return "true or false"
            case let .int(r): return "a whole number from \(r.lowerBound) to \(r.upperBound)"
            case let .double(r): return "a number from \(ConfigValue.double(r.lowerBound).text) to \(ConfigValue.double(r.upperBound).text)"
            case let .choice(c): return "one of " + c.map { "\"\($0)\"" }.joined(separator: ", ")
            case .path: return "a file path in quotes"
            case .optionalPath: return "a file path in quotes, or \"\" for none"
            case .text: return "text in quotes"
            case .optionalText: return "text in quotes, or \"\" for none"
            case let .oneOf(v): return "one of " + v.map(String.init).joined(separator: ", ")
            }
        }
    }

    let key: String
    let doc: String
    let kind: Kind
    let get: (NodwireConfig) -> ConfigValue
    let set: (inout NodwireConfig, ConfigValue) -> Void

    var section: String { String(key[..<(key.lastIndex(of: ".") ?? key.startIndex)]) }
    var name: String { String(key[key.index(after: key.lastIndex(of: ".") ?? key.startIndex)...].drop { $0 == "." }) }

    enum Rejection: Error { case wrongType, outOfRange }

    /// Checks the type and range of a value from the file; returns what to store, or why not.
    func accept(_ value: ConfigValue) -> Result<ConfigValue, Rejection> {
        switch (kind, value) {
        case (.bool, .bool): return .success(value)
        case let (.int(r), .int(i)): return r.contains(i) ? .success(value) : .failure(.outOfRange)
        case let (.double(r), .double(d)): return r.contains(d) ? .success(value) : .failure(.outOfRange)
        case let (.double(r), .int(i)): return r.contains(Double(i)) ? .success(.double(Double(i))) : .failure(.outOfRange)
        case let (.choice(c), .string(s)): return c.contains(s) ? .success(value) : .failure(.outOfRange)
        case let (.path, .string(s)), let (.text, .string(s)): return s.isEmpty ? .failure(.outOfRange) : .success(value)
        case let (.oneOf(v), .int(i)): return v.contains(i) ? .success(value) : .failure(.outOfRange)
        case (.optionalPath, .string), (.optionalText, .string): return .success(value)
        default: return .failure(.wrongType)
        }
    }
}

extension SettingSpec {
    static func double(_ key: String, _ path: WritableKeyPath<NodwireConfig, Double>, _ range: ClosedRange<Double>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .double(range), get: { .double($0[keyPath: path]) },
                    set: { if case let .double(d) = $1 { $0[keyPath: path] = d } })
    }

    static func int(_ key: String, _ path: WritableKeyPath<NodwireConfig, Int>, _ range: ClosedRange<Int>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .int(range), get: { .int($0[keyPath: path]) },
                    set: { if case let .int(i) = $1 { $0[keyPath: path] = i } })
    }

    static func bool(_ key: String, _ path: WritableKeyPath<NodwireConfig, Bool>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .bool, get: { .bool($0[keyPath: path]) },
                    set: { if case let .bool(b) = $1 { $0[keyPath: path] = b } })
    }

    static func path(_ key: String, _ path: WritableKeyPath<NodwireConfig, String>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .path, get: { .string($0[keyPath: path]) },
                    set: { if case let .string(s) = $1 { $0[keyPath: path] = s } })
    }

    /// A path where "" means none.
    static func optionalPath(_ key: String, _ path: WritableKeyPath<NodwireConfig, String>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .optionalPath, get: { .string($0[keyPath: path]) },
                    set: { if case let .string(s) = $1 { $0[keyPath: path] = s } })
    }

    /// Text that may not be empty.
    static func text(_ key: String, _ path: WritableKeyPath<NodwireConfig, String>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .text, get: { .string($0[keyPath: path]) },
                    set: { if case let .string(s) = $1 { $0[keyPath: path] = s } })
    }

    /// Text where "" means none (or the default it stands for).
    static func optionalText(_ key: String, _ path: WritableKeyPath<NodwireConfig, String>, _ doc: String) -> SettingSpec {
        SettingSpec(key: key, doc: doc, kind: .optionalText, get: { .string($0[keyPath: path]) },
                    set: { if case let .string(s) = $1 { $0[keyPath: path] = s } })
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ path: WritableKeyPath<NodwireConfig, T>, _ doc: String) -> SettingSpec
    where T.RawValue == String {
        SettingSpec(key: key, doc: doc, kind: .choice(T.allCases.map(\.rawValue)), get: { .string($0[keyPath: path].rawValue) },
                    set: { if case let .string(s) = $1, let v = T(rawValue: s) { $0[keyPath: path] = v } })
    }
}
