/// A config file must be text before it is TOML. toml++ gets the text as a C string, so everything after a
/// NUL byte would be silently ignored, and a file of zeros (what an SD card can hold after a power cut)
/// would read as an empty, all-defaults config. So any byte that is not text is refused, with where it is.
enum ConfigText {
    /// Largest config file read: the longest real one is a few KB; this keeps a wrong path (a disk image,
    /// /dev/zero) from being read into memory.
    static let maxBytes = 1 << 20

    /// Refuses invalid UTF-8, NUL and the control characters other than tab, newline and carriage return
    /// (which TOML forbids unescaped anywhere), and a `\u0000` escape (a NUL again, once unescaped).
    static func check(_ bytes: some Collection<UInt8>, file: String) throws(ConfigError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0, line = 1, column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .emptyInput:
                return try checkEscapes(bytes, file: file)
            case .error:
                let bad = bytes.dropFirst(offset).prefix { $0 >= 0x80 }.prefix(4).map { hex($0) }.joined(separator: " ")
                throw .notText(file: file, line: line, column: column, problem: "byte\(bad.contains(" ") ? "s" : "") \(bad) \(bad.contains(" ") ? "are" : "is") not UTF-8")
            case let .scalarValue(scalar):
                let v = scalar.value
                if v == 0 {
                    throw .notText(file: file, line: line, column: column,
                                   problem: "a NUL byte (0x00) is not text (a power cut can leave a file full of them)")
                }
                if (v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D) || v == 0x7F {
                    throw .notText(file: file, line: line, column: column, problem: "control character \(hex(UInt8(v))) is not allowed")
                }
                offset += UTF8.width(scalar)
                if v == 0x0A { (line, column) = (line + 1, 1) } else { column += 1 }
            }
        }
    }

    /// `\u0000` and `\U00000000` in the text; there may be false alarms (in a comment or a 'literal string'),
    /// but no setting needs one.
    private static func checkEscapes(_ bytes: some Collection<UInt8>, file: String) throws(ConfigError) {
        let text = Array(bytes)
        var line = 1, lineStart = 0
        for i in text.indices {
            if text[i] == 0x0A { (line, lineStart) = (line + 1, i + 1); continue }
            guard text[i] == UInt8(ascii: "\\"), i + 1 < text.count else { continue }
            let zeros = text[i + 1] == UInt8(ascii: "u") ? 4 : text[i + 1] == UInt8(ascii: "U") ? 8 : 0
            guard zeros > 0, i + 1 + zeros < text.count, text[(i + 2)...(i + 1 + zeros)].allSatisfy({ $0 == UInt8(ascii: "0") }) else { continue }
            let column = String(decoding: text[lineStart..<i], as: UTF8.self).unicodeScalars.count + 1
            throw .notText(file: file, line: line, column: column, problem: "a \\\(Character(Unicode.Scalar(text[i + 1])))\(String(repeating: "0", count: zeros)) escape (a NUL character) is not allowed")
        }
    }

    private static func hex(_ b: UInt8) -> String {
        "0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }
}
