import Testing
@testable import ScandCore
@testable import ScandProtocol

@Suite struct EventJSONTests {
    @Test func escapesEveryControlCharacter() {
        let hostile = "a\u{1b}[2J\u{07}\u{0}b\u{7f}\u{9b}c\u{2028}\"\\\n\t"
        let json = JSONValue.string(hostile).serialized()
        #expect(json == #""a\u001b[2J\u0007\u0000b\u007f\u009bc\u2028\"\\\n\t""#)
        for scalar in json.unicodeScalars {
            #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value), "raw control \(scalar.value)")
        }
    }

    /// Trojan Source: a code holding bidirectional controls must not reorder what a terminal shows.
    @Test func escapesBidirectionalControlsAndTheByteOrderMark() {
        let bidi: [UInt32] = Array(0x202A...0x202E) + Array(0x2066...0x2069) + [0x200E, 0x200F, 0x061C, 0xFEFF]
        let hostile = "id=" + String(String.UnicodeScalarView(bidi.compactMap(Unicode.Scalar.init))) + "é€"
        let json = JSONValue.string(hostile).serialized()
        let log = hostile.escapingControlCharacters()
        for out in [json, log] {
            #expect(!out.unicodeScalars.contains { bidi.contains($0.value) }, "\(out)")
            #expect(out.contains("\\u202e") && out.contains("\\u2066") && out.contains("\\ufeff") && out.hasSuffix("é€" + (out == json ? "\"" : "")))
        }
    }

    @Test func keepsKeyOrderAndOmitsNothingSilently() {
        let v = JSONValue.object([("class", .string("SCAN")), ("b", .int(1)), ("a", .array([.bool(true), .double(0.5)]))])
        #expect(v.serialized() == #"{"class":"SCAN","b":1,"a":[true,0.5]}"#)
        #expect(JSONValue.number(0.1 + 0.2, places: 4).serialized() == "0.3")
        #expect(JSONValue.double(.nan).serialized() == "null")
    }

    @Test func detectionFieldsOmitWhatDoesNotApply() {
        let d = Detection(
            format: .qrCode, text: "hi", bytes: Array("hi".utf8),
            corners: Quadrilateral([Point(10, 10), Point(30, 10), Point(30, 30), Point(10, 30)]),
            symbologyIdentifier: "]Q1", ecLevel: "M")
        func line(_ d: Detection) -> String { Event.imageScan(ImageCode(file: "a.png", detection: d, imageWidth: 100, imageHeight: 50)).line }
        let json = line(d)
        #expect(
            json
                == #"{"class":"SCAN","file":"a.png","format":"QRCode","text":"hi","bytes":"aGk=","corners":[[10,10],[30,10],[30,30],[10,30]],"normalized":[[0.1,0.2],[0.3,0.2],[0.3,0.6],[0.1,0.6]],"orientation":0,"symbology":"]Q1","content":"Text","ecLevel":"M","value":{"type":"text"}}"#
        )
        var seq = d
        seq.sequence = .init(count: 3, index: 1, id: "7")
        seq.mirrored = true
        seq.inverted = true
        let fields = line(seq)
        #expect(fields.contains(#""mirrored":true,"inverted":true"#))
        #expect(fields.contains(#""sequence":{"index":1,"count":3,"id":"7"}"#))
        #expect(!fields.contains("null"))
        // The typed payload rides along: a Wi-Fi code says what it is.
        var wifi = d
        wifi.text = "WIFI:S:kiosk;T:WPA;P:secret;;"
        let typed = line(wifi)
        #expect(typed.hasSuffix(#""value":{"type":"wifi","ssid":"kiosk","password":"secret","encryption":"WPA"}}"#), "\(typed)")
    }
}
