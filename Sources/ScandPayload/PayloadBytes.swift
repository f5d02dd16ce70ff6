import ScandCore

/// Byte-level helpers of the payload parsers. Payloads are untrusted and may be megabytes long, so the parsers
/// work on UTF-8 bytes with integer indices (nothing quadratic); every delimiter is ASCII, which UTF-8 never
/// reuses inside a multi-byte sequence, so splitting on one is safe.
enum PayloadBytes {
    static let gs: UInt8 = 0x1D

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isAlpha(_ b: UInt8) -> Bool { isUpper(b) || (b >= 0x61 && b <= 0x7A) }
    static func isAlnum(_ b: UInt8) -> Bool { isAlpha(b) || isDigit(b) }
    static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b | 0x20 : b }
    static func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b & 0xDF : b }
    /// ASCII whitespace that surrounds payloads typed by people or emitted by generators.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    /// C0 controls and DEL. Bytes of non-ASCII scalars are never below 0x80, so this only hits ASCII.
    static func isControl(_ b: UInt8) -> Bool { b < 0x20 || b == 0x7F }

    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }

    static func allDigits(_ s: ArraySlice<UInt8>) -> Bool { !s.isEmpty && s.allSatisfy(isDigit) }

    /// `s` starts with `prefix` (ASCII, compared case-insensitively) at offset `at` from its start.
    static func hasPrefix(_ s: ArraySlice<UInt8>, _ prefix: String, at: Int = 0) -> Bool {
        let p = prefix.utf8
        guard at >= 0, s.count - at >= p.count else { return false }
        var i = s.startIndex + at
        for c in p {
            if lower(s[i]) != lower(c) { return false }
            i += 1
        }
        return true
    }

    /// Equal to `word` ignoring ASCII case.
    static func equals(_ s: ArraySlice<UInt8>, _ word: String) -> Bool {
        s.count == word.utf8.count && hasPrefix(s, word)
    }

    /// Leading and trailing ASCII whitespace and a leading byte-order mark removed.
    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = s.startIndex, hi = s.endIndex
        if hi - lo >= 3, s[lo] == 0xEF, s[lo + 1] == 0xBB, s[lo + 2] == 0xBF { lo += 3 }
        while lo < hi, isSpace(s[lo]) { lo += 1 }
        while hi > lo, isSpace(s[hi - 1]) { hi -= 1 }
        return s[lo..<hi]
    }

    static func trimmedString(_ s: ArraySlice<UInt8>) -> String { string(trimmed(s)) }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    /// Whether every `%` in `s` begins an escape of two hex digits, as RFC 3986 requires of a URI.
    static func hasValidPercentEscapes(_ s: ArraySlice<UInt8>) -> Bool {
        var i = s.startIndex
        while let at = s[i...].firstIndex(of: 0x25) {
            guard s.endIndex - at >= 3, hexValue(s[at + 1]) != nil, hexValue(s[at + 2]) != nil else { return false }
            i = at + 3
        }
        return true
    }

    /// RFC 3986 percent-decoding (`escape` `=` for quoted-printable); an escape not followed by two hex
    /// digits is kept literally (lenient, as browsers are). `plusAsSpace` for form-style query values
    /// (`body=Hello+there`).
    static func percentDecoded(_ s: ArraySlice<UInt8>, escape: UInt8 = 0x25, plusAsSpace: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let b = s[i]
            if b == escape, s.endIndex - i >= 3, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
                continue
            }
            out.append(plusAsSpace && b == 0x2B ? 0x20 : b)
            i += 1
        }
        return out
    }

    /// Splits on `separator` (keeping empty pieces).
    static func split(_ s: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        s.split(separator: separator, omittingEmptySubsequences: false)
    }

    /// Parses a URI-style query (`a=1&b=2`) into lower-cased keys and percent-decoded values.
    static func queryItems(_ s: ArraySlice<UInt8>, plusAsSpace: Bool) -> [(key: String, value: String)] {
        var items: [(key: String, value: String)] = []
        for part in split(s, on: 0x26) where !part.isEmpty {
            let eq = part.firstIndex(of: 0x3D) ?? part.endIndex
            let key = string(percentDecoded(part[part.startIndex..<eq]).map(lower))
            let value = eq < part.endIndex ? string(percentDecoded(part[(eq + 1)...], plusAsSpace: plusAsSpace)) : ""
            items.append((key, value))
        }
        return items
    }

    /// Parses a plain decimal number (`-12.345`, `+7`, `.5` not allowed): the syntax is checked here so
    /// that `Double(_:)` never sees hex, exponents, "nan" or "inf".
    static func decimal(_ s: ArraySlice<UInt8>) -> Double? {
        guard !s.isEmpty, s.count <= 32 else { return nil }
        var i = s.startIndex
        if s[i] == 0x2D || s[i] == 0x2B { i += 1 }
        var intDigits = 0, fracDigits = 0, sawDot = false
        while i < s.endIndex {
            let b = s[i]
            if isDigit(b) {
                if sawDot { fracDigits += 1 } else { intDigits += 1 }
            } else if b == 0x2E, !sawDot {
                sawDot = true
            } else {
                return nil
            }
            i += 1
        }
        guard intDigits > 0, !sawDot || fracDigits > 0 else { return nil }
        return Double(string(s))
    }

    /// Value of a short run of digits; nil when empty, not all digits or longer than `maxDigits` (so no
    /// overflow is possible).
    static func integer(_ s: ArraySlice<UInt8>, maxDigits: Int = 9) -> Int? {
        guard !s.isEmpty, s.count <= maxDigits else { return nil }
        var v = 0
        for b in s {
            guard isDigit(b) else { return nil }
            v = v * 10 + Int(b - 0x30)
        }
        return v
    }
}
