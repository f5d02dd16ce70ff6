import ScandCore

/// The content-line syntax shared by vCard (RFC 6350, and 2.1/3.0) and iCalendar (RFC 5545):
/// `[group.]NAME[;PARAM=…]:value`, lines folded by a leading space or tab, vCard 2.1's
/// quoted-printable values with `=` soft breaks, and backslash escapes in text values.
struct ContentLine {
    /// Upper-cased, group prefix removed.
    var name: String
    /// Upper-cased, as written (`TYPE=CELL`, `QUOTED-PRINTABLE`, `TZID=Europe/Berlin`).
    var params: [String]
    /// Unfolded and quoted-printable-decoded, still escaped.
    var value: [UInt8]

    /// The value with text escapes resolved.
    var text: String { ContentLines.unescape(value[...]) }

    /// The value split on unescaped `;` (N, ADR, ORG), each component unescaped.
    var components: [String] { ContentLines.splitStructured(value[...]).map(ContentLines.unescape) }
}

enum ContentLines {
    static func parse(_ s: ArraySlice<UInt8>) -> [ContentLine] {
        let logical = unfold(s)
        var lines: [ContentLine] = []
        var i = 0
        while i < logical.count {
            defer { i += 1 }
            guard var line = split(logical[i]) else { continue }
            if line.params.contains(where: { $0 == "QUOTED-PRINTABLE" || $0 == "ENCODING=QUOTED-PRINTABLE" }) {
                // A trailing '=' is a soft break: the value goes on in the next (unindented) line.
                while line.value.last == 0x3D, i + 1 < logical.count {
                    line.value.removeLast()
                    i += 1
                    line.value.append(contentsOf: logical[i])
                }
                line.value = PayloadBytes.percentDecoded(line.value[...], escape: 0x3D)
            }
            lines.append(line)
        }
        return lines
    }

    /// Physical lines (CRLF, LF or CR) joined into logical ones: a line starting with a space or tab
    /// continues the previous one, without that first character.
    static func unfold(_ s: ArraySlice<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var i = s.startIndex
        while i < s.endIndex {
            var j = i  // the physical line is i..<j
            while j < s.endIndex, s[j] != 0x0A, s[j] != 0x0D { j += 1 }
            if (s[i] == 0x20 || s[i] == 0x09), !lines.isEmpty {
                lines[lines.count - 1].append(contentsOf: s[(i + 1)..<j])
            } else if j > i {
                lines.append(Array(s[i..<j]))
            }
            if j < s.endIndex, s[j] == 0x0D, j + 1 < s.endIndex, s[j + 1] == 0x0A { j += 1 }
            i = j + 1
        }
        return lines
    }

    /// `NAME;PARAMS:value`, or nil for a line without a colon or with an invalid name.
    static func split(_ line: [UInt8]) -> ContentLine? {
        var inQuotes = false
        var colon: Int?
        var semicolons: [Int] = []
        for (i, b) in line.enumerated() {
            if b == 0x22 {
                inQuotes.toggle()
            } else if !inQuotes {
                if b == 0x3A { colon = i; break }
                if b == 0x3B { semicolons.append(i) }
            }
        }
        guard let colon else { return nil }
        let nameEnd = semicolons.first ?? colon
        var name = line[0..<nameEnd]
        if let dot = name.lastIndex(of: 0x2E) { name = name[(dot + 1)...] }
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ PayloadBytes.isAlnum($0) || $0 == 0x2D }) else { return nil }
        var params: [String] = []
        let bounds = semicolons + [colon]
        for k in 0..<(bounds.count - 1) {
            let p = line[(bounds[k] + 1)..<bounds[k + 1]]
            if !p.isEmpty { params.append(PayloadBytes.string(p.map(PayloadBytes.upper))) }
        }
        return ContentLine(
            name: PayloadBytes.string(name.map(PayloadBytes.upper)), params: params,
            value: Array(line[(colon + 1)...]))
    }

    /// Text escapes: `\n`/`\N` newline, `\\`, `\;`, `\,`, `\:`; an unknown escape keeps its character.
    static func unescape(_ v: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(v.count)
        var i = v.startIndex
        while i < v.endIndex {
            if v[i] == 0x5C, i + 1 < v.endIndex {
                let n = v[i + 1]
                out.append(n == 0x6E || n == 0x4E ? 0x0A : n)
                i += 2
            } else {
                out.append(v[i])
                i += 1
            }
        }
        return PayloadBytes.trimmedString(out[...])
    }

    /// Components of a structured value, split on `;` not preceded by a backslash escape.
    static func splitStructured(_ v: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = v.startIndex, i = v.startIndex
        while i < v.endIndex {
            if v[i] == 0x5C { i += 2; continue }
            if v[i] == 0x3B {
                parts.append(v[start..<i])
                start = i + 1
            }
            i += 1
        }
        parts.append(v[min(start, v.endIndex)..<v.endIndex])
        return parts
    }
}
