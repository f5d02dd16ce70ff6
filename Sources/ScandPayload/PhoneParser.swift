import ScandCore

extension Payload {
    /// A number to call: `tel:` (RFC 3966).
    public struct Phone: Sendable, Equatable {
        /// As written after the scheme, percent-decoded (`+1-555-0100`, `+15550100;ext=12`).
        public var number: String
    }
}

enum PhoneParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.Phone? {
        guard PayloadBytes.hasPrefix(s, "tel:") else { return nil }
        let number = PayloadBytes.percentDecoded(s.dropFirst(4))
        return isNumber(number[...]) ? Payload.Phone(number: PayloadBytes.string(number)) : nil
    }

    /// + - . ( ) space * # ; = , / (letters are allowed too: pause "p"/"w", "ext=", "phone-context=").
    static let allowed: Set<UInt8> = [0x2B, 0x2D, 0x2E, 0x28, 0x29, 0x20, 0x2A, 0x23, 0x3B, 0x3D, 0x2C, 0x2F]

    /// Dial-able characters only (digits, `+`, visual separators, `*#`, pause letters and RFC 3966
    /// parameters), at least three digits, and short: E.164 numbers have at most 15 digits, and even
    /// with an extension and parameters 64 characters is generous.
    static func isNumber(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count <= 64 else { return false }
        var digits = 0
        for b in s {
            if PayloadBytes.isDigit(b) { digits += 1; continue }
            guard allowed.contains(b) || PayloadBytes.isAlpha(b) else { return false }
        }
        return digits >= 3 && s.first.map { $0 == 0x2B || $0 == 0x28 || PayloadBytes.isDigit($0) || $0 == 0x2A || $0 == 0x23 } == true
    }
}
