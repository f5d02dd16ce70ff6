import ScandCore

extension Payload {
    /// A text message to send: `sms:` (RFC 5724), `smsto:`/`mmsto:` (`SMSTO:number:body`).
    public struct SMS: Sendable, Equatable {
        /// The recipient; several are kept comma-separated as written.
        public var number: String
        public var body: String?
    }
}

enum SMSParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.SMS? {
        for prefix in ["smsto:", "mmsto:"] where PayloadBytes.hasPrefix(s, prefix) {
            // SMSTO:number:body: the body is raw text and may contain colons.
            let rest = s.dropFirst(prefix.utf8.count)
            let colon = rest.firstIndex(of: 0x3A) ?? rest.endIndex
            let body = colon < rest.endIndex ? PayloadBytes.string(rest[(colon + 1)...]) : ""
            return make(PayloadBytes.percentDecoded(rest[rest.startIndex..<colon])[...], body: body)
        }
        for prefix in ["sms:", "mms:"] where PayloadBytes.hasPrefix(s, prefix) {
            // sms:number?body=… ; iOS writes sms:number&body=… and some generators sms:number;?body=…
            let rest = s.dropFirst(prefix.utf8.count)
            let q = rest.firstIndex { $0 == 0x3F || $0 == 0x26 } ?? rest.endIndex
            var number = rest[rest.startIndex..<q]
            if number.last == 0x3B { number = number.dropLast() }
            var body = ""
            if q < rest.endIndex {
                body = PayloadBytes.queryItems(rest[(q + 1)...], plusAsSpace: false).first { $0.key == "body" }?.value ?? ""
            }
            return make(PayloadBytes.percentDecoded(number)[...], body: body)
        }
        return nil
    }

    /// Each comma-separated recipient must be a phone number.
    static func make(_ number: ArraySlice<UInt8>, body: String) -> Payload.SMS? {
        let trimmed = PayloadBytes.trimmed(number)
        let recipients = PayloadBytes.split(trimmed, on: 0x2C)
        guard !trimmed.isEmpty, trimmed.count <= 1024,
            recipients.allSatisfy({ PhoneParser.isNumber(PayloadBytes.trimmed($0)) })
        else { return nil }
        return Payload.SMS(number: PayloadBytes.string(trimmed), body: body.isEmpty ? nil : body)
    }
}
