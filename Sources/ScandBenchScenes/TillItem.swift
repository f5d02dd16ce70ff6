import ScandCore

/// One item of a generated till session: the code printed on it, how it is printed, and how the cashier
/// shows it to the camera.
package struct TillItem: Sendable, Equatable {
    /// The kind in the retail mix ("EAN-13+5", "GS1-128", …), for the tables.
    package var kind: String
    package var format: BarcodeFormat
    /// What zxing's writer is given ("+" before an add-on; GS1 element strings in brackets).
    var written: String
    /// The writer's options ("gs1" for GS1-128 and GS1 DataMatrix).
    var options = ""
    /// What a reader must report, in scand's spelling: an EAN/UPC with its add-on digits after the main number.
    package var expected: String
    /// An EAN/UPC with an add-on: the main number alone, which a reader that missed the add-on reports.
    package var mainNumber: String?
    package var addOn: String?
    var moduleSize: Int
    /// Bar height of a linear code in modules (nil: as the writer draws it).
    var barHeight: Int?
    /// How far the item is turned from upright, clockwise.
    var degrees: Double
    /// Frames the item is held still (1–3 s), or for a swipe the frames it is in view (10–15).
    var frames: Int
    package var swiped = false
    package var shaken = false
    package var defocused = false
    package var onCan = false
    package var glare = false
    /// Printed faintly (ink 80–115 on paper 150–185): a thermal label or a worn one.
    var lowContrast = false
    /// Seed of the item's own draws (its label's print, its path).
    var seed: UInt64

    var gs1: Bool { options == "gs1" }

    /// The item's circumstances, for tables: "can, glare, 26°".
    package var circumstances: String {
        var parts: [String] = []
        if swiped { parts.append("swiped") }
        if shaken { parts.append("shaken") }
        if defocused { parts.append("defocused") }
        if onCan { parts.append("can") }
        if glare { parts.append("glare") }
        if lowContrast { parts.append("low contrast") }
        parts.append("\(moduleSize) px")
        parts.append("\(Int(degrees.rounded()))°")
        return parts.joined(separator: ", ")
    }
}

/// The retail mix a till session draws its items from, and their payloads.
package enum TillMix {
    /// Which mix: the retail one, or the hard one where misreads come from (`hardened`).
    package enum Kind: String, Sendable, CaseIterable {
        case retail, hard
    }

    /// One deck of 20 kinds, shuffled anew for every 20 items: each kind comes round in every 20 items, so a
    /// short session still holds the whole mix and 100 items hold each kind at least five times.
    package static let deck: [String] = [
        "EAN-13", "EAN-13", "EAN-13", "EAN-13", "EAN-13", "EAN-13+2", "EAN-13+5", "UPC-A", "UPC-A", "UPC-A+2", "UPC-A+5",
        "EAN-8", "EAN-8", "UPC-E", "Code 128", "GS1-128", "ITF-14", "DataBar", "QR", "GS1 DataMatrix"
    ]

    /// The hard mix's deck: mostly EAN-13 and UPC-A (the numbers a till rings up, whose check digit passes one
    /// random error in ten), books and periodicals with their add-ons, and one of each other linear kind.
    package static let hardDeck: [String] = [
        "EAN-13", "EAN-13", "EAN-13", "EAN-13", "EAN-13", "EAN-13", "EAN-13+2", "EAN-13+5", "ISBN+5", "ISSN+2", "UPC-A", "UPC-A", "UPC-A",
        "UPC-A+5", "EAN-8", "EAN-8", "UPC-E", "Code 128", "ITF-14", "DataBar"
    ]

    /// `count` items drawn with `seed`: the same items every run.
    package static func items(count: Int, seed: UInt64, mix: Kind = .retail) -> [TillItem] {
        var rng = Xorshift(seed: seed)
        var out: [TillItem] = []
        var kinds: [String] = []
        while out.count < count {
            if kinds.isEmpty { kinds = shuffled(mix == .hard ? hardDeck : deck, &rng) }
            let item = item(kind: kinds.removeFirst(), &rng)
            out.append(mix == .hard ? hardened(item) : item)
        }
        return out
    }

    /// An item of the hard mix: an EAN/UPC with 2 px modules in most cases (a 37 mm EAN-13 a metre from a 720p
    /// webcam), turned 15–40° in most, faint in some; more often shaken, on a can or under glare. Drawn from
    /// the item's own seed, so the retail mix's draws stay as they were.
    static func hardened(_ item: TillItem) -> TillItem {
        var item = item, rng = Xorshift(seed: item.seed ^ 0x4A4D)
        guard item.format.isLinear else { return item }
        if rng.next() % 100 < 70 { item.moduleSize = 2 }
        if rng.next() % 100 < 65 { item.degrees = (rng.next() % 2 == 0 ? 1 : -1) * uniform(15...40, &rng) }
        item.lowContrast = rng.next() % 100 < 35
        if !item.swiped { item.shaken = rng.next() % 100 < 30 }
        if item.format.mainNumberLength != nil { item.onCan = rng.next() % 100 < 35 }
        item.glare = rng.next() % 100 < 30
        return item
    }

    static func shuffled(_ a: [String], _ rng: inout Xorshift) -> [String] {
        var a = a
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        return a
    }

    static func uniform(_ range: ClosedRange<Double>, _ rng: inout Xorshift) -> Double {
        range.lowerBound + Double(rng.next() % 1_000_001) / 1_000_000 * (range.upperBound - range.lowerBound)
    }

    static func digits(_ n: Int, _ rng: inout Xorshift, firstNonZero: Bool = false) -> String {
        String((0..<n).map { i in Character(String(i == 0 && firstNonZero ? 1 + rng.next() % 9 : rng.next() % 10)) })
    }

    static func item(kind: String, _ rng: inout Xorshift) -> TillItem {
        let linear = !["QR", "GS1 DataMatrix"].contains(kind)
        var item = TillItem(
            kind: kind, format: .ean13, written: "", expected: "",
            moduleSize: linear ? 2 + Int(rng.next() % 3) : 3 + Int(rng.next() % 3), degrees: uniform(-40...40, &rng), frames: 0, seed: rng.next())
        let addOnDigits = kind.hasSuffix("+2") ? 2 : kind.hasSuffix("+5") ? 5 : 0
        switch kind {
        case "EAN-13", "EAN-13+2", "EAN-13+5":
            // A leading 0 would be a UPC-A: EAN-13s here start with 1–9.
            (item.format, item.written, item.barHeight) = (.ean13, GS1Number.withCheckDigit(digits(12, &rng, firstNonZero: true)), 60)
        case "ISBN+5", "ISSN+2":
            // A book (978/979, its price in the EAN-5) or a periodical (977, its issue in the EAN-2).
            let prefix = kind == "ISSN+2" ? "977" : rng.next() % 4 == 0 ? "979" : "978"
            (item.format, item.written, item.barHeight) = (.ean13, GS1Number.withCheckDigit(prefix + digits(9, &rng)), 60)
        case "UPC-A", "UPC-A+2", "UPC-A+5":
            (item.format, item.written, item.barHeight) = (.upcA, GS1Number.withCheckDigit(digits(11, &rng)), 60)
        case "EAN-8":
            (item.format, item.written, item.barHeight) = (.ean8, GS1Number.withCheckDigit(digits(7, &rng)), 50)
        case "UPC-E":
            let body = "0" + validUPCE(digits(6, &rng))
            (item.format, item.written, item.barHeight) = (.upcE, body + upcECheckDigit(body), 50)
        case "Code 128":
            let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
            let text = String((0..<(6 + Int(rng.next() % 7))).map { _ in letters[Int(rng.next() % UInt64(letters.count))] })
            (item.format, item.written, item.barHeight) = (.code128, "INV-" + text, 30)
        case "GS1-128":
            let gtin = GS1Number.withCheckDigit("0" + digits(12, &rng))
            let date = String(format: "%02d%02d%02d", 26 + Int(rng.next() % 4), 1 + Int(rng.next() % 12), 1 + Int(rng.next() % 28))
            (item.format, item.options, item.barHeight) = (.code128, "gs1", 30)
            item.written = "[01]\(gtin)[17]\(date)[10]L\(digits(4, &rng))"
        case "ITF-14":
            (item.format, item.written, item.barHeight) = (.itf, GS1Number.withCheckDigit("1" + digits(12, &rng)), 40)
        case "DataBar":
            (item.format, item.written, item.barHeight) = (.dataBar, GS1Number.withCheckDigit("0" + digits(12, &rng)), 33)
        case "QR":
            item.format = .qrCode
            item.written = "https://shop.example/p/" + digits(8, &rng)
        default:  // GS1 DataMatrix
            let gtin = GS1Number.withCheckDigit("0" + digits(12, &rng))
            (item.format, item.options) = (.dataMatrix, "gs1")
            item.written = "[01]\(gtin)[21]S\(digits(8, &rng))"
        }
        // scand spells GS1 data as its element string without brackets (no GS here: the one variable-length AI is last).
        item.expected = item.written.filter { $0 != "[" && $0 != "]" }
        if addOnDigits > 0 {
            let addOn = digits(addOnDigits, &rng)
            (item.mainNumber, item.addOn) = (item.written, addOn)
            item.written += "+" + addOn
            item.expected += addOn
        }
        // How it is shown: about one in six swiped through, the rest held 1–3 s; each circumstance on its own.
        item.swiped = rng.next() % 100 < 15
        item.frames = item.swiped ? 10 + Int(rng.next() % 6) : 30 + Int(rng.next() % 61)
        item.shaken = !item.swiped && rng.next() % 100 < 15
        item.defocused = rng.next() % 100 < 15
        // Cans carry EAN/UPC codes.
        item.onCan = item.format.mainNumberLength != nil && rng.next() % 100 < 25
        item.glare = rng.next() % 100 < 20
        return item
    }

    /// Six UPC-E digits a UPC-A zero suppression can give: with a last digit 3 the third is 3–9, with 4 the
    /// fourth is not 0, with 5–9 the fifth is not 0 (else the UPC-A is written with the rule before; zint's
    /// writer refuses them). The digit that breaks the rule is moved into its range, so a seed stays a session.
    static func validUPCE(_ six: String) -> String {
        var m = Array(six)
        func raise(_ i: Int, to low: Int) {
            if let v = m[i].wholeNumberValue, v < low { m[i] = Character(String(v + low)) }
        }
        switch m[5] {
        case "3": raise(2, to: 3)
        case "4": raise(3, to: 1)
        case "5", "6", "7", "8", "9": raise(4, to: 1)
        default: break
        }
        return String(m)
    }

    /// A UPC-E's check digit (`upcE`: number system, then six digits): the GS1 check digit of the UPC-A it
    /// stands for, expanded as the zbar comparison expands one (its check digit, a placeholder here, dropped).
    static func upcECheckDigit(_ upcE: String) -> String {
        guard let upcA = GS1Number.expandUPCE(upcE + "0") else { return "0" }
        return String(GS1Number.withCheckDigit(String(upcA.dropLast())).last!)
    }
}
