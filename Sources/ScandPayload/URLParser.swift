import ScandCore

extension Payload {
    /// A link: `scheme://host…` (any scheme with an authority), a DoCoMo bookmark (`MEBKM:`) or `URLTO:`.
    public struct URL: Sendable, Equatable {
        /// The link as written (bookmark escapes removed).
        public var url: String
        /// Lower-cased.
        public var scheme: String
        /// Lower-cased; brackets kept for IPv6 literals.
        public var host: String
        /// A bookmark's title.
        public var title: String?
    }
}

enum URLParser {
    /// `s` is the trimmed payload.
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.URL? {
        if PayloadBytes.hasPrefix(s, "MEBKM:") {
            let fields = MeCardFields.parse(s.dropFirst(6))
            guard let link = fields.first("URL"), var url = parseLink(Array(link.utf8)[...], addingScheme: true) else {
                return nil
            }
            url.title = fields.first("TITLE")
            return url
        }
        if PayloadBytes.hasPrefix(s, "URLTO:") {
            return parseLink(PayloadBytes.trimmed(s.dropFirst(6)), addingScheme: true)
        }
        return parseLink(s, addingScheme: false)
    }

    /// `scheme://authority[/path][?query][#fragment]` with a plausible host. Whitespace or control
    /// characters anywhere make it text: a link should be one token.
    /// - Parameter addingScheme: bookmarks may omit the scheme; `http://` is assumed then.
    static func parseLink(_ raw: ArraySlice<UInt8>, addingScheme: Bool) -> Payload.URL? {
        var s = raw
        var schemeEnd = s.startIndex
        while schemeEnd < s.endIndex, isSchemeByte(s[schemeEnd]) { schemeEnd += 1 }
        let hasScheme =
            schemeEnd > s.startIndex && PayloadBytes.isAlpha(s[s.startIndex])
            && PayloadBytes.hasPrefix(s, "://", at: schemeEnd - s.startIndex)
        if !hasScheme {
            guard addingScheme else { return nil }
            s = (Array("http://".utf8) + raw)[...]
            schemeEnd = 4
        }
        guard s.count <= 1 << 20, !s.contains(where: { PayloadBytes.isControl($0) || $0 == 0x20 }) else { return nil }
        let scheme = PayloadBytes.string(s[s.startIndex..<schemeEnd].map(PayloadBytes.lower))
        let authorityStart = schemeEnd + 3
        var authorityEnd = authorityStart
        while authorityEnd < s.endIndex, s[authorityEnd] != 0x2F, s[authorityEnd] != 0x3F, s[authorityEnd] != 0x23 {
            authorityEnd += 1
        }
        guard let host = parseHost(s[authorityStart..<authorityEnd]) else { return nil }
        return Payload.URL(url: PayloadBytes.string(s), scheme: scheme, host: host)
    }

    static func isSchemeByte(_ b: UInt8) -> Bool {
        PayloadBytes.isAlnum(b) || b == 0x2B || b == 0x2D || b == 0x2E
    }

    /// `[userinfo@]host[:port]`; returns the lower-cased host.
    static func parseHost(_ authority: ArraySlice<UInt8>) -> String? {
        var a = authority
        if let at = a.lastIndex(of: 0x40) { a = a[(at + 1)...] }
        guard !a.isEmpty else { return nil }
        var hostEnd = a.endIndex
        if a[a.startIndex] == 0x5B {  // IPv6 literal
            guard let close = a.firstIndex(of: 0x5D) else { return nil }
            let inner = a[(a.startIndex + 1)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ PayloadBytes.hexValue($0) != nil || $0 == 0x3A || $0 == 0x2E }) else {
                return nil
            }
            hostEnd = close + 1
        } else {
            hostEnd = a.firstIndex(of: 0x3A) ?? a.endIndex
            let host = a[a.startIndex..<hostEnd]
            // Letters (any script), digits, '-', '.', '_' and percent escapes; at most DNS's 253 bytes.
            guard !host.isEmpty, host.count <= 253,
                host.allSatisfy({ PayloadBytes.isAlnum($0) || $0 >= 0x80 || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F || $0 == 0x25 })
            else { return nil }
        }
        if hostEnd < a.endIndex {
            guard a[hostEnd] == 0x3A else { return nil }
            let port = a[(hostEnd + 1)...]
            if !port.isEmpty {
                guard let p = PayloadBytes.integer(port, maxDigits: 5), p <= 65535 else { return nil }
            }
        }
        return PayloadBytes.string(a[a.startIndex..<hostEnd].map(PayloadBytes.lower))
    }
}
