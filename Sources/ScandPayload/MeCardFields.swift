import ScandCore

/// The field syntax of the DoCoMo-style formats (MECARD, MATMSG, MEBKM) and of Wi-Fi codes:
/// `KEY:value;KEY:value;;`. A backslash escapes the next character (`\;` `\,` `\:` `\\` `\"`), an empty
/// field (`;;`) ends the record, and a value wrapped in unescaped double quotes has them removed
/// (Wi-Fi uses them to say "this SSID is text, not hex").
struct MeCardField: Equatable {
    /// Upper-cased.
    var key: String
    var value: String
    /// The value was wrapped in unescaped double quotes (now removed).
    var quoted: Bool
}

enum MeCardFields {
    /// Fields of the record body (the text after `MECARD:`, `WIFI:`, …). Tokens without a `KEY:` are
    /// skipped; a record that runs to the end without `;;` is accepted, as generators often omit it.
    static func parse(_ s: ArraySlice<UInt8>) -> [MeCardField] {
        var fields: [MeCardField] = []
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == 0x3B { break }  // empty field: end of record
            // Key: up to ':'; a ';' first means a token without a key.
            var j = i
            while j < s.endIndex, s[j] != 0x3A, s[j] != 0x3B { j += 1 }
            guard j < s.endIndex, s[j] == 0x3A else {
                i = j + 1
                continue
            }
            let keyBytes = s[i..<j]
            var out: [UInt8] = []
            var k = j + 1
            let opensWithQuote = k < s.endIndex && s[k] == 0x22
            var closesWithQuote = false
            while k < s.endIndex, s[k] != 0x3B {
                if s[k] == 0x5C, k + 1 < s.endIndex {
                    out.append(s[k + 1])
                    closesWithQuote = false
                    k += 2
                } else {
                    closesWithQuote = s[k] == 0x22
                    out.append(s[k])
                    k += 1
                }
            }
            i = k + 1
            let keyValid =
                !keyBytes.isEmpty && keyBytes.count <= 16
                && keyBytes.allSatisfy { PayloadBytes.isAlnum($0) || $0 == 0x2D || $0 == 0x5F }
            guard keyValid else { continue }
            let quoted = opensWithQuote && closesWithQuote && out.count >= 2
            let value = quoted ? out[1..<(out.count - 1)] : out[...]
            fields.append(
                MeCardField(
                    key: PayloadBytes.string(keyBytes.map(PayloadBytes.upper)),
                    value: PayloadBytes.string(value), quoted: quoted))
        }
        return fields
    }
}

extension Array where Element == MeCardField {
    /// The first non-empty value for `key`.
    func first(_ key: String) -> String? {
        first { $0.key == key && !$0.value.isEmpty }?.value
    }

    /// Every non-empty value for `key`, in order.
    func all(_ key: String) -> [String] {
        filter { $0.key == key && !$0.value.isEmpty }.map(\.value)
    }
}
