import ScandCore

/// GS1 Digital Link URIs (GS1 Digital Link Standard: URI Syntax), the web form of GS1 keys that 2D codes at
/// retail tills carry: `http(s)://any.host[/path prefix]/01/09506000134352/10/ABC?17=270101&linkType=all`.
/// The primary key and its qualifiers are path segments (AI, value), in the order the standard gives for that
/// key; data attributes are query parameters named by their AI; other parameters and the fragment are not
/// GS1 data and are left out. Values are percent-decoded (a `%` without two hex digits after it makes the
/// link no Digital Link), then checked as an element string's are (length,
/// character set, check digits, dates); a GTIN-8, -12 or -13 is written with 14 digits. A link that is not
/// all of this (the compressed form, the obsolete `/gtin/…` names, a bad check digit, an AI scand's table
/// lacks) is not read as GS1 data: it stays a plain URL.
enum DigitalLinkParser {
    /// The primary keys, each with the qualifier sequences it may take in the path: a sequence's AIs are each
    /// optional but keep its order; two sequences are alternatives (a GTIN takes 22, 10, 21, or else 235).
    static let keys: [String: [[String]]] = [
        "00": [], "01": [["22", "10", "21"], ["235"]], "253": [], "255": [], "401": [], "402": [],
        "414": [["254"], ["7040"]], "415": [["8020"]], "417": [["7040"]], "8003": [], "8004": [["7040"]],
        "8006": [["22", "10", "21"]], "8010": [["8011"]], "8013": [], "8017": [["8019"]], "8018": [["8019"]]
    ]

    /// `s` is the trimmed payload.
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.GS1? {
        guard PayloadBytes.hasPrefix(s, "https://") || PayloadBytes.hasPrefix(s, "http://"),
            URLParser.parseLink(s, addingScheme: false) != nil,  // a plausible host, one token, at most 1 MiB
            // `A%ZZ` is no escape: decoded leniently it would be typed as a batch `A%ZZ` the link never held.
            PayloadBytes.hasValidPercentEscapes(s)
        else { return nil }
        let authorityStart = s.startIndex + (PayloadBytes.hasPrefix(s, "https://") ? 8 : 7)
        var pathEnd = authorityStart
        while pathEnd < s.endIndex, s[pathEnd] != 0x3F, s[pathEnd] != 0x23 { pathEnd += 1 }
        guard let pathStart = s[authorityStart..<pathEnd].firstIndex(of: 0x2F) else { return nil }
        let segments = PayloadBytes.split(s[(pathStart + 1)..<pathEnd], on: 0x2F)

        // The key is the last primary key AI of the AI/value pairs that end the path; the pairs after it are
        // its qualifiers, the segments before it the resolver's own path.
        var keyAt: Int?
        var qualifiers: [String] = []
        var i = segments.count - 2
        while i >= 0, let ai = code(segments[i]) {
            if let sequences = keys[ai] {
                guard isOrdered(qualifiers.reversed(), in: sequences) else { return nil }
                keyAt = i
                break
            }
            qualifiers.append(ai)
            i -= 2
        }
        guard let keyAt else { return nil }

        var elements: [Payload.GS1Element] = []
        for k in stride(from: keyAt, to: segments.count, by: 2) {
            guard let element = element(segments[k], segments[k + 1], isPath: true) else { return nil }
            elements.append(element)
        }
        if pathEnd < s.endIndex, s[pathEnd] == 0x3F {
            let queryEnd = s[pathEnd...].firstIndex(of: 0x23) ?? s.endIndex
            for parameter in PayloadBytes.split(s[(pathEnd + 1)..<queryEnd], on: 0x26) {
                let eq = parameter.firstIndex(of: 0x3D) ?? parameter.endIndex
                let name = parameter[parameter.startIndex..<eq]
                // Not digits: a parameter of the resolver's (linkType, utm_source …), not GS1 data.
                guard PayloadBytes.allDigits(name) else { continue }
                guard code(name) != nil, keys[PayloadBytes.string(name)] == nil, eq < parameter.endIndex,
                    let element = element(name, parameter[(eq + 1)...], isPath: false)
                else { return nil }
                // The same AI twice must carry the same value (GS1 General Specifications 4.14); once is enough.
                if let earlier = elements.first(where: { $0.ai == element.ai }) {
                    guard earlier.value == element.value else { return nil }
                    continue
                }
                elements.append(element)
            }
        }
        // Up to the slash before the key: the segments are slices of `s`, with its indices.
        return Payload.GS1(elements: elements, resolver: PayloadBytes.string(s[..<(segments[keyAt].startIndex - 1)]))
    }

    /// A segment or parameter name that is an AI of the table (written as digits, never escaped).
    static func code(_ s: ArraySlice<UInt8>) -> String? {
        guard (2...4).contains(s.count), PayloadBytes.allDigits(s) else { return nil }
        let ai = PayloadBytes.string(s)
        return GS1ApplicationIdentifiers.spec(ai) == nil ? nil : ai
    }

    /// `qualifiers` (in path order) keep the order of one of the key's sequences, none twice.
    static func isOrdered(_ qualifiers: [String], in sequences: [[String]]) -> Bool {
        if qualifiers.isEmpty { return true }
        return sequences.contains { sequence in
            var next = sequence.startIndex
            for ai in qualifiers {
                guard let at = sequence[next...].firstIndex(of: ai) else { return false }
                next = at + 1
            }
            return true
        }
    }

    static func element(_ name: ArraySlice<UInt8>, _ raw: ArraySlice<UInt8>, isPath: Bool) -> Payload.GS1Element? {
        let ai = PayloadBytes.string(name)
        guard let spec = GS1ApplicationIdentifiers.spec(ai) else { return nil }
        var value = PayloadBytes.percentDecoded(raw)
        // A GTIN-8, -12 or -13 in the path is the GTIN-14 with leading zeros.
        if isPath, ai == "01", [8, 12, 13].contains(value.count), PayloadBytes.allDigits(value[...]) {
            value = Array(repeating: 0x30, count: 14 - value.count) + value
        }
        return GS1Parser.element(ai, spec, value[...])
    }
}

extension Payload.GS1 {
    /// `text` read as a GS1 Digital Link URI (spaces around it ignored); nil when it is not a valid one.
    public init?(digitalLink text: String) {
        guard let parsed = DigitalLinkParser.parse(PayloadBytes.trimmed(Array(text.utf8)[...])) else { return nil }
        self = parsed
    }
}
