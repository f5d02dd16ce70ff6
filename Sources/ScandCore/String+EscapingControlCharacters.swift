extension Unicode.Scalar {
    /// Never written raw, in JSON or on a terminal: control characters (C0, DEL, C1), the line and paragraph
    /// separators, the bidirectional controls that reorder what a terminal shows (embeddings and overrides
    /// U+202A–U+202E, isolates U+2066–U+2069, the marks U+200E, U+200F, U+061C) and U+FEFF (a byte-order
    /// mark, invisible).
    public var isUnsafeOnATerminal: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: true
        default: false
        }
    }

    /// Appends this scalar as JSON's `\\uXXXX`.
    public func writeEscaped(to out: inout String) {
        let hex = String(value, radix: 16, uppercase: false)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension String {
    /// This text with every character unsafe on a terminal written as `\\uXXXX`, as JSON escapes it: for log
    /// lines, configuration errors and anything printed to a terminal that may carry barcode text.
    public func escapingControlCharacters() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.isUnsafeOnATerminal { scalar.writeEscaped(to: &out) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
