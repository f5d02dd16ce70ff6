import ScandTestSupport
import Testing
import ScandCore
@testable import ScandProtocol

@Suite struct ClientRequestTests {
    @Test func parsesGpsdStyleRequests() throws {
        #expect(try ClientRequest.parse("?STATUS;") == .status)
        #expect(try ClientRequest.parse("?VERSION;\r") == .version)
        #expect(try ClientRequest.parse("?WATCH;") == .watch(.init(enable: true)))
        #expect(try ClientRequest.parse(#"?WATCH={"enable":false};"#) == .watch(.init(enable: false)))
        let w = try ClientRequest.parse(#"?WATCH={"enable":true,"classes":["scan","LOST"],"formats":["qr","ean13"]}"#)
        #expect(w == .watch(.init(enable: true, classes: [.scan, .lost], formats: BarcodeFormats([.qrCode, .ean13]))))
        let boot = "0123456789abcdef0123456789abcdef"
        let since = try ClientRequest.parse(#"?WATCH={"enable":true,"since":{ "seq": 42, "boot":"\#(boot)" }};"#)
        #expect(since == .watch(.init(enable: true, since: EventPosition(boot: boot, seq: 42))))
        #expect(
            Event.watch(.init(enable: true, since: EventPosition(boot: boot, seq: 42))).line
                == #"{"class":"WATCH","enable":true,"since":{"boot":"\#(boot)","seq":42}}"#)
    }

    @Test(arguments: [
        #"{"boot":"0123","seq":1}"#, #"{"boot":"0123456789abcdef0123456789abcdef","seq":0}"#,
        #"{"boot":"0123456789ABCDEF0123456789ABCDEF","seq":1}"#, #"{"seq":1}"#, "1", #""x""#,
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":1,"x":2}"#,
        // Beyond the numbering's range (issue 31: seq + 1 trapped in the daemon and stopped it).
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":9223372036854775807}"#,
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":9007199254740992}"#,
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":-1}"#,
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":1e300}"#,
        #"{"boot":"0123456789abcdef0123456789abcdef","seq":99999999999999999999999}"#
    ])
    func aBadSinceIsRefusedWithItsShape(_ since: String) {
        #expect { try ClientRequest.parse(#"?WATCH={"enable":true,"since":\#(since)};"#) } throws: {
            let text = ($0 as! ClientRequest.Problem).description
            return text.contains("since") && !text.contains("\n")
        }
    }

    @Test func theHighestSeqIsTakenAndTheNextRefused() throws {
        let boot = "0123456789abcdef0123456789abcdef"
        #expect(
            try ClientRequest.parse(#"?WATCH={"since":{"boot":"\#(boot)","seq":\#(EventPosition.maxSeq)}};"#)
                == .watch(.init(enable: true, since: EventPosition(boot: boot, seq: EventPosition.maxSeq))))
        #expect(throws: ClientRequest.Problem.self) {
            try ClientRequest.parse(#"?WATCH={"since":{"boot":"\#(boot)","seq":\#(EventPosition.maxSeq + 1)}};"#)
        }
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":\#(EventPosition.maxSeq)}"#)?.seq == EventPosition.maxSeq)
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":\#(EventPosition.maxSeq + 1)}"#) == nil)
        #expect(try EventDecoder.decode(#"{"class":"SCAN","boot":"\#(boot)","seq":9223372036854775807}"#).position == nil)
    }

    @Test(arguments: [
        "WATCH", "?", "?FLY;", #"?WATCH={"enable":tru}"#, #"?WATCH={"enable":true"#, #"?WATCH={"colour":1}"#,
        #"?WATCH={"classes":["NOPE"]}"#, #"?WATCH={"formats":["bogus"]}"#, "?STATUS=1;", #"?WATCH={"enable":true} x"#,
        #"?WATCH={"classes":[["SCAN"]]}"#, "?WATCH=[]",
        #"?WATCH={"since":{"boot":{"a":1}}}"#, #"?WATCH={"classes":{"a":1}}"#
    ])
    func malformedRequestsAreProblemsNotCrashes(_ line: String) {
        #expect(throws: ClientRequest.Problem.self) { try ClientRequest.parse(line) }
    }

    /// 4 KB of escape characters once came back as a 24 KB ERROR: replies quote a short prefix only.
    @Test func problemsQuoteAShortPrefixOfTheRequest() {
        let long = String(repeating: "\u{1b}", count: 4000)
        for line in [
            "?" + String(repeating: "F", count: 4000) + ";", #"?WATCH={"formats":[""# + long + #""]}"#,
            #"?WATCH={""# + long + #"":1}"#, #"?WATCH={"enable":"# + long + "}", #"?WATCH={""# + long + #"":true}"#
        ] {
            #expect { try ClientRequest.parse(line) } throws: { e in
                let message = (e as! ClientRequest.Problem).description
                return message.count < ClientRequest.quoteLimit + 400 && JSONValue.string(message).serialized().utf8.count < 1000
            }
        }
    }

    /// fuzz-socket-request found `?WATCH={"\nable":false};`: a JSON escape put a newline into the field name
    /// the ERROR quotes. Every quoted piece of a request has its control characters escaped: one line.
    @Test(arguments: [
        #"?WATCH={"\nable":false};"#, #"?WATCH={"formats":["qr\r\nx"]};"#, #"?ROI={"\u2028x":0};"#,
        #"?CONTROLS={"se\u001bt":[]};"#, #"?WATCH={"enable":true,"\u0085":1};"#
    ])
    func problemsAreOneLineWhateverTheRequestCarries(_ line: String) {
        #expect { try ClientRequest.parse(line) } throws: { e in
            let message = (e as! ClientRequest.Problem).description
            let escaped = message.contains("\\u00") || message.contains("\\u2028")
            return escaped && !message.unicodeScalars.contains { $0.isUnsafeOnATerminal }
        }
    }

    @Test func survivesRandomInput() {
        var rng = SeededRandom(seed: 7)  // the fuzz tests' seeded SplitMix64
        let alphabet = Array(#"?WATCH={}[]",:truefalsn0123456789 \"#.unicodeScalars) + ["\u{0}", "\u{1b}", "é", "\u{FFFF}"]
        for _ in 0..<20_000 {
            var s = "?WATCH="
            for _ in 0..<Int(rng.next() % 64) { s.unicodeScalars.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            _ = try? ClientRequest.parse(s)
        }
    }

    @Test func snapshotAndRegionOfInterestRequests() throws {
        #expect(try ClientRequest.parse("?SNAPSHOT;") == .snapshot)
        #expect(try ClientRequest.parse("?ROI;") == .regionOfInterest)
        let set = try ClientRequest.parse(#"?ROI={"x":0.1,"y":0,"w":0.5,"h":1};"#)
        #expect(set == .setRegionOfInterest(try NormalizedRect(x: 0.1, y: 0, width: 0.5, height: 1)))
        #expect(set.changesSettings && !ClientRequest.regionOfInterest.changesSettings)
    }

    @Test(arguments: [
        (#"?ROI={"x":0.5,"y":0,"w":0.6,"h":1};"#, "rect of interest: x+w and y+h must not exceed 1"),
        (#"?ROI={"x":0,"y":0,"w":1};"#, "?ROI needs x, y, w and h (0…1 of the frame)"),
        (#"?ROI={"x":0,"y":0,"w":0.00004,"h":1};"#, "rect of interest: width and height must be at least 0.0001 (4 decimals are kept)"),
        (#"?ROI={"x":"0","y":0,"w":1,"h":1};"#, "'x' must be a number"),
        (#"?ROI={"x":0,"y":0,"w":1,"h":1,"z":2};"#, "unknown ROI field 'z' (known: x, y, w, h)"),
        (#"?ROI=[0,0,1,1];"#, "malformed JSON: expected '{'"),
        ("?SNAPSHOT=1;", "?SNAPSHOT takes no argument")
    ])
    func badRegionsAreRefusedWithTheReason(_ line: String, _ reason: String) {
        #expect(throws: ClientRequest.Problem(reason)) { try ClientRequest.parse(line) }
    }

    @Test func answersAreEncoded() throws {
        let r = try NormalizedRect(x: 0.25, y: 0.125, width: 0.5, height: 0.75)
        #expect(Event.regionOfInterest(r).line == #"{"class":"ROI","roi":[0.25,0.125,0.5,0.75]}"#)
        let s = Snapshot(frame: 7, width: 2, height: 1, sourceWidth: 4, sourceHeight: 2, mimeType: "image/jpeg", data: [1, 2, 3])
        #expect(
            Event.snapshot(s).line
                == #"{"class":"SNAPSHOT","frame":7,"width":2,"height":1,"sourceWidth":4,"sourceHeight":2,"mime":"image/jpeg","data":"AQID"}"#)
    }
}

@Suite struct ClientRequestEncodingTests {
    /// What a client sends is what the daemon reads.
    @Test func everyRequestComesBackFromItsLine() throws {
        let boot = "0123456789abcdef0123456789abcdef"
        let requests: [ClientRequest] = [
            .status, .version, .snapshot, .metrics, .regionOfInterest,
            .setRegionOfInterest(try NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.25)),
            .setRegionOfInterest(try NormalizedRect(x: 0.9999, y: 0, width: 0.0001, height: 1)),
            .watch(.init(enable: true)), .watch(.init(enable: false)),
            .watch(
                .init(enable: true, classes: [.scan, .device], formats: BarcodeFormats([.ean13, .qrCode]), since: EventPosition(boot: boot, seq: 7)))
        ]
        for request in requests {
            #expect(try ClientRequest.parse(request.line) == request, "\(request.line)")
        }
        #expect(ClientRequest.watch(.init(enable: true, classes: [.scan, .lost])).line == #"?WATCH={"enable":true,"classes":["LOST","SCAN"]};"#)
        #expect(
            ClientRequest.setRegionOfInterest(try NormalizedRect(x: 0.1, y: 0, width: 0.33333, height: 1)).line
                == #"?ROI={"x":0.1,"y":0,"w":0.3333,"h":1};"#)
    }

    @Test func aRequestOverTheBoundIsRefusedUnread() {
        #expect(throws: ClientRequest.Problem("request longer than 8 bytes refused")) { try ClientRequest.parse("?STATUS; ", maxLength: 8) }
    }
}
