/// The line on which each key path of a TOML document is set, which TOMLKit does not report: found by
/// walking the document's keys (table headers, dotted and quoted keys, inline tables) and stepping over
/// its values (strings of all four kinds, arrays over several lines). Only documents that toml++ has
/// already accepted are walked, so nothing here judges syntax: a value it cannot place takes the line of
/// its nearest table.
struct TOMLKeyLines {
    private var lines: [[String]: Int] = [:]
    /// Key paths whose value holds a string with a `\u0000` escape: TOMLKit hands strings over as C
    /// strings, which end there, so the value it reports is cut short.
    private var withNUL: Set<[String]> = []

    init(_ text: String) {
        var walker = Walker(Array(text.unicodeScalars))
        walker.document()
        (lines, withNUL) = (walker.lines, walker.withNUL)
    }

    /// The line of `path`, else of its nearest enclosing table that has one, else 1.
    func line(of path: [String]) -> Int {
        var p = path
        while !p.isEmpty {
            if let line = lines[p] { return line }
            p.removeLast()
        }
        return 1
    }

    func hidesNUL(_ path: [String]) -> Bool { withNUL.contains(path) }

    private struct Walker {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        var lines: [[String]: Int] = [:]
        var withNUL: Set<[String]> = []

        init(_ s: [Unicode.Scalar]) { self.s = s }

        var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

        mutating func advance() {
            if s[i] == "\n" { line += 1 }
            i += 1
        }

        mutating func skipBlanks() { while let c = peek, c == " " || c == "\t" { advance() } }

        /// Blanks, line ends and comments, as between an array's values.
        mutating func skipBlanksAndLines() {
            while let c = peek {
                if c == " " || c == "\t" || c == "\r" || c == "\n" {
                    advance()
                } else if c == "#" {
                    skipToLineEnd()
                } else {
                    return
                }
            }
        }

        mutating func skipToLineEnd() { while let c = peek, c != "\n" { advance() } }

        mutating func record(_ path: [String], at line: Int) {
            for n in 1...max(path.count, 1) where n <= path.count && lines[Array(path.prefix(n))] == nil {
                lines[Array(path.prefix(n))] = line
            }
        }

        mutating func document() {
            var table: [String] = []
            while peek != nil {
                skipBlanksAndLines()
                guard let c = peek else { return }
                if c == "[" {
                    advance()
                    if peek == "[" { advance() }
                    let at = line
                    table = keyPath(until: "]")
                    record(table, at: at)
                    skipToLineEnd()
                } else {
                    keyValue(under: table)
                    skipToLineEnd()
                }
            }
        }

        /// `key = value` under the table `path`: the key's line recorded, the value stepped over.
        mutating func keyValue(under path: [String]) {
            let at = line
            let key = path + keyPath(until: "=")
            record(key, at: at)
            if peek == "=" { advance() }
            skipBlanks()
            value(key)
        }

        /// A dotted key up to `end` (not consumed for `=`, consumed for `]`), its parts unquoted.
        mutating func keyPath(until end: Unicode.Scalar) -> [String] {
            var parts: [String] = []
            var bare = ""
            while let c = peek, c != end, c != "\n" {
                if c == "\"" || c == "'" {
                    var text = ""
                    string(into: &text)
                    parts.append(text)
                } else if c == "." {
                    if !bare.isEmpty { parts.append(bare) }
                    bare = ""
                    advance()
                } else if c == " " || c == "\t" {
                    advance()
                } else {
                    bare.unicodeScalars.append(c)
                    advance()
                }
            }
            if !bare.isEmpty { parts.append(bare) }
            if end == "]" { while peek == "]" { advance() } }
            return parts
        }

        /// Steps over one value; keys inside inline tables are recorded under `path`.
        mutating func value(_ path: [String]) {
            guard let c = peek else { return }
            switch c {
            case "\"", "'":
                var text = ""
                if string(into: &text) { withNUL.insert(path) }
            case "[":
                advance()
                while true {
                    skipBlanksAndLines()
                    guard let c = peek else { return }
                    if c == "]" { advance(); return }
                    if c == "," { advance(); continue }
                    let before = i
                    value(path)
                    if i == before { advance() }
                }
            case "{":
                advance()
                while true {
                    skipBlanks()
                    guard let c = peek else { return }
                    if c == "}" { advance(); return }
                    if c == "," || c == "\n" { advance(); continue }
                    keyValue(under: path)
                }
            default:
                while let c = peek, !" \t\r\n,]}#".unicodeScalars.contains(c) { advance() }
            }
        }

        /// A string of any of TOML's four kinds, unescaped into `text`; true when an escape gave U+0000.
        @discardableResult
        mutating func string(into text: inout String) -> Bool {
            let quote = s[i]
            let multiline = i + 2 < s.count && s[i + 1] == quote && s[i + 2] == quote
            for _ in 0..<(multiline ? 3 : 1) { advance() }
            var nul = false
            while let c = peek {
                if c == quote {
                    if !multiline { advance(); return nul }
                    if i + 2 < s.count && s[i + 1] == quote && s[i + 2] == quote {
                        // Up to two more quotes may belong to the string: `""""` ends with one inside.
                        var run = 0
                        while peek == quote { advance(); run += 1 }
                        if run > 3 { text += String(repeating: String(quote), count: run - 3) }
                        return nul
                    }
                }
                if c == "\\" && quote == "\"" {
                    advance()
                    guard let e = peek else { return nul }
                    advance()
                    switch e {
                    case "u", "U":
                        var hex = ""
                        for _ in 0..<(e == "u" ? 4 : 8) where peek != nil {
                            hex.unicodeScalars.append(peek!)
                            advance()
                        }
                        let code = UInt32(hex, radix: 16) ?? 1
                        if code == 0 { nul = true }
                        if let scalar = Unicode.Scalar(code) { text.unicodeScalars.append(scalar) }
                    case "n": text += "\n"
                    case "t": text += "\t"
                    case "r": text += "\r"
                    case "b": text += "\u{8}"
                    case "f": text += "\u{C}"
                    case "e": text += "\u{1B}"
                    case "\n", " ", "\t", "\r": skipBlanksAndLines()  // a line-ending backslash
                    default: text.unicodeScalars.append(e)
                    }
                    continue
                }
                text.unicodeScalars.append(c)
                advance()
            }
            return nul
        }
    }
}
