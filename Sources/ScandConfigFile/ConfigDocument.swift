import ScandCore
import TOMLKit

/// A configuration file read as TOML 1.0 (by TOMLKit, over toml++), flattened to the settings table's shape:
/// each value under its section (`camera`, or a dotted one such as `camera.controls`) and key, with the line
/// that sets it. `[camera]\nfps = 5`, `camera.fps = 5` and `camera = { fps = 5 }` are the same entry.
public struct ConfigDocument: Sendable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case array([Value])
        /// A table where a value was expected, or a date or time: no setting takes one.
        case other(String)

        public var typeName: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            // TOML's nan and inf are floats, but no setting's number: named as written.
            case .float(let d): d.isFinite ? "a number" : d.isNaN ? "nan" : d > 0 ? "inf" : "-inf"
            case .boolean: "true or false"
            case .array: "an array"
            case .other(let name): name
            }
        }
    }

    public struct Entry: Sendable, Equatable {
        public var section: String
        public var key: String
        public var value: Value
        public var line: Int
    }

    /// A table that is not one of `sections` (nor leads to one), with the line that opens it.
    public struct UnknownTable: Sendable, Equatable {
        public var name: String
        public var line: Int
    }

    public var entries: [Entry] = []
    public var unknownTables: [UnknownTable] = []

    public typealias ParseError = ScandConfig.Problem

    /// Reads `bytes` as a TOML document whose tables are `sections`. Syntax errors (TOML 1.0's, from toml++)
    /// come with their line and column; what TOML allows but a configuration should not hold (a byte-order
    /// mark, a NUL byte that would end the text early for the C parser) is refused with its line too.
    public init(bytes: [UInt8], sections: [String]) throws(ParseError) {
        let text = try Self.text(of: bytes)
        try Self.checkTableHeaders(bytes)
        try Self.checkArrayValues(bytes)
        let root: TOMLTable
        do { root = try TOMLTable(string: text) } catch let error as TOMLParseError {
            var message = error.description.isEmpty ? "not valid TOML" : Self.oneLine(error.description)
            if message.hasSuffix("is not representable in 64 bits") {
                message += ": out of range (an integer is at most 9223372036854775807)"
            }
            throw ParseError(line: max(error.source.begin.line, 1), column: error.source.begin.column, message: message)
        } catch {
            throw ParseError(line: 1, message: "not valid TOML: \(error)")
        }
        let lines = TOMLKeyLines(text)
        flatten(root, path: [], sections: sections, lines: lines)
        entries.sort { $0.line < $1.line }
        unknownTables.sort { $0.line < $1.line }
    }

    private mutating func flatten(_ table: TOMLTable, path: [String], sections: [String], lines: TOMLKeyLines) {
        for key in table.keys {
            guard let node = table[key] else { continue }
            let full = path + [key]
            let name = full.joined(separator: ".")
            if let inner = node.table, sections.contains(where: { $0 == name || $0.hasPrefix(name + ".") }) {
                flatten(inner, path: full, sections: sections, lines: lines)
            } else if node.table != nil && !sections.contains(path.joined(separator: ".")) {
                unknownTables.append(UnknownTable(name: name, line: lines.line(of: full)))
            } else {
                var value = Self.value(node)
                if lines.hidesNUL(full) { value = .string("\u{0}") }
                entries.append(Entry(section: path.joined(separator: "."), key: key, value: value, line: lines.line(of: full)))
            }
        }
    }

    private static func value(_ node: TOMLValueConvertible) -> Value {
        switch node.type {
        case .string: .string(node.string ?? "")
        case .int: .integer(node.int ?? 0)
        case .double: .float(node.double ?? 0)
        case .bool: .boolean(node.bool ?? false)
        case .array: .array(node.array.map { $0.map(value) } ?? [])
        case .table: .other("a table")
        case .date: .other("a date")
        case .time: .other("a time")
        case .dateTime: .other("a date-time")
        }
    }

    /// The file's text: UTF-8 without a byte-order mark and without NUL bytes (the C parser would stop at one
    /// and read the rest of the file as absent).
    static func text(of bytes: [UInt8]) throws(ParseError) -> String {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw ParseError(line: 1, message: "the file starts with a byte-order mark (BOM); save it as UTF-8 without one")
        }
        var line = 1
        var start = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") || b == 0 || i == bytes.count - 1 {
            if b == 0 { throw ParseError(line: line, message: "a NUL byte (a binary file, not a configuration file)") }
            let end = b == UInt8(ascii: "\n") ? i : i + 1
            if String(validating: bytes[start..<end], as: UTF8.self) == nil {
                throw ParseError(line: line, message: "not valid UTF-8")
            }
            line += 1
            start = i + 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Refuses a table header whose '[' (or '[[') is not followed by a key: toml++ 3.4 assumes one there
    /// (TOML_ASSERT_ASSUME in parse_key), aborting in a debug build and undefined in a release build
    /// (`[#camera]`, `[` at a line's end; found by scripts/fuzz). Any line whose first non-blank is '[' is
    /// checked: inside a value over several lines (an array of arrays, a long string) such a line refused
    /// here is one no scand setting takes.
    static func checkTableHeaders(_ bytes: [UInt8]) throws(ParseError) {
        func isKeyStart(_ b: UInt8) -> Bool {
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]")].contains(b)
        }
        var line = 1
        var i = 0
        while i < bytes.count {
            let start = i
            func skipBlanks() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
            skipBlanks()
            if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
                i += 1
                skipBlanks()
                if i < bytes.count, bytes[i] == UInt8(ascii: "[") { i += 1 }
                skipBlanks()
                if i < bytes.count, !isKeyStart(bytes[i]) {
                    throw ParseError(line: line, column: i - start + 1, message: "a table header needs a table's name after '['")
                }
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
            i += 1
            line += 1
        }
    }

    /// Refuses a '}' where an array's value should come (`[1, }`): toml++ 3.4 assumes none there
    /// (TOML_ASSERT_ASSUME in parse_value), as after a table header's '['. Strings of the four kinds and
    /// comments are stepped over; outside them, a '}' right after '[' or ',' is never valid TOML.
    static func checkArrayValues(_ bytes: [UInt8]) throws(ParseError) {
        let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
        var line = 1
        var last: UInt8 = 0  // the last byte outside strings and comments that is not blank
        var i = 0
        func starts(_ b: UInt8, times n: Int) -> Bool { i + n <= bytes.count && bytes[i..<i + n].allSatisfy { $0 == b } }
        while i < bytes.count {
            let b = bytes[i]
            if b == quote || b == apostrophe {
                // A string: to its closing quote (three for a multi-line one); a basic string has escapes.
                let n = starts(b, times: 3) ? 3 : 1
                i += n
                while i < bytes.count && !starts(b, times: n) {
                    if bytes[i] == UInt8(ascii: "\n") { line += 1 }
                    i += b == quote && bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i += n
                last = b
                continue
            }
            switch b {
            case UInt8(ascii: "#"): while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "\n"): line += 1; i += 1
            case 0x20, 0x09, 0x0D: i += 1
            default:
                if b == UInt8(ascii: "}") && (last == UInt8(ascii: "[") || last == UInt8(ascii: ",")) {
                    throw ParseError(line: line, message: "expected a value, saw '}'")
                }
                last = b
                i += 1
            }
        }
    }

    /// toml++'s message on one line: it quotes what it saw, line break included ("saw 'fals\n'").
    static func oneLine(_ message: String) -> String {
        var out = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
