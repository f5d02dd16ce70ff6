import ScandCore

extension Payload {
    /// A North American driver's licence or ID card (AAMVA DL/ID card design standard, PDF417).
    public struct DriverLicense: Sendable, Equatable {
        /// "DL" (driver's licence) or "ID" (identification card), from the first subfile.
        public var documentType: String?
        /// Issuer Identification Number of the jurisdiction (6 digits, e.g. "636014" California).
        public var issuerIIN: String?
        /// AAMVA standard version (1…10).
        public var aamvaVersion: Int?
        /// DAQ.
        public var licenseNumber: String?
        /// DCS (DAB in version 1, or the first part of DAA).
        public var familyName: String?
        /// DAC and DAD, or DCT (version 2), or the rest of DAA.
        public var givenNames: String?
        /// Dates as YYYY-MM-DD when they parse (US cards write MMDDCCYY, Canadian CCYYMMDD), else as written.
        public var birthDate: String?  // DBB
        public var expiryDate: String?  // DBA
        public var issueDate: String?  // DBD
        /// "M", "F" or "X" (DBC codes 1, 2, 9), else as written.
        public var sex: String?
        public var street: String?  // DAG
        public var city: String?  // DAI
        public var state: String?  // DAJ
        public var postalCode: String?  // DAK
        public var country: String?  // DCG
    }
}

/// The header is `@` LF RS CR `ANSI ` (or `AAMVA` before 2000) IIN(6) version(2) …, then subfile
/// designators and the subfiles, each `DL`/`ID` followed by elements `DAQ…` separated by LF and ended by CR.
/// Scanners and keyboard wedges often mangle or drop the control characters, so this reads tolerantly:
/// the header is searched near the start, the subfile offsets are not trusted, and elements are split on
/// any of LF, CR and RS.
enum AAMVAParser {
    /// Where the header text may start: after `@` and a few (possibly mangled) separators.
    static let headerWindow = 24

    static func hasHeader(_ s: ArraySlice<UInt8>) -> Bool { headerStart(s) != nil }

    static func headerStart(_ s: ArraySlice<UInt8>) -> Int? {
        guard s.first == 0x40 else { return nil }
        var i = s.startIndex + 1
        while i < s.endIndex, i - s.startIndex <= headerWindow {
            if PayloadBytes.hasPrefix(s, "ANSI ", at: i - s.startIndex) || PayloadBytes.hasPrefix(s, "AAMVA", at: i - s.startIndex) {
                return i
            }
            // Only separators and their mangled forms may come before the header.
            guard PayloadBytes.isControl(s[i]) || s[i] == 0x20 || s[i] == 0x40 else { return nil }
            i += 1
        }
        return nil
    }

    static func parse(_ s: ArraySlice<UInt8>) -> Payload.DriverLicense? {
        guard let h = headerStart(s) else { return nil }
        var license = Payload.DriverLicense()
        let afterTag = h + 5
        if s.endIndex - afterTag >= 8, PayloadBytes.allDigits(s[afterTag..<(afterTag + 8)]) {
            license.issuerIIN = PayloadBytes.string(s[afterTag..<(afterTag + 6)])
            license.aamvaVersion = PayloadBytes.integer(s[(afterTag + 6)..<(afterTag + 8)])
        }
        guard let subfile = firstSubfile(s, from: afterTag) else { return nil }
        license.documentType = PayloadBytes.string(s[subfile..<(subfile + 2)])
        let elements = self.elements(s[(subfile + 2)...])
        let e = { (id: String) in elements[id].flatMap { $0.isEmpty ? nil : $0 } }

        license.licenseNumber = e("DAQ")
        var family = e("DCS") ?? e("DAB")
        var given: String?
        if let first = e("DAC") ?? e("DCT") {
            given = first.split(separator: ",").map { $0.trimmedSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
            if let middle = e("DAD"), middle.uppercased() != "NONE" { given = (given ?? "") + " " + middle }
        }
        if family == nil, let full = e("DAA") {
            // Version 1: "FAMILY,GIVEN,MIDDLE".
            let parts = full.split(separator: ",").map { $0.trimmedSpaces() }.filter { !$0.isEmpty }
            family = parts.first
            if given == nil, parts.count > 1 { given = parts.dropFirst().joined(separator: " ") }
        }
        license.familyName = family
        license.givenNames = given.flatMap { $0.isEmpty ? nil : $0 }
        license.birthDate = e("DBB").map(date)
        license.expiryDate = e("DBA").map(date)
        license.issueDate = e("DBD").map(date)
        license.sex = e("DBC").map(sex)
        license.street = e("DAG")
        license.city = e("DAI")
        license.state = e("DAJ")
        license.postalCode = e("DAK")
        license.country = e("DCG")
        guard license.licenseNumber != nil || license.familyName != nil else { return nil }
        return license
    }

    /// The first subfile's start: "DL" or "ID" directly followed by an element ID ("DLDAQ…"), which
    /// designators ("DL00410278") never are.
    static func firstSubfile(_ s: ArraySlice<UInt8>, from: Int) -> Int? {
        var i = from
        while i + 5 <= s.endIndex {
            let a = s[i], b = s[i + 1]
            if (a == 0x44 && b == 0x4C) || (a == 0x49 && b == 0x44),
                s[i + 2] == 0x44, PayloadBytes.isUpper(s[i + 3]), PayloadBytes.isUpper(s[i + 4])
            {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Element ID (three upper-case letters or digits) to trimmed value; the first occurrence wins.
    static func elements(_ s: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        for piece in s.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D || $0 == 0x1E }) where piece.count >= 3 {
            let id = piece.prefix(3)
            guard id.allSatisfy({ PayloadBytes.isUpper($0) || PayloadBytes.isDigit($0) }) else { continue }
            let key = PayloadBytes.string(id)
            if result[key] == nil { result[key] = PayloadBytes.trimmedString(piece.dropFirst(3)) }
        }
        return result
    }

    /// MMDDCCYY or CCYYMMDD to YYYY-MM-DD. The two never collide: a CCYY of 1900…2199 is no month.
    static func date(_ raw: String) -> String {
        let b = Array(raw.utf8)
        guard b.count == 8, PayloadBytes.allDigits(b[...]) else { return raw }
        func valid(_ y: ArraySlice<UInt8>, _ m: ArraySlice<UInt8>, _ d: ArraySlice<UInt8>) -> String? {
            guard let year = PayloadBytes.integer(y), let month = PayloadBytes.integer(m), let day = PayloadBytes.integer(d),
                (1900...2199).contains(year), (1...12).contains(month), day >= 1,
                day <= GS1Dates.daysIn(month: month, year: year)
            else { return nil }
            return PayloadBytes.string(y) + "-" + PayloadBytes.string(m) + "-" + PayloadBytes.string(d)
        }
        return valid(b[0..<4], b[4..<6], b[6..<8]) ?? valid(b[4..<8], b[0..<2], b[2..<4]) ?? raw
    }

    static func sex(_ raw: String) -> String {
        switch raw.uppercased() {
        case "1", "M": "M"
        case "2", "F": "F"
        case "9", "X": "X"
        default: raw
        }
    }
}
