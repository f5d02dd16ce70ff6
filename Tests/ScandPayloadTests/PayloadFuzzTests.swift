import Testing
import ScandCore
import ScandProtocol
@testable import ScandPayload

/// Property tests over hostile input: every parser, fed 20 000 seeded pseudo-random inputs each (random
/// bytes, random printable text, and mutations of valid examples up to ~100 KB), must return, keep its
/// invariants, and yield one line of valid JSON.
@Suite struct PayloadFuzzTests {
    enum Target: String, CaseIterable, Sendable {
        case url, wifi, meCard, vCard, email, phone, sms, geo, event, aamva, product, gs1Raw, gs1HRI, digitalLink

        var seeds: [String] {
            switch self {
            case .url: ["https://example.com/a?b=c#d", "http://[::1]:8080/", "MEBKM:TITLE:x;URL:http\\://a.b;;", "URLTO:a.example/x"]
            case .wifi: [#"WIFI:T:WPA;S:My\;Net;P:pa\"ss;H:true;;"#, #"WIFI:S:"1234";T:nopass;;"#]
            case .meCard: [#"MECARD:N:Doe,John;TEL:13035551212;EMAIL:j@example.com;ADR:1\, Main;NOTE:x\;y;;"#]
            case .vCard:
                [
                    ContactPayloadTests.vcard3,
                    "BEGIN:VCARD\nVERSION:2.1\nN;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=\n=C3=BCrgen\nTEL:1234\nEND:VCARD"
                ]
            case .email:
                [
                    "mailto:a@example.com,b@example.org?subject=Hi%20there&body=x&cc=c@example.net",
                    #"MATMSG:TO:a@example.com;SUB:S\;s;BODY:B;;"#, "SMTP:a@example.com:s:b:c", "a.b@example.co.uk"
                ]
            case .phone: ["tel:+1-555-0100", "tel:%2B15550100;ext=1"]
            case .sms: ["SMSTO:+15550100:Hello: world", "sms:+15550100,+15550101;?body=Hello%20there"]
            case .geo: ["geo:48.8583701,2.2944813,35;crs=wgs84;u=3?q=Eiffel+Tower", "geo:-90,180"]
            case .event: [CalendarEventPayloadTests.calendar, "BEGIN:VEVENT\nDTSTART:20250101\nEND:VEVENT"]
            case .aamva: [DriverLicensePayloadTests.v9, "@\n\u{1e}\rAAMVA6360000101DL00290182DLDAQ1\nDAANOVAK,JANE\nDBB19850214\r"]
            case .product: ["4006381333931", "9780306406157 51299", "96385074", "04252614", "036000291452"]
            case .gs1Raw:
                [
                    "]C10109501101530003172501011" + "0AB12\u{1d}21SN123\u{1d}7003250101123" + "0",
                    "00106141412345678908" + "4100614141000029" + "8003" + "00614141000029" + "X1"
                ]
            case .gs1HRI: ["(01)09501101530003(17)250100(10)AB(C)D(21)123", "(01)90012345678908(3103)001750(7007)250101250131"]
            case .digitalLink:
                [
                    "https://id.gs1.org/01/09506000134352/10/AB%2FC/21/S1?17=270100&3103=000500&linkType=all#x",
                    "http://brand.example:81/p/00/106141412345678908?02=09506000134352&37=25&7003=2701011230"
                ]
            }
        }

        /// Runs this target's own parser directly (before the dispatcher picks one).
        func runDirect(_ s: ArraySlice<UInt8>, _ rng: inout PayloadRandom) {
            switch self {
            case .url: _ = URLParser.parse(s)
            case .wifi: _ = WiFiParser.parse(s)
            case .meCard, .vCard: _ = ContactParser.parse(s)
            case .email: _ = EmailParser.parse(s)
            case .phone: _ = PhoneParser.parse(s)
            case .sms: _ = SMSParser.parse(s)
            case .geo: _ = GeoParser.parse(s)
            case .event: _ = CalendarEventParser.parse(s)
            case .aamva: _ = AAMVAParser.parse(s)
            case .product: _ = ProductParser.parse(s, format: [.ean13, .ean8, .upcA, .upcE][rng.below(4)])
            case .gs1Raw, .gs1HRI: _ = GS1Parser.parse(s, format: [.code128, .dataBar, .dataBarExpanded, .dataMatrix][rng.below(4)])
            case .digitalLink: _ = DigitalLinkParser.parse(s)
            }
        }

        var format: BarcodeFormat {
            switch self {
            case .product: .ean13
            case .aamva: .pdf417
            case .gs1Raw, .gs1HRI: .code128
            default: .qrCode
            }
        }
    }

    /// Characters that matter to the parsers: separators, escapes, controls, multi-byte and invalid UTF-8.
    static let interesting: [[UInt8]] = [
        [0x00], [0x09], [0x0A], [0x0D], [0x0D, 0x0A], [0x1D], [0x1E], [0x1B], [0x7F], [0x5C], [0x3B], [0x3A], [0x2C],
        [0x22], [0x28], [0x29], [0x3D], [0x3F], [0x26], [0x25], [0x40], [0x2F], [0x20], [0x2E], [0x2D], [0x2B],
        Array("ü".utf8), Array("€".utf8), Array("😀".utf8), Array("\u{2028}".utf8), [0xFF], [0xC3], [0xED, 0xA0, 0x80],
        Array("%zz".utf8), Array("%00".utf8), Array("=0".utf8), Array("\n ".utf8), Array(";;".utf8), Array("(01)".utf8),
        Array("END:VCARD".utf8), Array("END:VEVENT".utf8), Array("BEGIN:VCARD\n".utf8), Array("DAQ".utf8), Array("99".utf8)
    ]

    static func input(for target: Target, _ rng: inout PayloadRandom) -> [UInt8] {
        let seeds = target.seeds.map { Array($0.utf8) }
        let roll = rng.below(1000)
        if roll < 100 {  // random bytes
            return (0..<rng.below(200)).map { _ in rng.byte() }
        }
        if roll < 250 {  // random printable text, half the time behind a real prefix
            let body = (0..<rng.below(200)).map { _ in UInt8(0x20 + rng.below(95)) }
            let seed = seeds[rng.below(seeds.count)]
            return rng.chance(50) ? Array(seed.prefix(rng.below(12) + 1)) + body : body
        }
        var b = seeds[rng.below(seeds.count)]
        if roll >= 998 {  // huge repetition of a chunk, up to ~100 KB
            let start = rng.below(b.count)
            let chunk = Array(b[start..<min(b.count, start + 1 + rng.below(16))])
            var out = Array(b.prefix(start))
            out.reserveCapacity(100_000)
            while out.count < 90_000 + rng.below(10_000) { out += chunk }
            return out + b[start...]
        }
        for _ in 0..<(1 + rng.below(4)) { mutate(&b, seeds, &rng) }
        return b
    }

    static func mutate(_ b: inout [UInt8], _ seeds: [[UInt8]], _ rng: inout PayloadRandom) {
        let at = rng.below(b.count + 1)
        switch rng.below(7) {
        case 0: b = Array(b.prefix(at))  // truncate
        case 1: if at < b.count { b[at] ^= UInt8(1) << UInt8(rng.below(8)) }  // bit flip
        case 2: if at < b.count { b[at] = rng.byte() }  // byte replacement
        case 3: b.insert(contentsOf: interesting[rng.below(interesting.count)], at: at)  // separators, controls
        case 4: if at < b.count { b.removeSubrange(at..<min(b.count, at + 1 + rng.below(8))) }  // deletion
        case 5:  // duplicate a chunk in place
            let len = rng.below(32)
            b.insert(contentsOf: b[at..<min(b.count, at + len)], at: at)
        default:  // splice in part of another seed
            let other = seeds[rng.below(seeds.count)]
            let from = rng.below(other.count)
            b.insert(contentsOf: other[from..<min(other.count, from + rng.below(40))], at: at)
        }
    }

    /// What every parse result must satisfy, whatever the input.
    static func checkInvariants(_ p: Payload, text: String) {
        switch p {
        case .geo(let g):
            #expect((-90...90).contains(g.latitude) && (-180...180).contains(g.longitude))
        case .gs1(let g):
            #expect(!g.elements.isEmpty)
            for e in g.elements {
                let spec = GS1ApplicationIdentifiers.spec(e.ai)
                #expect(spec.map { GS1Parser.isValid(Array(e.value.utf8)[...], $0) } == true, "\(e.ai)=\(e.value)")
            }
            // A Digital Link's element string (what the wedge types) reads back as the same elements.
            if g.resolver != nil {
                #expect(GS1Parser.parse(Array(g.elementString.utf8)[...], format: .code128)?.elements == g.elements, "\(text.prefix(200))")
            }
        case .product(let pr): #expect(GTIN.isValid(Array(pr.gtin.utf8)[...]))
        case .isbn(let i): #expect(GTIN.isValid(Array(i.isbn13.utf8)[...]) && i.isbn13.hasPrefix("97"))
        case .wifi(let w): #expect(!w.ssid.isEmpty)
        case .email(let e): #expect(!e.to.isEmpty)
        case .text(let t): #expect(t == text)
        default: break
        }
        let line = p.json.serialized()
        #expect(JSONChecker.isValidLine(line), "\(line.prefix(200))")
    }

    @Test(arguments: Target.allCases)
    func randomAndMutatedInputsNeverCrash(_ target: Target) {
        var rng = PayloadRandom(
            seed: 0x5CA4D ^ UInt64(target.rawValue.utf8.count) &* 0x9E37_79B9 ^ UInt64(Target.allCases.firstIndex(of: target) ?? 0))
        var interpreted = 0
        for _ in 0..<20_000 {
            let bytes = Self.input(for: target, &rng)
            target.runDirect(bytes[...], &rng)
            let text = String(decoding: bytes, as: UTF8.self)
            let contentType: Detection.ContentType = rng.chance(10) ? .gs1 : .text
            let p = PayloadParser.parse(format: rng.chance(80) ? target.format : .qrCode, text: text, contentType: contentType)
            if case .text = p {} else { interpreted += 1 }
            Self.checkInvariants(p, text: text)
        }
        // Mutations keep many inputs valid: the fuzzer must exercise the parsers, not only their rejections.
        #expect(interpreted > 300, "\(target): only \(interpreted) inputs were interpreted")
    }

    /// 1 MB payloads built to hit the worst case of each parser (escapes, folds, soft breaks, nesting,
    /// separators, parentheses). No time is asserted: the parsers are linear, and a quadratic one would
    /// take minutes here and stall the suite.
    @Test func megabyteHostilePayloadsFinish() {
        let mb = 1 << 20
        func rep(_ prefix: String, _ unit: String, _ suffix: String = "") -> String {
            prefix + String(repeating: unit, count: mb / max(1, unit.utf8.count)) + suffix
        }
        let hostile: [(String, BarcodeFormat, Detection.ContentType)] = [
            (rep("WIFI:S:", "\\;"), .qrCode, .text), (rep("WIFI:", ";S:a"), .qrCode, .text), (rep("WIFI:S:", "\\"), .qrCode, .text),
            (rep("MECARD:", "N:x;"), .qrCode, .text), (rep("MECARD:N:", "\""), .qrCode, .text),
            (rep("BEGIN:VCARD\n", "TEL:1\n"), .qrCode, .text), (rep("BEGIN:VCARD\nFN:", "\n x"), .qrCode, .text),
            (rep("BEGIN:VCARD\nNOTE;ENCODING=QUOTED-PRINTABLE:", "=\n", "\nFN:a\nEND:VCARD"), .qrCode, .text),
            (rep("BEGIN:VCARD\n", "BEGIN:VCARD\n"), .qrCode, .text), (rep("BEGIN:VCARD\nN", ";", ":x\nEND:VCARD"), .qrCode, .text),
            (rep("BEGIN:VCALENDAR\n", "BEGIN:VEVENT\n"), .qrCode, .text), (rep("BEGIN:VEVENT\nDTSTART:20250101\n", "\\n"), .qrCode, .text),
            (rep("mailto:", "a@b.co,"), .qrCode, .text), (rep("mailto:?", "to=a@b.co&"), .qrCode, .text),
            (rep("sms:", "1,"), .qrCode, .text), (rep("tel:", "1"), .qrCode, .text), (rep("geo:", "1"), .qrCode, .text),
            (rep("geo:1,2?", "q=%41&"), .qrCode, .text), (rep("http://", "a"), .qrCode, .text), (rep("http://a/", "%"), .qrCode, .text),
            (rep("", "a") + "@" + rep("", "b"), .qrCode, .text), (rep("", "("), .qrCode, .text), (rep("(10)", "("), .qrCode, .text),
            (rep("(01)09501101530003", "(21)1"), .code128, .gs1), (rep("(10)", "(9"), .code128, .gs1),
            (rep("]C1", "10A\u{1d}"), .code128, .text), (rep("", "\u{1d}"), .dataMatrix, .gs1), (rep("", "01"), .code128, .gs1),
            (rep("@\n\u{1e}\rANSI ", "DLDAQ"), .pdf417, .text), (rep("@\n\u{1e}\rANSI 636014090002", "DL"), .pdf417, .text),
            (rep("@\n\u{1e}\rANSI 636014090002DLDAQ1\n", "\n"), .pdf417, .text), (rep("", "9"), .ean13, .text),
            (rep("", "\\"), .qrCode, .text), (rep("", "\u{0}"), .qrCode, .text),
            (rep("https://a/", "10/"), .qrCode, .text), (rep("https://a/01/09506000134352", "/10/x"), .qrCode, .text),
            (rep("https://a/01/09506000134352?", "17=270101&"), .qrCode, .text), (rep("https://a/", "/"), .qrCode, .text)
        ]
        for (text, format, contentType) in hostile {
            let p = PayloadParser.parse(format: format, text: text, contentType: contentType)
            #expect(JSONChecker.isValidLine(p.json.serialized()))
        }
    }
}
