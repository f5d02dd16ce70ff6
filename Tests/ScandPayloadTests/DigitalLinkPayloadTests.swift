import Testing
import ScandCore
import ScandProtocol
@testable import ScandPayload

/// GS1 Digital Link URIs in QR codes are `gs1` payloads; anything short of a valid one stays a `url`.
@Suite struct DigitalLinkPayloadTests {
    static let gs = "\u{1d}"

    func gs1(_ text: String, format: BarcodeFormat = .qrCode) -> Payload.GS1? {
        if case .gs1(let g) = payloadOf(text, format: format) { return g }
        return nil
    }

    func pairs(_ g: Payload.GS1?) -> [String] { g?.elements.map { "\($0.ai)=\($0.value)" } ?? [] }

    func isURL(_ text: String) -> Bool {
        if case .url = payloadOf(text) { return true }
        return false
    }

    @Test func gs1sOwnResolverWithQualifierAndDataAttribute() throws {
        let g = try #require(gs1("https://id.gs1.org/01/09506000134352/10/ABC?17=270101"))
        #expect(pairs(g) == ["01=09506000134352", "10=ABC", "17=270101"])
        #expect(g.gtin == "09506000134352" && g.batch == "ABC" && g.expiry == "2027-01-01")
        #expect(g.resolver == "https://id.gs1.org")
        #expect(g.elements.map(\.title) == ["GTIN", "BATCH/LOT", "USE BY OR EXPIRY"])
        #expect(g.elementString == "0109506000134352" + "10ABC" + Self.gs + "17270101")
    }

    @Test func theJSONValueIsTheGS1TypeWithItsResolver() {
        let json = payloadOf("https://id.gs1.org/01/09506000134352/21/S1?17=270100").json.serialized()
        #expect(
            json
                == #"{"type":"gs1","gtin":"09506000134352","expiry":"2027-01-31","serial":"S1","resolver":"https://id.gs1.org","elements":[{"ai":"01","title":"GTIN","value":"09506000134352"},{"ai":"21","title":"SERIAL","value":"S1"},{"ai":"17","title":"USE BY OR EXPIRY","value":"270100"}]}"#
        )
    }

    /// A brand's own domain, with a port and a path of its own before the key, is as good as id.gs1.org.
    @Test func aBrandsDomainWithAPathPrefix() throws {
        let g = try #require(gs1("https://brand.example.com:8443/products/en/01/09521234543213/22/2A/10/LOT7/21/99?3103=000500&15=261231"))
        #expect(pairs(g) == ["01=09521234543213", "22=2A", "10=LOT7", "21=99", "3103=000500", "15=261231"])
        #expect(g.resolver == "https://brand.example.com:8443/products/en")
        // 22, 10 and 21 are variable-length; 3103 and 15 are of predefined length.
        #expect(g.elementString == "0109521234543213" + "222A" + Self.gs + "10LOT7" + Self.gs + "2199" + Self.gs + "3103000500" + "15261231")
        #expect(gs1("HTTP://Example.COM/01/09506000134352")?.resolver == "HTTP://Example.COM", "scheme and host in any case")
        #expect(pairs(gs1("http://example.com/a/b/c/01/09506000134352")) == ["01=09506000134352"])
    }

    @Test func percentEscapesInEitherCaseAreDecoded() {
        // %2F a slash inside the lot, %2D %2d a hyphen, %41 an A, %25 a percent sign.
        #expect(
            pairs(gs1("https://id.gs1.org/01/09506000134352/10/AB%2FC%2d1%2D%41?21=X%25Y"))
                == ["01=09506000134352", "10=AB/C-1-A", "21=X%Y"])
        // A decoded value still has to be in the AI's character set: a space is not in CSET 82.
        #expect(isURL("https://id.gs1.org/01/09506000134352/10/A%20B"))
    }

    /// Issue 48, 9: `%ZZ` is no escape; decoded leniently, the link was typed gs1 with the batch `A%ZZ`.
    @Test func aBadPercentEscapeAnywhereLeavesAPlainURL() {
        for bad in [
            "https://id.gs1.org/01/09506000134352/10/A%ZZ", "https://id.gs1.org/01/09506000134352/10/A%2",
            "https://id.gs1.org/01/09506000134352/10/A%", "https://id.gs1.org/01/09506000134352?17=2701%G1",
            "https://id.gs1.org/x%zz/01/09506000134352", "https://id.gs1.org/01/09506000134352#%"
        ] {
            #expect(gs1(bad) == nil && isURL(bad), "\(bad)")
        }
        #expect(pairs(gs1("https://id.gs1.org/01/09506000134352/10/A%25ZZ")) == ["01=09506000134352", "10=A%ZZ"])
    }

    @Test func shorterGTINsAreWrittenWithFourteenDigits() {
        #expect(gs1("https://id.gs1.org/01/9506000134352")?.gtin == "09506000134352")
        #expect(gs1("https://id.gs1.org/01/614141123452")?.gtin == "00614141123452")
        #expect(gs1("https://id.gs1.org/01/96385074")?.gtin == "00000096385074")
        #expect(isURL("https://id.gs1.org/01/963850740"), "9 digits is no GTIN")
    }

    @Test func aBadCheckDigitOrDateLeavesAPlainURL() {
        #expect(isURL("https://id.gs1.org/01/09506000134353/10/ABC"))
        #expect(isURL("https://id.gs1.org/01/9506000134353"))
        #expect(isURL("https://id.gs1.org/01/09506000134352?17=271301"), "month 13")
        #expect(isURL("https://id.gs1.org/01/09506000134352/10/" + String(repeating: "L", count: 21)), "a lot of 21 characters")
        #expect(isURL("https://id.gs1.org/01/09506000134352?17=270101&17=270102"), "one AI, two values")
    }

    @Test func parametersThatAreNotAIsAreIgnored() {
        #expect(
            pairs(gs1("https://id.gs1.org/01/09506000134352?linkType=gs1:pip&17=270101&utm_source=shelf&lang#top"))
                == ["01=09506000134352", "17=270101"])
        #expect(pairs(gs1("https://id.gs1.org/01/09506000134352?17=270101&17=270101")) == ["01=09506000134352", "17=270101"])
        // Digits name an AI: one scand's table does not know cannot be checked, so the link stays a URL.
        #expect(isURL("https://id.gs1.org/01/09506000134352?4330=x"))
        #expect(isURL("https://id.gs1.org/01/09506000134352?17"), "an AI without a value")
        #expect(isURL("https://id.gs1.org/01/09506000134352?00=106141412345678908"), "a second primary key")
    }

    @Test func qualifiersKeepTheStandardsOrder() {
        #expect(pairs(gs1("https://id.gs1.org/01/09506000134352/21/S1")) == ["01=09506000134352", "21=S1"])
        #expect(pairs(gs1("https://id.gs1.org/01/09506000134352/235/T1")) == ["01=09506000134352", "235=T1"])
        #expect(isURL("https://id.gs1.org/01/09506000134352/21/S1/10/L1"), "serial before lot")
        #expect(isURL("https://id.gs1.org/01/09506000134352/10/L1/235/T1"), "235 is the other sequence")
        #expect(isURL("https://id.gs1.org/01/09506000134352/17/270101"), "a data attribute in the path")
        #expect(isURL("https://id.gs1.org/00/106141412345678908/10/L1"), "an SSCC takes no qualifier")
        #expect(isURL("https://id.gs1.org/01/09506000134352/"), "a trailing slash")
        #expect(isURL("https://id.gs1.org/01/09506000134352/10"), "a qualifier without its value")
    }

    @Test func otherPrimaryKeys() {
        #expect(
            pairs(gs1("https://id.gs1.org/00/106141412345678908?02=09506000134352&37=25"))
                == ["00=106141412345678908", "02=09506000134352", "37=25"])
        #expect(pairs(gs1("https://id.gs1.org/414/0614141000029/254/A1")) == ["414=0614141000029", "254=A1"])
        #expect(pairs(gs1("https://id.gs1.org/8004/0614141ASSET-7")) == ["8004=0614141ASSET-7"])
        #expect(pairs(gs1("https://id.gs1.org/8003/09521234543213XYZ")) == ["8003=09521234543213XYZ"])
        #expect(pairs(gs1("https://id.gs1.org/417/0614141000029/7040/1ABC")) == ["417=0614141000029", "7040=1ABC"])
        // 7003 is of fixed length but not in the predefined table: a GS follows it.
        #expect(
            gs1("https://id.gs1.org/01/09506000134352?7003=2701011230&10=L")?.elementString
                == "0109506000134352" + "70032701011230" + Self.gs + "10L")
    }

    /// Forms the standard no longer has, or that need a decompressor, stay URLs: the compressed form (a
    /// base64url path), and the convenience names (`/gtin/`) withdrawn in Digital Link 1.2.
    @Test func compressedAndObsoleteFormsStayURLs() {
        #expect(isURL("https://id.gs1.org/AQnYUc1gRMj_fFGIAQ"))
        #expect(isURL("https://id.gs1.org/gtin/9506000134352/lot/ABC"))
        #expect(isURL("https://example.com/menu?table=4"))
        #expect(isURL("https://example.com/01/abc"))
        #expect(gs1("ftp://id.gs1.org/01/09506000134352") == nil, "http and https only")
    }

    /// A GS1 QR code (]Q3) carries an element string, not a link: the symbology still decides first.
    @Test func theSymbologyStillDecidesFirst() {
        #expect(
            payloadOf("https://id.gs1.org/01/09506000134352", contentType: .gs1, symbology: "]Q3") == .text("https://id.gs1.org/01/09506000134352"))
        #expect(pairs(gs1("https://id.gs1.org/01/09506000134352", format: .dataMatrix)) == ["01=09506000134352"])
    }
}
