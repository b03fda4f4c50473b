/// toml++ 3.4 (under TOMLKit 0.6.0) asserts, instead of reporting an error, when a table header does not
/// start with a key (`[$]`, `[é]`, `[ ;]`, `[[[x]]]`): a debug build aborts and a release build has undefined
/// behaviour (upstream: marzer/tomlplusplus#294 and #301). Found by fuzzing the loader. This check refuses
/// such headers first, with the line and column.
///
/// A `[` opens a header only where a new expression starts: at the start of a line, outside strings,
/// comments, and arrays or inline tables that span lines. So the check follows TOML's lexical structure
/// (the four kinds of string, comments, bracket depth) rather than looking at lines alone: a `'''` inside a
/// quoted key, or `[ [1, 2] ]` on a line of a multi-line array, must not fool it. It only has to be right on
/// files toml++ reads without error up to that header; anything else toml++ refuses by itself.
///
/// The same fuzzing found toml++ asserting on a `}` where an array expects its next value (`a = [1, }`), so
/// the scan, which knows the open brackets anyway, refuses a `}` that would close an array.
enum TableHeaders {
    private enum Text { case code, basic, literal, multilineBasic, multilineLiteral, comment }

    static func check(_ text: String, file: String) throws(ConfigError) {
        let b = Array(text.utf8)
        var state = Text.code
        var open: [UInt8] = []    // the `[` and `{` of values still open, innermost last
        var inHeader = false      // between a header's `[` and the end of its line
        var lineStart = true      // only blanks so far on this line
        var line = 1, column = 1  // of b[i]; columns count bytes, as toml++ does for ASCII
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0   // toml++ skips a byte-order mark
        func run(of byte: UInt8, at j: Int) -> Int {
            var k = j
            while k < b.count, b[k] == byte { k += 1 }
            return k - j
        }
        func advance(_ n: Int) { i += n; column += n }

        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\n") {
                // Single-line strings and comments end here (an unclosed one is toml++'s error to report).
                if state == .basic || state == .literal || state == .comment { state = .code }
                inHeader = false
                lineStart = true
                i += 1; line += 1; column = 1
                continue
            }
            switch state {
            case .comment:
                advance(1)
            case .basic:
                if c == UInt8(ascii: "\\") { advance(i + 1 < b.count && b[i + 1] != UInt8(ascii: "\n") ? 2 : 1) }
                else { if c == UInt8(ascii: "\"") { state = .code }; advance(1) }
            case .literal:
                if c == UInt8(ascii: "'") { state = .code }
                advance(1)
            case .multilineBasic:
                if c == UInt8(ascii: "\\") { advance(i + 1 < b.count && b[i + 1] != UInt8(ascii: "\n") ? 2 : 1) }
                else if c == UInt8(ascii: "\"") {
                    let n = run(of: c, at: i)      // up to two quotes may end the content before the closing three
                    if n >= 3 { state = .code }
                    advance(n)
                } else { advance(1) }
            case .multilineLiteral:
                if c == UInt8(ascii: "'") {
                    let n = run(of: c, at: i)
                    if n >= 3 { state = .code }
                    advance(n)
                } else { advance(1) }
            case .code:
                let blank = c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r")
                if c == UInt8(ascii: "["), lineStart, open.isEmpty {
                    try checkHeader(b, from: i, line: line, column: column, file: file)
                    inHeader = true
                } else if c == UInt8(ascii: "#") {
                    state = .comment
                } else if c == UInt8(ascii: "\"") {
                    if run(of: c, at: i) >= 3 { state = .multilineBasic; advance(2) } else { state = .basic }
                } else if c == UInt8(ascii: "'") {
                    if run(of: c, at: i) >= 3 { state = .multilineLiteral; advance(2) } else { state = .literal }
                } else if !inHeader, c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                    open.append(c)
                } else if !inHeader, c == UInt8(ascii: "}"), open.last == UInt8(ascii: "[") {
                    throw .syntax(file: file, line: line, column: column,
                                  message: "a '}' inside an array: close the array with ']' (or open an inline table with '{')")
                } else if !inHeader, c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
                    _ = open.popLast()
                }
                if !blank { lineStart = false }
                advance(1)
            }
        }
    }

    /// At a header's `[` (or `[[`): after blanks, a bare key character or a quote must follow.
    private static func checkHeader(_ b: [UInt8], from start: Int, line: Int, column: Int, file: String) throws(ConfigError) {
        var i = start + 1
        if i < b.count, b[i] == UInt8(ascii: "[") { i += 1 }
        while i < b.count, b[i] == UInt8(ascii: " ") || b[i] == UInt8(ascii: "\t") { i += 1 }
        let c = i < b.count ? b[i] : UInt8(ascii: "\n")
        let bare = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        guard bare || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") else {
            throw .syntax(file: file, line: line, column: column + (i - start),
                          message: "a table header must start with a name (letters, digits, _ or -) or a quoted name")
        }
    }
}
