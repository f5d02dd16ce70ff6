import ScandCore

/// vCard 2.1/3.0/4.0 to a contact. The card must be complete (BEGIN:VCARD … END:VCARD): a truncated
/// card is more likely a misread than a contact, so it stays text.
enum VCardParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.Contact? {
        let lines = ContentLines.parse(s)
        guard let first = lines.first, isMarker(first, "BEGIN") else { return nil }
        var contact = Payload.Contact(source: "vcard")
        var structuredName: [String]?
        // Depth, not recursion: an embedded card (vCard 2.1 AGENT) is skipped, not parsed.
        var depth = 0
        var complete = false
        for line in lines {
            if isMarker(line, "BEGIN") { depth += 1; continue }
            if isMarker(line, "END") {
                depth -= 1
                if depth == 0 { complete = true; break }
                continue
            }
            guard depth == 1 else { continue }
            switch line.name {
            case "FN": if contact.name == nil { contact.name = nonEmpty(line.text) }
            case "N": if structuredName == nil { structuredName = line.components }
            case "ORG": if contact.organization == nil { contact.organization = joined(line.components, ", ") }
            case "TITLE": if contact.title == nil { contact.title = nonEmpty(line.text) }
            case "TEL":
                var number = line.text
                if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }  // vCard 4 URI form
                if let n = nonEmpty(number) { contact.phones.append(n) }
            case "EMAIL": if let e = nonEmpty(line.text) { contact.emails.append(e) }
            case "URL": if let u = nonEmpty(line.text) { contact.urls.append(u) }
            case "ADR": if let a = joined(line.components, ", ") { contact.addresses.append(a) }
            case "NOTE": if contact.note == nil { contact.note = nonEmpty(line.text) }
            default: break
            }
        }
        guard complete else { return nil }
        if contact.name == nil, let n = structuredName {
            // N is family;given;additional;prefixes;suffixes.
            let at = { (i: Int) in i < n.count ? n[i] : "" }
            contact.name = joined([at(3), at(1), at(2), at(0), at(4)], " ")
        }
        return contact.isUseful ? contact : nil
    }

    static func isMarker(_ line: ContentLine, _ name: String) -> Bool {
        line.name == name && line.text.uppercased() == "VCARD"
    }

    static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    static func joined(_ parts: [String], _ separator: String) -> String? {
        nonEmpty(parts.filter { !$0.isEmpty }.joined(separator: separator))
    }
}
