import ScandCore
import ScandTestSupport
@testable import ScandPayload

/// Parses `text` as if `format` had decoded it.
func payloadOf(
    _ text: String, format: BarcodeFormat = .qrCode, contentType: Detection.ContentType = .text,
    symbology: String = ""
) -> Payload {
    PayloadParser.parse(format: format, text: text, contentType: contentType, symbologyIdentifier: symbology)
}

typealias PayloadRandom = SeededRandom

/// A strict check that `s` is one JSON value on one line with no raw control characters: enough to
/// prove that hostile payloads cannot break the event stream. Recursion is fine: the depth of our
/// own output is at most three.
struct JSONChecker {
    let b: [UInt8]
    var i = 0

    static func isValidLine(_ s: String) -> Bool {
        var c = JSONChecker(b: Array(s.utf8))
        guard !c.b.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
        guard c.value() else { return false }
        return c.i == c.b.count
    }

    mutating func value() -> Bool {
        guard i < b.count else { return false }
        switch b[i] {
        case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    mutating func container(close: UInt8, keyed: Bool) -> Bool {
        i += 1
        if i < b.count, b[i] == close { i += 1; return true }
        while true {
            if keyed {
                guard string(), i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                i += 1
            }
            guard value(), i < b.count else { return false }
            if b[i] == close { i += 1; return true }
            guard b[i] == UInt8(ascii: ",") else { return false }
            i += 1
        }
    }

    mutating func string() -> Bool {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { return false }
        i += 1
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "\""): i += 1; return true
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { return false }
                let e = b[i + 1]
                if e == UInt8(ascii: "u") {
                    guard i + 6 <= b.count, b[(i + 2)..<(i + 6)].allSatisfy({ PayloadBytes.hexValue($0) != nil }) else { return false }
                    i += 6
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(e) else { return false }
                    i += 2
                }
            default: i += 1
            }
        }
        return false
    }

    mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { return false }
        i += w.count
        return true
    }

    mutating func number() -> Bool {
        let start = i
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < b.count, PayloadBytes.isDigit(b[i]) { i += 1 }
        guard i > digitsStart else { return false }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let f = i
            while i < b.count, PayloadBytes.isDigit(b[i]) { i += 1 }
            guard i > f else { return false }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let e = i
            while i < b.count, PayloadBytes.isDigit(b[i]) { i += 1 }
            guard i > e else { return false }
        }
        return i > start
    }
}
