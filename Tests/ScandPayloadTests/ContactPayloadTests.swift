import Testing
import ScandCore
@testable import ScandPayload

@Suite struct ContactPayloadTests {
    static let vcard3 = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Doe;John;Q.;Dr.;Jr.\r
        FN:Dr. John Q. Doe Jr.\r
        ORG:Example Corp;Research\r
        TITLE:Chief Scientist\r
        TEL;TYPE=WORK,VOICE:+1-555-0100\r
        item1.TEL;TYPE=CELL:+1-555-0199\r
        EMAIL;TYPE=INTERNET:john.doe@example.com\r
        URL:https://example.com/~jdoe\r
        ADR;TYPE=WORK:;;100 Main St;Springfield;IL;62701;USA\r
        NOTE:Met at the conference\\, booth 12\\nCall back\r
        END:VCARD\r

        """

    @Test func vCard3() {
        #expect(
            payloadOf(Self.vcard3)
                == .contact(
                    .init(
                        name: "Dr. John Q. Doe Jr.", organization: "Example Corp, Research", title: "Chief Scientist",
                        phones: ["+1-555-0100", "+1-555-0199"], emails: ["john.doe@example.com"], urls: ["https://example.com/~jdoe"],
                        addresses: ["100 Main St, Springfield, IL, 62701, USA"], note: "Met at the conference, booth 12\nCall back",
                        source: "vcard")))
    }

    @Test func vCard21QuotedPrintableAndNameFromN() {
        let card =
            "BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen\n"
            + "TEL;CELL:+49 170 1234567\nNOTE;ENCODING=QUOTED-PRINTABLE:Line one=0A=\nLine two\nEND:VCARD"
        #expect(
            payloadOf(card)
                == .contact(
                    .init(
                        name: "Jürgen Müller", phones: ["+49 170 1234567"],
                        note: "Line one\nLine two", source: "vcard")))
    }

    @Test func vCard4FoldedLinesTelURIsAndEmbeddedCards() {
        let card =
            "begin:vcard\nVERSION:4.0\nFN:Ada\n  Lovelace\nTEL;VALUE=uri:tel:+44-20-7946-0000\n"
            + "AGENT:BEGIN:VCARD\nBEGIN:VCARD\nFN:Not Ada\nEND:VCARD\nEMAIL:ada@example.org\nEND:VCARD\nFN:After the end"
        #expect(
            payloadOf(card)
                == .contact(
                    .init(
                        name: "Ada Lovelace", phones: ["+44-20-7946-0000"],
                        emails: ["ada@example.org"], source: "vcard")))
    }

    @Test func meCard() {
        let text =
            #"MECARD:N:Doe,John;TEL:13035551212;EMAIL:john.doe@example.com;ADR:76 9th Avenue\, 4th Floor\, New York\, NY 10011;URL:http\://example.com;NOTE:Semi\;colon;ORG:ACME;;"#
        #expect(
            payloadOf(text)
                == .contact(
                    .init(
                        name: "John Doe", organization: "ACME", phones: ["13035551212"], emails: ["john.doe@example.com"],
                        urls: ["http://example.com"], addresses: ["76 9th Avenue, 4th Floor, New York, NY 10011"], note: "Semi;colon",
                        source: "mecard")))
        #expect(payloadOf("mecard:N:Madonna;;") == .contact(.init(name: "Madonna", source: "mecard")))
    }

    @Test func truncatedOrEmptyCardsAreText() {
        let truncated = String(Self.vcard3.prefix(120))
        for text in [
            truncated, "BEGIN:VCARD\nFN:x", "BEGIN:VCARD\nVERSION:3.0\nEND:VCARD", "BEGIN:VCARD\nORG:Only an org\nEND:VCARD",
            "BEGIN:VCARDX\nFN:x\nEND:VCARD", "MECARD:;;", "MECARD:NOTE:no name;;", "BEGIN:VCARD"
        ] {
            #expect(payloadOf(text) == .text(text), "\(text)")
        }
    }
}
