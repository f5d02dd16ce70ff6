import ScandCore

extension Payload {
    /// A contact card, from a vCard (2.1, 3.0, 4.0) or a DoCoMo MECARD.
    public struct Contact: Sendable, Equatable {
        /// Display name ("John Doe"), from FN, else assembled from N.
        public var name: String?
        public var organization: String?
        /// Job title.
        public var title: String?
        public var phones: [String] = []
        public var emails: [String] = []
        public var urls: [String] = []
        /// Each address as one line, components joined by ", ".
        public var addresses: [String] = []
        public var note: String?
        /// "vcard" or "mecard".
        public var source: String

        /// A card with no name, phone or email says nothing a contact app could use.
        var isUseful: Bool { name != nil || !phones.isEmpty || !emails.isEmpty }
    }
}

enum ContactParser {
    /// `s` is the trimmed payload, starting with `MECARD:` or `BEGIN:VCARD`.
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.Contact? {
        if PayloadBytes.hasPrefix(s, "MECARD:") { return parseMeCard(s.dropFirst(7)) }
        if PayloadBytes.hasPrefix(s, "BEGIN:VCARD") { return VCardParser.parse(s) }
        return nil
    }

    /// `MECARD:N:Doe,John;TEL:+15550100;EMAIL:john@example.com;;`
    static func parseMeCard(_ body: ArraySlice<UInt8>) -> Payload.Contact? {
        let f = MeCardFields.parse(body)
        let contact = Payload.Contact(
            name: f.first("N").map(displayName), organization: f.first("ORG"), title: f.first("TITLE"),
            phones: f.all("TEL"), emails: f.all("EMAIL"), urls: f.all("URL"), addresses: f.all("ADR"),
            note: f.first("NOTE"), source: "mecard")
        return contact.isUseful ? contact : nil
    }

    /// MECARD's N is "Family,Given": shown as "Given Family".
    static func displayName(_ n: String) -> String {
        let parts = n.split(separator: ",", maxSplits: 1).map { $0.trimmedSpaces() }.filter { !$0.isEmpty }
        return parts.count == 2 ? parts[1] + " " + parts[0] : (parts.first ?? n)
    }
}
