import ScandCore

extension Payload {
    /// An email to write: `mailto:` (RFC 6068), DoCoMo `MATMSG:`, `SMTP:addr:subject:body`, or a bare address.
    public struct Email: Sendable, Equatable {
        public var to: [String]
        public var cc: [String] = []
        public var bcc: [String] = []
        public var subject: String?
        public var body: String?
    }
}

/// Every address must look like one (`local@domain.tld`) and there must be a recipient; otherwise text.
enum EmailParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.Email? {
        if PayloadBytes.hasPrefix(s, "mailto:") { return parseMailto(s.dropFirst(7)) }
        if PayloadBytes.hasPrefix(s, "MATMSG:") {
            let f = MeCardFields.parse(s.dropFirst(7))
            return make(to: f.all("TO"), cc: [], bcc: [], subject: f.first("SUB"), body: f.first("BODY"))
        }
        if PayloadBytes.hasPrefix(s, "SMTP:") {
            // SMTP:address:subject:body; the body may contain colons.
            let parts = s.dropFirst(5).split(separator: 0x3A, maxSplits: 2, omittingEmptySubsequences: false)
            let text = { (i: Int) -> String? in i < parts.count && !parts[i].isEmpty ? PayloadBytes.string(parts[i]) : nil }
            return make(to: text(0).map { [$0] } ?? [], cc: [], bcc: [], subject: text(1), body: text(2))
        }
        guard isAddress(s) else { return nil }
        return Payload.Email(to: [PayloadBytes.string(s)])
    }

    static func parseMailto(_ s: ArraySlice<UInt8>) -> Payload.Email? {
        let q = s.firstIndex(of: 0x3F) ?? s.endIndex
        var to = addresses(PayloadBytes.percentDecoded(s[s.startIndex..<q])[...])
        var cc: [String] = [], bcc: [String] = []
        var subject: String?, body: String?
        if q < s.endIndex {
            for (key, value) in PayloadBytes.queryItems(s[(q + 1)...], plusAsSpace: false) {
                switch key {
                case "to": to += addresses(Array(value.utf8)[...])
                case "cc": cc += addresses(Array(value.utf8)[...])
                case "bcc": bcc += addresses(Array(value.utf8)[...])
                case "subject": subject = subject ?? VCardParser.nonEmpty(value)
                case "body": body = body ?? VCardParser.nonEmpty(value)
                default: break
                }
            }
        }
        return make(to: to, cc: cc, bcc: bcc, subject: subject, body: body)
    }

    /// A comma-separated list of addresses, trimmed; empty items dropped.
    static func addresses(_ s: ArraySlice<UInt8>) -> [String] {
        PayloadBytes.split(s, on: 0x2C).map(PayloadBytes.trimmed).filter { !$0.isEmpty }.map(PayloadBytes.string)
    }

    static func make(to: [String], cc: [String], bcc: [String], subject: String?, body: String?) -> Payload.Email? {
        let all = to + cc + bcc
        guard !to.isEmpty, all.allSatisfy({ isAddress(Array($0.utf8)[...]) }) else { return nil }
        return Payload.Email(to: to, cc: cc, bcc: bcc, subject: subject, body: body)
    }

    /// A pragmatic check, not RFC 5322: one '@', a local part without spaces or controls, and a domain
    /// of dot-separated labels (letters of any script, digits, '-') whose last label has two letters or more.
    static func isAddress(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count <= 254, let at = s.firstIndex(of: 0x40) else { return false }
        let local = s[s.startIndex..<at], domain = s[(at + 1)...]
        guard !local.isEmpty, local.count <= 64,
            local.allSatisfy({
                !PayloadBytes.isControl($0) && $0 != 0x20 && $0 != 0x40 && $0 != 0x3C && $0 != 0x3E && $0 != 0x2C && $0 != 0x3B && $0 != 0x3A
                    && $0 != 0x22
            })
        else { return false }
        let labels = PayloadBytes.split(domain, on: 0x2E)
        guard labels.count >= 2, let tld = labels.last, tld.count >= 2,
            tld.allSatisfy({ PayloadBytes.isAlpha($0) || $0 >= 0x80 })
        else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != 0x2D && label.last != 0x2D
                && label.allSatisfy { PayloadBytes.isAlnum($0) || $0 == 0x2D || $0 >= 0x80 }
        }
    }
}
