/// The part of TOML that scand's configuration uses: comments, `[table]` headers, `key = value` with
/// strings (basic and literal), integers, floats, booleans and one-line arrays of those. Errors carry the
/// line, so a wrong file is refused with the line and the reason.
public enum TOML {
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([Value])

        public var typeName: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a number"
            case .boolean: "true or false"
            case .array: "an array"
            }
        }
    }

    public struct Entry: Sendable, Equatable {
        public var value: Value
        public var line: Int
    }

    /// Keys by table ("" for keys before the first header), each with the line it was set on.
    public struct Document: Sendable, Equatable {
        public var tables: [String: [String: Entry]] = [:]
        public var tableLines: [String: Int] = [:]
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The text of a file's bytes: UTF-8 without a byte-order mark. Invalid UTF-8 is refused with its line
    /// rather than read as U+FFFD, which would let a wrong value pass.
    public static func decode(_ bytes: [UInt8]) throws(ParseError) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw ParseError(line: 1, message: "the file starts with a byte-order mark (BOM); save it as UTF-8 without one")
        }
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") || i == bytes.count - 1 {
            let end = b == UInt8(ascii: "\n") ? i : i + 1
            if String(validating: bytes[start..<end], as: UTF8.self) == nil {
                throw ParseError(line: line, message: "not valid UTF-8")
            }
            line += 1
            start = i + 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func parse(_ text: String) throws(ParseError) -> Document {
        var doc = Document()
        doc.tables[""] = [:]
        var table = ""
        if text.unicodeScalars.first == "\u{FEFF}" {
            throw ParseError(line: 1, message: "the file starts with a byte-order mark (BOM); save it as UTF-8 without one")
        }
        // Split on scalars: as Characters, "\r\n" is one grapheme and a CRLF file would be a single line.
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = index + 1
            var chars = Array(raw)
            if chars.last == "\r" { chars.removeLast() }  // CRLF line ends
            if chars.contains("\r") {
                throw ParseError(line: line, message: "carriage return without a line feed; save the file with LF or CRLF line ends")
            }
            var scanner = Scanner(chars, line: line)
            scanner.skipSpaces()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                scanner.advance()
                scanner.skipSpaces()
                var name = scanner.bareKey()
                // A dotted header names a table inside another (`[camera.controls]`).
                while !name.isEmpty, scanner.peek == "." {
                    scanner.advance()
                    let part = scanner.bareKey()
                    name += part.isEmpty ? "" : "." + part
                    if part.isEmpty { name = "" }
                }
                scanner.skipSpaces()
                guard !name.isEmpty, scanner.peek == "]" else { throw ParseError(line: line, message: "malformed table header") }
                scanner.advance()
                scanner.skipSpaces()
                guard scanner.atEndOrComment else { throw ParseError(line: line, message: "unexpected text after the table header") }
                guard doc.tables[name] == nil else { throw ParseError(line: line, message: "table [\(name)] appears twice") }
                doc.tables[name] = [:]
                doc.tableLines[name] = line
                table = name
                continue
            }
            let key = scanner.bareKey()
            guard !key.isEmpty else { throw ParseError(line: line, message: "expected key = value") }
            scanner.skipSpaces()
            guard scanner.peek == "=" else { throw ParseError(line: line, message: "expected '=' after '\(key)'") }
            scanner.advance()
            scanner.skipSpaces()
            let value = try scanner.value(depth: 0)
            scanner.skipSpaces()
            guard scanner.atEndOrComment else { throw ParseError(line: line, message: "unexpected text after the value of '\(key)'") }
            guard doc.tables[table]?[key] == nil else { throw ParseError(line: line, message: "'\(key)' is set twice") }
            doc.tables[table, default: [:]][key] = Entry(value: value, line: line)
        }
        return doc
    }

    struct Scanner {
        let chars: [Unicode.Scalar]
        let line: Int
        var i = 0

        init(_ chars: [Unicode.Scalar], line: Int) {
            self.chars = chars
            self.line = line
        }

        var peek: Unicode.Scalar? { i < chars.count ? chars[i] : nil }
        var atEndOrComment: Bool { peek == nil || peek == "#" }
        mutating func advance() { i += 1 }
        mutating func skipSpaces() { while peek == " " || peek == "\t" { i += 1 } }

        mutating func bareKey() -> String {
            var s = ""
            while let c = peek, ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c == "-" || ("0"..."9").contains(c) {
                s.unicodeScalars.append(c)
                i += 1
            }
            return s
        }

        func error(_ message: String) -> ParseError { ParseError(line: line, message: message) }

        mutating func value(depth: Int) throws(ParseError) -> Value {
            guard let c = peek else { throw error("missing value") }
            switch c {
            case "\"": return .string(try basicString())
            case "'": return .string(try literalString())
            case "[":
                guard depth < 4 else { throw error("arrays nested too deeply") }
                advance()
                var items: [Value] = []
                while true {
                    skipSpaces()
                    if peek == "]" { advance(); return .array(items) }
                    items.append(try value(depth: depth + 1))
                    skipSpaces()
                    if peek == "," { advance(); continue }
                    skipSpaces()
                    guard peek == "]" else { throw error("expected ',' or ']' in array") }
                }
            default:
                var token = ""
                while let d = peek, d != ",", d != "]", d != " ", d != "\t", d != "#", d != "\r" {
                    token.unicodeScalars.append(d)
                    advance()
                }
                if token == "true" { return .boolean(true) }
                if token == "false" { return .boolean(false) }
                let digits = token.replacingUnderscores()
                if let n = Int(digits) { return .integer(n) }
                if digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let d = Double(digits), d.isFinite { return .float(d) }
                throw error(token.isEmpty ? "missing value" : "'\(token)' is not a value (strings need quotes)")
            }
        }

        mutating func basicString() throws(ParseError) -> String {
            advance()
            var s = ""
            while let c = peek {
                advance()
                switch c {
                case "\"": return s
                case "\\":
                    guard let e = peek else { throw error("unterminated string") }
                    advance()
                    switch e {
                    case "n": s += "\n"
                    case "t": s += "\t"
                    case "r": s += "\r"
                    case "\\": s += "\\"
                    case "\"": s += "\""
                    case "u", "U":
                        let n = e == "u" ? 4 : 8
                        var hex = ""
                        for _ in 0..<n {
                            guard let h = peek else { throw error("short \\u escape") }
                            hex.unicodeScalars.append(h)
                            advance()
                        }
                        guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { throw error("bad \\u escape") }
                        s.unicodeScalars.append(scalar)
                    default: throw error("unknown escape \\\(e)")
                    }
                default:
                    if c.value < 0x20 && c != "\t" { throw error("control character in string") }
                    s.unicodeScalars.append(c)
                }
            }
            throw error("unterminated string")
        }

        mutating func literalString() throws(ParseError) -> String {
            advance()
            var s = ""
            while let c = peek {
                advance()
                if c == "'" { return s }
                s.unicodeScalars.append(c)
            }
            throw error("unterminated string")
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
