/// A JSON value whose objects keep their key order, so every event starts with `class` and the wire
/// format is stable for golden tests.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }
    public func hash(into h: inout Hasher) { h.combine(serialized()) }

    /// One line of JSON. Every control character (C0, DEL, C1), the line/paragraph separators, the
    /// bidirectional controls and U+FEFF are written as \u escapes: barcode text is untrusted and must never
    /// reach a terminal raw, nor reorder what it shows.
    public func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if !d.isFinite { out += "null" } else if d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)) } else { out += String(d) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    writeEscape(scalar, to: &out)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Characters never written raw: control characters (C0, DEL, C1), the line and paragraph separators,
    /// the bidirectional controls that reorder what a terminal shows (embeddings and overrides U+202A–U+202E,
    /// isolates U+2066–U+2069, the marks U+200E, U+200F, U+061C) and U+FEFF (a byte-order mark, invisible).
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: true
        default: false
        }
    }

    static func writeEscape(_ s: Unicode.Scalar, to out: inout String) {
        let hex = String(s.value, radix: 16, uppercase: false)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Rounds to `places` decimals so that coordinates do not print as 0.30000000000000004.
    public static func number(_ d: Double, places: Int) -> JSONValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .double((d * scale).rounded() / scale)
    }
}

extension String {
    /// This text with every character JSON escapes as unsafe for a terminal (control characters, line
    /// separators, bidirectional controls, U+FEFF) written as `\\uXXXX`: for log lines and for anything
    /// printed to a terminal that may carry barcode text.
    public func escapingControlCharacters() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if JSONValue.needsEscape(scalar) { JSONValue.writeEscape(scalar, to: &out) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
