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
            case .float: "a number"
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

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int?
        public var message: String
        public var description: String { "line \(line)\(column.map { ", column \($0)" } ?? ""): \(message)" }
    }

    /// Reads `bytes` as a TOML document whose tables are `sections`. Syntax errors (TOML 1.0's, from toml++)
    /// come with their line and column; what TOML allows but a configuration should not hold (a byte-order
    /// mark, a NUL byte that would end the text early for the C parser) is refused with its line too.
    public init(bytes: [UInt8], sections: [String]) throws(ParseError) {
        let text = try Self.text(of: bytes)
        let root: TOMLTable
        do { root = try TOMLTable(string: text) } catch let error as TOMLParseError {
            var message = error.description.isEmpty ? "not valid TOML" : error.description
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
}
