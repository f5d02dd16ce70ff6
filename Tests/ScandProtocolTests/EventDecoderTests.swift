import Foundation
import ScandCore
import Testing

@testable import ScandProtocol

@Suite struct EventDecoderTests {
    let boot = "0123456789abcdef0123456789abcdef"

    /// Every answer the daemon encodes comes back as the same `Event`.
    @Test func answersComeBackAsTheirEvents() throws {
        let rect = try NormalizedRect(x: 0.25, y: 0.125, width: 0.5, height: 0.75)
        let answers: [Event] = [
            .version(VersionBanner(release: "1.2.3", protoMajor: 3, protoMinor: 4, zxing: "3.1.1")),
            .error("too many clients\u{1b}"),
            .metrics("# HELP x\nx 1\n"),
            .regionOfInterest(rect),
            .snapshot(Snapshot(frame: 7, width: 2, height: 1, sourceWidth: 4, sourceHeight: 2, mimeType: "image/jpeg", data: [0, 1, 255])),
            .watch(.init(enable: true, classes: [.scan, .lost], formats: BarcodeFormats([.qrCode]), since: EventPosition(boot: boot, seq: 9)))
        ]
        for answer in answers {
            let received = try EventDecoder.decode(answer.line)
            #expect(received.event == answer)
            #expect(received.eventClass == answer.eventClass)
            #expect(received.line == answer.line)
        }
    }

    /// Issue 48, 7: a rect at the frame's edge, one step wide, comes back whole (x and w rounded apart ended
    /// past 1, and `scand roi` said "scand sent a ROI without its fields").
    @Test func aThinRectAtTheEdgeComesBack() throws {
        let rect = try NormalizedRect(x: 0.99985, y: 0.5, width: 0.00015, height: 0.5)
        let received = try EventDecoder.decode(Event.regionOfInterest(rect).line)
        guard case .regionOfInterest(let back) = received.event else {
            Issue.record("\(Event.regionOfInterest(rect).line)")
            return
        }
        #expect(back.onWireGrid == rect.onWireGrid && back.x + back.width <= 1)
    }

    @Test func theStampIsRead() throws {
        let stamped = EventEncoder.line(.error("x"), stamp: EventStamp(boot: boot, seq: 42, replayed: true))
        let received = try EventDecoder.decode(stamped)
        #expect(received.stamp == EventStamp(boot: boot, seq: 42, replayed: true))
        #expect(received.position == EventPosition(boot: boot, seq: 42))
        #expect(try EventDecoder.decode(Event.error("x").line).stamp == nil)
    }

    /// A boot or seq the daemon would refuse as a `since` is no position; a line of a daemon older than the
    /// numbering has its class and none.
    @Test(arguments: [
        #""boot":"0123","seq":1"#, #""boot":"\#(String(repeating: "A", count: 32))","seq":1"#,
        #""boot":"0123456789abcdef0123456789abcdef","seq":0"#, #""boot":"0123456789abcdef0123456789abcdef","seq":-3"#
    ])
    func aMalformedPositionIsNone(_ fields: String) throws {
        let received = try EventDecoder.decode(#"{"class":"LOST",\#(fields),"id":1,"format":"QRCode"}"#)
        #expect(received.eventClass == .lost && received.position == nil)
        let older = try EventDecoder.decode(#"{"class":"SCAN","id":1,"format":"QRCode","text":"a"}"#)
        #expect(older.eventClass == .scan && older.stamp == nil)
        let version = try EventDecoder.decode(#"{"class":"VERSION","boot":"\#(boot)","release":"0.1.0","proto_major":1,"proto_minor":0}"#)
        #expect(version.stamp == EventStamp(boot: boot) && version.position == nil)
    }

    /// Events keep their line: a client relays or prints it as the daemon wrote it.
    @Test func eventsKeepTheirLineWithTheirClass() throws {
        let code = TrackedCode(
            id: 3, device: "/dev/video0", time: Date(timeIntervalSince1970: 0), frame: 5, detection: EventEncoderTests.qr, frameWidth: 640,
            frameHeight: 480)
        let line = EventEncoder.line(.scan(code), stamp: EventStamp(boot: boot, seq: 1))
        let received = try EventDecoder.decode(line)
        #expect(received.eventClass == .scan && received.event == nil && received.line == line && received.stamp?.seq == 1)
        #expect(
            received.code
                == ReceivedCode(
                    id: 3, formatName: "QRCode", text: EventEncoderTests.qr.text, device: "/dev/video0", time: Date(timeIntervalSince1970: 0)))
        let lost = try EventDecoder.decode(EventEncoder.line(.lost(code), stamp: EventStamp(boot: boot, seq: 2)))
        #expect(lost.eventClass == .lost && lost.code?.id == 3)
    }

    /// What clients act on in a code's events is typed; a SCAN without its text is a broken line, and STATUS's
    /// `device` (an object) is no code's camera.
    @Test func aCodesFieldsAreTyped() throws {
        #expect(throws: EventDecoder.Problem.self) { try EventDecoder.decode(#"{"class":"SCAN","id":1,"format":"QRCode"}"#) }
        // A newer daemon's format still comes through, named as sent.
        let newer = try EventDecoder.decode(#"{"class":"SCAN","id":1,"format":"Nope","text":"x"}"#)
        #expect(newer.code?.formatName == "Nope" && newer.code?.format == nil && newer.code?.text == "x")
        let status = try EventDecoder.decode(#"{"class":"STATUS","device":{"path":"/dev/video0","state":"streaming"},"captured":1}"#)
        #expect(status.eventClass == .status && status.code == nil)
        let file = try EventDecoder.decode(#"{"class":"SCAN","file":"a.png","format":"QRCode","text":"x"}"#)
        #expect(file.code == nil, "scand scan's lines name a file, not a tracked code")
    }

    @Test(arguments: [
        "", "not json", "[]", #"{"class":"NOPE"}"#, #"{"class":"ERROR"}"#, #"{"class":"ROI","roi":[0,0,2,2]}"#,
        #"{"class":"SNAPSHOT","frame":1,"width":1,"height":1,"sourceWidth":1,"sourceHeight":1,"mime":"x","data":"***"}"#,
        #"{"nothing":1}"#, #"{"class":1}"#, #"{"class":"scan"}"#, #"{"class":""}"#
    ])
    func badLinesAreOneLineProblems(_ line: String) {
        #expect { try EventDecoder.decode(line) } throws: { error in
            let text = (error as! EventDecoder.Problem).description
            return !text.contains("\n") && text.count < 200
        }
    }

    @Test func aLineOverTheBoundIsRefusedUnread() {
        #expect(throws: EventDecoder.Problem("scand sent a line over 16 bytes")) {
            try EventDecoder.decode(Event.error("a longer message").line, maxLength: 16)
        }
    }
}
