#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTOML
import CTOMLRelease

/// A TOML value, copied out of toml++'s parse tree into plain Swift values.
///
/// toml++ (bundled with TOMLKit 0.6.0) parses, through CTOML's C functions, but TOMLKit's Swift layer is not
/// used: it frees nothing it gets from C. `TOMLTable` has no deinit, so the parsed document stays; its
/// init leaks the error record it allocates on every parse; each `keys` and every string, integer, bool
/// or double read is a malloc'd copy never freed. That was ~14 KB a load (RSS 57 → 98 MB after 3,000
/// SIGHUPs). Here every C result is freed, and the document is deleted as soon as it is copied.
enum TOMLNode: Equatable {
    case table([String: TOMLNode])
    case array([TOMLNode])
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// A date, time or date-time (no setting takes one), or a key that cannot be read; says which.
    case other(String)

    struct SyntaxError: Error {
        var line: Int
        var column: Int
        var message: String
    }

    /// The document's root table. `text` must hold no NUL: toml++ gets it as a C string
    /// (`ConfigText.check` refuses one first).
    static func parse(_ text: String) throws(SyntaxError) -> [String: TOMLNode] {
        let error = UnsafeMutablePointer<CTOMLParseError>.allocate(capacity: 1)
        defer { error.deallocate() }
        guard let root = text.withCString({ tableCreateFromString($0, error) }) else {
            let e = error.pointee
            defer { free(UnsafeMutableRawPointer(mutating: e.description)) }
            throw SyntaxError(line: Int(e.source.begin.line), column: Int(e.source.begin.column), message: String(cString: e.description))
        }
        defer { nodwire_toml_table_delete(UnsafeMutableRawPointer(root)) }
        return copy(table: root)
    }

    var table: [String: TOMLNode]? { if case let .table(t) = self { t } else { nil } }
    var array: [TOMLNode]? { if case let .array(a) = self { a } else { nil } }
    var bool: Bool? { if case let .bool(b) = self { b } else { nil } }
    var int: Int? { if case let .int(i) = self { i } else { nil } }
    var double: Double? { if case let .double(d) = self { d } else { nil } }
    var string: String? { if case let .string(s) = self { s } else { nil } }

    /// The value as TOML (tables inline), for messages.
    var text: String {
        switch self {
        case let .table(t): t.isEmpty ? "{}" : "{ " + t.keys.sorted().map { "\($0) = \(t[$0]!.text)" }.joined(separator: ", ") + " }"
        case let .array(a): "[" + a.map(\.text).joined(separator: ", ") + "]"
        case let .bool(b): ConfigValue.bool(b).text
        case let .int(i): ConfigValue.int(i).text
        case let .double(d): ConfigValue.double(d).text
        case let .string(s): ConfigValue.string(s).text
        case let .other(what): what
        }
    }

    private static func copy(table: OpaquePointer) -> [String: TOMLNode] {
        let count = tableSize(table)
        guard count > 0 else { return [:] }
        let keys = tableGetKeys(table)   // a malloc'd array of strdup'd keys
        defer { free(UnsafeMutableRawPointer(mutating: keys)) }
        var out: [String: TOMLNode] = [:]
        for i in 0..<count {
            defer { free(UnsafeMutableRawPointer(mutating: keys[i])) }
            let key = String(cString: keys[i])
            out[key] = tableGetNode(table, keys[i]).map(copy(node:)) ?? .other("(a key that cannot be read)")
        }
        return out
    }

    private static func copy(node: OpaquePointer) -> TOMLNode {
        /// Reads a value CTOML returns as a malloc'd copy, and frees it.
        func take<T>(_ pointer: UnsafePointer<T>?) -> T? {
            guard let pointer else { return nil }
            defer { free(UnsafeMutableRawPointer(mutating: pointer)) }
            return pointer.pointee
        }
        switch nodeType(node) {
        case CTOMLNodeType.table:
            return nodeAsTable(node).map { .table(copy(table: $0)) } ?? .other("(a table)")
        case CTOMLNodeType.array:
            guard let array = nodeAsArray(node) else { return .other("(an array)") }
            return .array((0..<arraySize(array)).map { copy(node: arrayGetNode(array, Int64($0))) })
        case CTOMLNodeType.boolean: return take(nodeAsBool(node)).map { .bool($0) } ?? .other("(a bool)")
        case CTOMLNodeType.integer:
            guard let i = take(nodeAsInt(node)) else { return .other("(a whole number)") }
            return Int(exactly: i).map { .int($0) } ?? .other("\(i)")   // beyond Int on a 32-bit system
        case CTOMLNodeType.floatingPoint: return take(nodeAsDouble(node)).map { .double($0) } ?? .other("(a number)")
        case CTOMLNodeType.string:
            guard let s = nodeAsString(node) else { return .other("(a string)") }
            defer { free(UnsafeMutableRawPointer(mutating: s)) }
            return .string(String(cString: s))
        case CTOMLNodeType.date: return .other("(a date)")
        case CTOMLNodeType.timeType: return .other("(a time of day)")
        default: return .other("(a date and time)")
        }
    }
}
