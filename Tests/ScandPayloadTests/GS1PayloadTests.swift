import Testing
import ScandCore
@testable import ScandPayload

@Suite struct GS1PayloadTests {
    static let gs = "\u{1d}"

    func gs1(
        _ text: String, format: BarcodeFormat = .code128, contentType: Detection.ContentType = .gs1,
        symbology: String = ""
    ) -> Payload.GS1? {
        if case .gs1(let g) = payloadOf(text, format: format, contentType: contentType, symbology: symbology) { return g }
        return nil
    }

    func pairs(_ g: Payload.GS1?) -> [String] { g?.elements.map { "\($0.ai)=\($0.value)" } ?? [] }

    @Test func gs1_128WithGroupSeparators() throws {
        let g = try #require(gs1("0109501101530003172501011" + "0AB12" + Self.gs + "21SN123", symbology: "]C1"))
        #expect(pairs(g) == ["01=09501101530003", "17=250101", "10=AB12", "21=SN123"])
        #expect(g.elements.map(\.title) == ["GTIN", "USE BY OR EXPIRY", "BATCH/LOT", "SERIAL"])
        #expect(g.gtin == "09501101530003")
        #expect(g.expiry == "2025-01-01")
        #expect(g.batch == "AB12")
        #expect(g.serial == "SN123")
    }

    @Test func humanReadableFormAndZeroDay() throws {
        let g = try #require(gs1("(01)09501101530003(17)250200(10)AB12", contentType: .text, symbology: "]C1"))
        #expect(pairs(g) == ["01=09501101530003", "17=250200", "10=AB12"])
        #expect(g.expiry == "2025-02-28")  // DD 00: the last day of the month
        #expect(gs1("(17)280200")?.expiry == "2028-02-29")
    }

    @Test func dataBarFamily() {
        #expect(pairs(gs1("09501101530003", format: .dataBar, contentType: .text, symbology: "]e0")) == ["01=09501101530003"])
        #expect(pairs(gs1("0109501101530003", format: .dataBar, contentType: .text)) == ["01=09501101530003"])
        #expect(
            pairs(gs1("(01)90012345678908(3103)001750", format: .dataBarExpanded, contentType: .text))
                == ["01=90012345678908", "3103=001750"])
        #expect(gs1("(01)90012345678908(3103)001750", format: .dataBarExpanded)?.elements.last?.title == "NET WEIGHT (kg)")
    }

    @Test func matrixCodesAndSymbologyPrefixes() {
        let pharma = "0103453120000011172812311012345A" + Self.gs + "21ABCDEFGH" + Self.gs + "7003250101123" + "0"
        #expect(
            pairs(gs1(pharma, format: .dataMatrix, contentType: .text, symbology: "]d2"))
                == ["01=03453120000011", "17=281231", "10=12345A", "21=ABCDEFGH", "7003=2501011230"])
        // The identifier in the text itself (keyboard-wedge scanners) and a leading FNC1 as GS.
        #expect(
            pairs(gs1("]C100106141412345678908" + "4100614141000029", contentType: .text))
                == ["00=106141412345678908", "410=0614141000029"])
        #expect(pairs(gs1(Self.gs + "0109501101530003", format: .qrCode, contentType: .text, symbology: "]Q3")) == ["01=09501101530003"])
        // A plain QR code holding a valid element string in parentheses form.
        #expect(pairs(gs1("(01)09501101530003(17)250100", format: .qrCode, contentType: .text)) == ["01=09501101530003", "17=250100"])
    }

    @Test func multiPartValuesAndParenthesesInsideValues() {
        #expect(pairs(gs1("(10)AB(C)D(21)123")) == ["10=AB(C)D", "21=123"])
        #expect(pairs(gs1("(253)0614141000029ABC")) == ["253=0614141000029ABC"])
        #expect(pairs(gs1("(7007)250101250131")) == ["7007=250101250131"])
        #expect(pairs(gs1("(7007)250101")) == ["7007=250101"])
        #expect(pairs(gs1("(8008)2501011230")) == ["8008=2501011230"])
        #expect(pairs(gs1("(3932)978123")) == ["3932=978123"])
        #expect(pairs(gs1("(8010)AB-12/#")) == ["8010=AB-12/#"])
        #expect(pairs(gs1("(01)09501101530003(01)09501101530003")) == ["01=09501101530003", "01=09501101530003"])
    }

    @Test func anyViolationFallsBackToText() {
        let bad = [
            "(01)09501101530004",  // check digit
            "(23)123",  // unknown AI
            "(17)251301", "(17)250230", "(7006)250100",  // dates
            "(10)" + String(repeating: "A", count: 21),  // too long
            "(10)AB CD", "(10)Bätch", "(8010)abc",  // character sets
            "(01)0950110153000", "(01)09501101530003X", "(3103)00175", "(7003)2501012460", "(7007)2501012501",
            "(01)09501101530003(01)04006381333931",  // one AI, two values
            "(01)", "()", "(1)23", "(12345)6", "01)09501101530003",
            "0109501101530003" + "10" + String(repeating: "B", count: 25),
            "01095011015300", "2312345", "0109501101530003" + Self.gs + Self.gs + "99", "",
            "https://example.com"  // GS1 symbols are GS1 or text
        ]
        for text in bad {
            #expect(payloadOf(text, format: .code128, contentType: .gs1) == .text(text), "\(text)")
        }
        #expect(payloadOf("09501101530004", format: .dataBar) == .text("09501101530004"))
        // Without a GS1 claim, text that is not a valid parenthesised element string stays text.
        #expect(payloadOf("(01)09501101530004") == .text("(01)09501101530004"))
        #expect(payloadOf("0109501101530003", format: .code128) == .text("0109501101530003"))
    }

    @Test func tableIsPrefixFreeAndWellFormed() {
        let table = GS1ApplicationIdentifiers.table
        #expect(table.count > 200)
        for (ai, spec) in table {
            #expect((2...4).contains(ai.utf8.count) && ai.allSatisfy(\.isNumber), "\(ai)")
            #expect(spec.minLength >= 1 && spec.maxLength <= 90, "\(ai)")
            #expect(spec.components.dropLast().allSatisfy { $0.minLength == $0.maxLength }, "\(ai): only the last part may vary")
            for n in 2..<ai.utf8.count {
                #expect(table[String(ai.prefix(n))] == nil, "\(ai) has the AI \(ai.prefix(n)) as a prefix")
            }
        }
        for ai in [
            "00", "01", "02", "10", "11", "12", "13", "15", "16", "17", "20", "21", "22", "235", "240", "241", "242",
            "250", "251", "253", "254", "255", "30", "3100", "3105", "3202", "3695", "37", "3900", "3919", "3955",
            "400", "401", "402", "403", "410", "417", "420", "427", "7001", "7002", "7003", "7030", "7039", "710", "715",
            "8001", "8020", "8200", "90", "91", "99"
        ] {
            #expect(table[ai] != nil, "\(ai)")
        }
    }
}
