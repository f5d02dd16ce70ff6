import Testing
import ScandCore
import ScandProtocol
@testable import ScandPayload

/// One example of every payload type on the wire: these strings are the ones scand-json(5) shows.
@Suite struct PayloadJSONTests {
    static let examples: [(Payload, String)] = [
        (
            payloadOf("https://example.com/menu?table=4"),
            #"{"type":"url","url":"https://example.com/menu?table=4","scheme":"https","host":"example.com"}"#
        ),
        (
            payloadOf("WIFI:T:WPA;S:Cafe Guest;P:espresso42;H:true;;"),
            #"{"type":"wifi","ssid":"Cafe Guest","password":"espresso42","encryption":"WPA","hidden":true}"#
        ),
        (
            payloadOf(
                "BEGIN:VCARD\nVERSION:3.0\nFN:Jane Roe\nORG:Example Corp\nTEL;TYPE=CELL:+1-555-0100\nEMAIL:jane@example.com\nADR:;;1 Main St;Springfield;IL;62701;USA\nEND:VCARD"
            ),
            #"{"type":"contact","source":"vcard","name":"Jane Roe","organization":"Example Corp","phones":["+1-555-0100"],"emails":["jane@example.com"],"addresses":["1 Main St, Springfield, IL, 62701, USA"]}"#
        ),
        (
            payloadOf("mailto:jane@example.com?subject=Hello&body=See%20you"),
            #"{"type":"email","to":["jane@example.com"],"subject":"Hello","body":"See you"}"#
        ),
        (payloadOf("tel:+1-555-0100"), #"{"type":"phone","number":"+1-555-0100"}"#),
        (payloadOf("SMSTO:+15550100:On my way"), #"{"type":"sms","number":"+15550100","body":"On my way"}"#),
        (
            payloadOf("geo:48.8583701,2.2944813,35?q=Eiffel+Tower"),
            #"{"type":"geo","latitude":48.8583701,"longitude":2.2944813,"altitude":35,"query":"Eiffel Tower"}"#
        ),
        (
            payloadOf("BEGIN:VEVENT\nSUMMARY:Team meeting\nDTSTART:20250314T090000Z\nDTEND:20250314T100000Z\nLOCATION:Room 4\nEND:VEVENT"),
            #"{"type":"event","summary":"Team meeting","start":"20250314T090000Z","end":"20250314T100000Z","location":"Room 4"}"#
        ),
        (
            payloadOf(DriverLicensePayloadTests.v9, format: .pdf417),
            #"{"type":"driverLicense","documentType":"DL","issuerIIN":"636014","aamvaVersion":9,"licenseNumber":"D1234562","familyName":"PUBLIC","givenNames":"JOHN QUINCY","birthDate":"1977-08-31","expiryDate":"2018-08-31","issueDate":"2013-08-31","sex":"M","street":"789 E OAK ST","city":"ANYTOWN","state":"CA","postalCode":"902230000","country":"USA"}"#
        ),
        (payloadOf("9780306406157", format: .ean13), #"{"type":"isbn","isbn13":"9780306406157","isbn10":"0306406152"}"#),
        (payloadOf("4006381333931", format: .ean13), #"{"type":"product","gtin":"4006381333931","format":"EAN-13"}"#),
        (
            payloadOf("(01)09501101530003(17)250100(10)AB12", format: .code128, contentType: .gs1),
            #"{"type":"gs1","gtin":"09501101530003","expiry":"2025-01-31","batch":"AB12","elements":[{"ai":"01","title":"GTIN","value":"09501101530003"},{"ai":"17","title":"USE BY OR EXPIRY","value":"250100"},{"ai":"10","title":"BATCH/LOT","value":"AB12"}]}"#
        ),
        (payloadOf("Hello, world"), #"{"type":"text"}"#)
    ]

    @Test func everyTypeHasADocumentedExample() {
        let types = Set(Self.examples.map { $0.0.typeName })
        #expect(types == ["url", "wifi", "contact", "email", "phone", "sms", "geo", "event", "driverLicense", "isbn", "product", "gs1", "text"])
        for (payload, expected) in Self.examples {
            let json = payload.json.serialized()
            #expect(json == expected)
            #expect(JSONChecker.isValidLine(json))
            #expect(!json.contains("null"))
        }
    }

    @Test func typeComesFirstAndHostileTextStaysOneLine() {
        let p = payloadOf("WIFI:S:evil\u{1b}[2J\nnet;P:\u{2028};;")
        guard case .object(let fields) = p.json else {
            Issue.record("not an object")
            return
        }
        #expect(fields.first?.0 == "type")
        let line = p.json.serialized()
        #expect(JSONChecker.isValidLine(line))
        #expect(line == #"{"type":"wifi","ssid":"evil\u001b[2J\nnet","password":"\u2028"}"#)
    }

    @Test func parsesADetection() {
        let d = Detection(
            format: .qrCode, text: "tel:+15550100", bytes: Array("tel:+15550100".utf8),
            corners: Quadrilateral([Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]), symbologyIdentifier: "]Q1")
        #expect(PayloadParser.parse(d) == .phone(.init(number: "+15550100")))
    }
}
