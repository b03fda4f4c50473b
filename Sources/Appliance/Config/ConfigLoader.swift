import Foundation

/// Reads a TOML config file into `NodwireConfig`, refusing anything it does not understand.
enum ConfigLoader {
    static func load(file: String) throws(ConfigError) -> NodwireConfig {
        try parse(try text(file: file), file: file)
    }

    /// The file's text, refused (with where and why) unless it is UTF-8 text: the same check whoever reads
    /// a config (run, reload, config check, calibrate --save). An empty file is refused too: a power cut
    /// can leave one, and running on all defaults would drive no output without a word.
    static func text(file: String) throws(ConfigError) -> String {
        let bytes = try readBytes(file)
        if bytes.count > ConfigText.maxBytes {
            // Not text says more than too large (/dev/zero); cut after an ASCII byte, never inside a character.
            let cut = bytes[..<ConfigText.maxBytes].lastIndex { $0 < 0x80 }.map { $0 + 1 } ?? 0
            try ConfigText.check(bytes[..<cut], file: file)
            throw .unreadable(file: file, reason: "it is larger than \(ConfigText.maxBytes / 1024) KiB, too large for a config file")
        }
        try ConfigText.check(bytes, file: file)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw .empty(file: file) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// At most `ConfigText.maxBytes` + 1 bytes of the file (enough to know it is too large).
    private static func readBytes(_ file: String) throws(ConfigError) -> [UInt8] {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(file: file, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & 0o170000 == 0o040000 { throw .unreadable(file: file, reason: "it is a directory, not a file") }
        var bytes = [UInt8](repeating: 0, count: ConfigText.maxBytes + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw .unreadable(file: file, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    static func parse(_ text: String, file: String) throws(ConfigError) -> NodwireConfig {
        try ConfigText.check(text.utf8, file: file)
        try TableHeaders.check(text, file: file)
        let table: [String: TOMLNode]
        do throws(TOMLNode.SyntaxError) { table = try TOMLNode.parse(text) } catch {
            throw .syntax(file: file, line: error.line, column: error.column, message: error.message)
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

    private static func walk(_ table: [String: TOMLNode], prefix: String, file: String, lines: KeyLines, specs: [String: SettingSpec],
                             sections: Set<String>, into config: inout NodwireConfig) throws(ConfigError) {
        // Arrays of tables ([[outputs]]...) have their own reader (Schema+Outputs.swift).
        for key in table.keys.sorted() where !(prefix.isEmpty && ConfigSchema.outputSections.contains(key)) {
            let full = prefix.isEmpty ? key : "\(prefix).\(key)"
            let value = table[key]!
            if let sub = value.table {
                guard sections.contains(full) else {
                    throw .unknownKey(file: file, line: lines.line(of: full), key: full, known: known(under: prefix, specs: specs, sections: sections))
                }
                try walk(sub, prefix: full, file: file, lines: lines, specs: specs, sections: sections, into: &config)
                continue
            }
            guard let spec = specs[full] else {
                if sections.contains(full) { throw .notATable(file: file, line: lines.line(of: full), key: full) }
                if let replacement = ConfigSchema.retired[full] {
                    throw .retired(file: file, line: lines.line(of: full), key: full, replacement: replacement)
                }
                throw .unknownKey(file: file, line: lines.line(of: full), key: full, known: known(under: prefix, specs: specs, sections: sections))
            }
            let parsed: ConfigValue
            switch value {
            case let .bool(b): parsed = .bool(b)
            case let .int(i): parsed = .int(i)
            case let .double(d): parsed = .double(d)
            case let .string(s): parsed = .string(s)
            default:
                throw .wrongType(file: file, line: lines.line(of: full), key: full, value: value.text, allowed: spec.kind.allowed)
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
