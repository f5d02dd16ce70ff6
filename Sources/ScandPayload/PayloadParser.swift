import ScandCore

/// Chooses the parser for a symbol's content, from its format, content type, symbology identifier and
/// the content's own prefix. Never fails: anything unrecognised or malformed is `.text`.
public enum PayloadParser {
    public static func parse(_ d: Detection) -> Payload {
        parse(format: d.format, text: d.text, contentType: d.contentType, symbologyIdentifier: d.symbologyIdentifier)
    }

    /// - Parameters:
    ///   - text: the decoded text (zxing's rendering; GS1 either with GS separators or in parentheses form).
    ///   - symbologyIdentifier: ISO/IEC 15424, e.g. "]C1", "]Q3"; empty when unknown.
    public static func parse(
        format: BarcodeFormat, text: String, contentType: Detection.ContentType = .text,
        symbologyIdentifier: String = ""
    ) -> Payload {
        let bytes = Array(text.utf8)
        return interpret(format: format, bytes[...], contentType: contentType, symbologyIdentifier: symbologyIdentifier)
            ?? .text(text)
    }

    static func interpret(
        format: BarcodeFormat, _ bytes: ArraySlice<UInt8>, contentType: Detection.ContentType,
        symbologyIdentifier: String
    ) -> Payload? {
        // Content the symbology itself declares comes first, and decides alone: a GS1 symbol that fails
        // validation is a misread or a misprint, not a URL.
        if GS1Parser.claims(format: format, contentType: contentType, symbologyIdentifier: symbologyIdentifier, text: bytes) {
            return GS1Parser.parse(bytes, format: format).map(Payload.gs1)
        }
        switch format {
        case .ean13, .ean8, .upcA, .upcE: return ProductParser.parse(PayloadBytes.trimmed(bytes), format: format)
        default: break
        }
        // AAMVA's header starts with '@' and control characters, so it is matched before trimming.
        if AAMVAParser.hasHeader(bytes) { return AAMVAParser.parse(bytes).map(Payload.driverLicense) }
        return byPrefix(PayloadBytes.trimmed(bytes))
    }

    /// Schemes and markers are case-insensitive ("WIFI:", "wifi:", "MAILTO:" …).
    static func byPrefix(_ s: ArraySlice<UInt8>) -> Payload? {
        let p = { (prefix: String) in PayloadBytes.hasPrefix(s, prefix) }
        if p("WIFI:") { return WiFiParser.parse(s).map(Payload.wifi) }
        if p("MECARD:") || p("BEGIN:VCARD") { return ContactParser.parse(s).map(Payload.contact) }
        if p("BEGIN:VCALENDAR") || p("BEGIN:VEVENT") { return CalendarEventParser.parse(s).map(Payload.event) }
        if p("mailto:") || p("MATMSG:") || p("SMTP:") { return EmailParser.parse(s).map(Payload.email) }
        if p("tel:") { return PhoneParser.parse(s).map(Payload.phone) }
        if p("sms:") || p("smsto:") || p("mms:") || p("mmsto:") { return SMSParser.parse(s).map(Payload.sms) }
        if p("geo:") { return GeoParser.parse(s).map(Payload.geo) }
        if p("MEBKM:") || p("URLTO:") { return URLParser.parse(s).map(Payload.url) }
        // A GS1 Digital Link is a URL whose path and query are GS1 data; one that does not validate is a URL.
        if let gs1 = DigitalLinkParser.parse(s) { return .gs1(gs1) }
        if let url = URLParser.parse(s) { return .url(url) }
        if EmailParser.isAddress(s) { return EmailParser.parse(s).map(Payload.email) }
        // A GS1 element string typed into a plain symbol in its human-readable form; only if all of it validates.
        if s.first == 0x28, let gs1 = GS1Parser.parse(s, format: .qrCode) { return .gs1(gs1) }
        return nil
    }
}
