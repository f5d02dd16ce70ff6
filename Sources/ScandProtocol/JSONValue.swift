import ScandCore

/// A JSON value whose objects keep their key order, so every event starts with `class` and the wire
/// format is stable for golden tests.
public indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

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
        // Most strings (formats, classes, numbers, times) are printable ASCII with nothing to escape: appended
        // whole rather than scalar by scalar, which was a tenth of the event runtime's time.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.isUnsafeOnATerminal {
                    scalar.writeEscaped(to: &out)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Rounds to `places` decimals so that coordinates do not print as 0.30000000000000004.
    public static func number(_ d: Double, places: Int) -> JSONValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .double((d * scale).rounded() / scale)
    }
}
