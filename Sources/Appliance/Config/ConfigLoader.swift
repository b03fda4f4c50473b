import Foundation
import TOMLKit

/// Reads a TOML config file into `NodwireConfig`, refusing anything it does not understand.
enum ConfigLoader {
    static func load(file: String) throws(ConfigError) -> NodwireConfig {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            if FileManager.default.isReadableFile(atPath: file), FileManager.default.contents(atPath: file) != nil {
                throw .unreadable(file: file, reason: "it is not UTF-8 text (save it as UTF-8)")
            }
            throw .unreadable(file: file, reason: (error as NSError).localizedDescription)
        }
        return try parse(text, file: file)
    }

    static func parse(_ text: String, file: String) throws(ConfigError) -> NodwireConfig {
        try TableHeaders.check(text, file: file)
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw .syntax(file: file, line: error.source.begin.line, column: error.source.begin.column, message: error.description)
        } catch {
            throw .syntax(file: file, line: 1, column: 1, message: "\(error)")
        }
        var config = NodwireConfig()
        let lines = KeyLines(text)
        let specs = Dictionary(uniqueKeysWithValues: ConfigSchema.all.map { ($0.key, $0) })
        let sections = Set(ConfigSchema.all.flatMap { spec in
            spec.key.split(separator: ".").dropLast().indices.map { spec.key.split(separator: ".")[...$0].joined(separator: ".") }
        })
        try walk(table, prefix: "", file: file, lines: lines, specs: specs, sections: sections, into: &config)
        config.outputs = try ConfigSchema.parseOutputs(table, file: file, lines: lines)
        for problem in config.problems() {
            throw .inconsistent(file: file, key: problem.key, problem: problem.message)
        }
        return config
    }

    private static func walk(_ table: TOMLTable, prefix: String, file: String, lines: KeyLines, specs: [String: SettingSpec],
                             sections: Set<String>, into config: inout NodwireConfig) throws(ConfigError) {
        // Arrays of tables ([[outputs]]...) have their own reader (Schema+Outputs.swift).
        for key in table.keys.sorted() where !(prefix.isEmpty && ConfigSchema.outputSections.contains(key)) {
            let full = prefix.isEmpty ? key : "\(prefix).\(key)"
            guard let value = table[key]?.tomlValue else { continue }
            if value.type == .table, let sub = value.table {
                guard sections.contains(full) else {
                    throw .unknownKey(file: file, line: lines.line(of: full), key: full, known: known(under: prefix, specs: specs, sections: sections))
                }
                try walk(sub, prefix: full, file: file, lines: lines, specs: specs, sections: sections, into: &config)
                continue
            }
            guard let spec = specs[full] else {
                if sections.contains(full) { throw .notATable(file: file, line: lines.line(of: full), key: full) }
                throw .unknownKey(file: file, line: lines.line(of: full), key: full, known: known(under: prefix, specs: specs, sections: sections))
            }
            let parsed: ConfigValue
            switch value.type {
            case .bool: parsed = .bool(value.bool ?? false)
            case .int: parsed = .int(value.int ?? 0)
            case .double: parsed = .double(value.double ?? 0)
            case .string: parsed = .string(value.string ?? "")
            default:
                throw .wrongType(file: file, line: lines.line(of: full), key: full, value: value.debugDescription, allowed: spec.kind.allowed)
            }
            switch spec.accept(parsed) {
            case let .success(stored): spec.set(&config, stored)
            case let .failure(reason):
                let line = lines.line(of: full)
                if reason == .wrongType { throw .wrongType(file: file, line: line, key: full, value: parsed.text, allowed: spec.kind.allowed) }
                throw .outOfRange(file: file, line: line, key: full, value: parsed.text, allowed: spec.kind.allowed)
            }
        }
    }

    /// The settings and sections directly under a section, for "known here" lists.
    private static func known(under prefix: String, specs: [String: SettingSpec], sections: Set<String>) -> [String] {
        let depth = prefix.isEmpty ? 1 : prefix.split(separator: ".").count + 1
        let all = Set(specs.keys).union(sections).union(prefix.isEmpty ? ConfigSchema.outputSections : [])
        return all.filter { k in
            (prefix.isEmpty || k.hasPrefix(prefix + ".")) && k.split(separator: ".").count == depth
        }.sorted()
    }
}

/// Finds the line a dotted key was written on, following [section] headers (for error messages).
/// The n-th `[[name]]` table (from 1) is the section `name[n]`.
struct KeyLines {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var section = ""
        var arrayCounts: [String: Int] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[["), let end = line.range(of: "]]") {
                let name = line[line.index(line.startIndex, offsetBy: 2)..<end.lowerBound].trimmingCharacters(in: .whitespaces)
                arrayCounts[name, default: 0] += 1
                section = "\(name)[\(arrayCounts[name]!)]"
                if lines[name] == nil { lines[name] = n + 1 }
                lines[section] = n + 1
            } else if line.hasPrefix("["), let end = line.firstIndex(of: "]") {
                section = line[line.index(after: line.startIndex)..<end].trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
                if lines[section] == nil { lines[section] = n + 1 }
            } else if let eq = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<eq].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
                let full = section.isEmpty ? key : "\(section).\(key)"
                if lines[full] == nil { lines[full] = n + 1 }
            }
        }
    }

    func line(of key: String) -> Int? { lines[key] }
}
