/// Reads the fixed head of scand's own JSON lines (keys in a known order, no escapes in what is read),
/// byte by byte: an event's envelope is read for every line the bridge forwards, and the payload stays
/// untouched text.
package struct JSONPrefixScanner {
    let bytes: [UInt8]
    var i = 0

    package init(_ text: String) { bytes = Array(text.utf8) }

    package var atEnd: Bool {
        var j = i
        while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x0A || bytes[j] == 0x0D || bytes[j] == 0x09 { j += 1 }
        return j == bytes.count
    }

    package mutating func skipSpaces() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }

    /// Consumes `token` (after spaces) if it comes next.
    package mutating func take(_ token: String) -> Bool {
        skipSpaces()
        let t = Array(token.utf8)
        guard bytes.count - i >= t.count, Array(bytes[i..<i + t.count]) == t else { return false }
        i += t.count
        return true
    }

    /// A string without escapes (what scand writes in these places never needs one).
    package mutating func string() -> String? {
        skipSpaces()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        var j = i + 1
        while j < bytes.count, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\\"), bytes[j] >= 0x20 { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else { return nil }
        defer { i = j + 1 }
        return String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
    }

    /// A non-negative integer of at most 18 digits (no overflow possible).
    package mutating func integer() -> Int? {
        skipSpaces()
        var j = i
        var n = 0
        while j < bytes.count, (0x30...0x39).contains(bytes[j]), j - i < 18 {
            n = n * 10 + Int(bytes[j] - 0x30)
            j += 1
        }
        guard j > i, j == bytes.count || !(0x30...0x39).contains(bytes[j]) else { return nil }
        i = j
        return n
    }
}
