import ScandCore
import ScandProtocol
import Testing

@testable import ScandWeb

/// GET /events's parameters: the filters of ?WATCH, and where to resume.
@Suite struct EventStreamRequestTests {
    static let boot = "5f0c9a7e31d24b6c8e1f02a9d4b7c3e6"

    @Test func idsAreBootColonSeq() {
        let position = EventPosition(boot: Self.boot, seq: 812)
        #expect(EventStreamID.text(position) == "\(Self.boot):812")
        #expect(EventStreamID.position("\(Self.boot):812") == position)
        for bad in [
            "", ":", "\(Self.boot):0", "\(Self.boot):-1", "\(Self.boot):", "\(Self.boot)", "\(Self.boot.uppercased()):1", "abc:1",
            "\(Self.boot):1:2", "\(Self.boot): 1", "\(Self.boot):99999999999999999999", "\(Self.boot):1e3",
            // Beyond the numbering's range: seq + 1 trapped in the daemon (issue 31).
            "\(Self.boot):9223372036854775807", "\(Self.boot):\(EventPosition.maxSeq + 1)"
        ] {
            #expect(EventStreamID.position(bad) == nil, "\(bad)")
        }
    }

    @Test func scansByDefaultOtherClassesAndFormatsWhenAsked() throws {
        let plain = try EventStreamRequest(classes: nil, formats: nil, lastEventID: nil, lastEventID: nil)
        #expect(plain.watch == ClientRequest.Watch(enable: true, classes: [.scan]))
        #expect(plain.since == nil)
        let asked = try EventStreamRequest(classes: "scan, LOST,device", formats: "qr,EAN-13", lastEventID: nil, lastEventID: nil)
        #expect(asked.watch.classes == [.scan, .lost, .device])
        #expect(asked.watch.formats == (try BarcodeFormats.parse("qr,EAN-13")))
        for (classes, formats) in [("SCAN,FLY", nil), ("VERSION", nil), ("WATCH", nil), (",", nil), (nil, "qr,nope")] as [(String?, String?)] {
            #expect(throws: EventStreamRequest.Problem.self, "\(classes ?? "") \(formats ?? "")") {
                try EventStreamRequest(classes: classes, formats: formats, lastEventID: nil, lastEventID: nil)
            }
        }
    }

    @Test func aViewIsAskedWithOneAndAnythingElseIsRefused() throws {
        #expect(try EventStreamRequest(classes: nil, formats: nil, view: "1", lastEventID: nil, lastEventID: nil).view)
        #expect(try !EventStreamRequest(classes: nil, formats: nil, view: "0", lastEventID: nil, lastEventID: nil).view)
        #expect(try !EventStreamRequest(classes: nil, formats: nil, lastEventID: nil, lastEventID: nil).view)
        for bad in ["", "yes", "true", "2"] {
            #expect {
                try EventStreamRequest(classes: nil, formats: nil, view: bad, lastEventID: nil, lastEventID: nil)
            } throws: { ($0 as? EventStreamRequest.Problem)?.description == "view must be 1 or 0, got '\(bad)'" }
        }
    }

    @Test func theHeaderWinsOverTheQueryAndABadIdIsRefused() throws {
        let a = "\(Self.boot):7", b = "\(Self.boot):9"
        #expect(try EventStreamRequest(classes: nil, formats: nil, lastEventID: nil, lastEventID: a).since?.seq == 7)
        #expect(try EventStreamRequest(classes: nil, formats: nil, lastEventID: b, lastEventID: a).since?.seq == 9)
        #expect(try EventStreamRequest(classes: nil, formats: nil, lastEventID: "", lastEventID: a).since?.seq == 7)
        #expect {
            try EventStreamRequest(classes: nil, formats: nil, lastEventID: "42", lastEventID: nil)
        } throws: { ($0 as? EventStreamRequest.Problem)?.description.hasPrefix("Last-Event-ID must be") == true }
    }
}
