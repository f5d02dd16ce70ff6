import Testing
import ScandCore

@testable import ScandProtocol

@Suite struct EventEnvelopeTests {
    let boot = "0123456789abcdef0123456789abcdef"

    @Test func readsClassBootAndSeqRightAfterClass() throws {
        let line = #"{"class":"SCAN","boot":"\#(boot)","seq":42,"id":1,"text":"a\"b"}"#
        let e = try #require(EventEnvelope.parse(line))
        #expect(e.eventClass == "SCAN")
        #expect(e.position == EventPosition(boot: boot, seq: 42))
        #expect(!e.replayed)
        #expect(e.liveLine == line)
    }

    @Test func aReplayedLineIsForwardedAsItWasPublishedLive() throws {
        let live = #"{"class":"LOST","boot":"\#(boot)","seq":7,"id":1}"#
        let replayed = EventEnvelope.markingReplayed(live)
        #expect(replayed == #"{"class":"LOST","boot":"\#(boot)","seq":7,"id":1,"replayed":true}"#)
        let e = try #require(EventEnvelope.parse(replayed))
        #expect(e.replayed)
        #expect(e.liveLine == live)
    }

    @Test func linesOfAnOlderDaemonHaveAClassAndNoPosition() throws {
        let e = try #require(EventEnvelope.parse(#"{"class":"SCAN","id":1,"device":"/dev/video0"}"#))
        #expect(e.eventClass == "SCAN")
        #expect(e.position == nil)
        let version = try #require(EventEnvelope.parse(#"{"class":"VERSION","boot":"\#(boot)","release":"0.1.0"}"#))
        #expect(version.boot == boot && version.seq == nil)
    }

    @Test(arguments: ["", "nonsense", "[1]", #"{"id":1,"class":"SCAN"}"#, #"{"class":"scan"}"#, #"{"class":""}"#])
    func refusesWhatIsNoEvent(_ line: String) {
        #expect(EventEnvelope.parse(line) == nil)
    }

    @Test(arguments: [
        #""boot":"0123","seq":1"#, #""boot":"\#(String(repeating: "A", count: 32))","seq":1"#,
        #""boot":"0123456789abcdef0123456789abcdef","seq":0"#, #""boot":"0123456789abcdef0123456789abcdef","seq":-3"#
    ])
    func aMalformedPositionIsNone(_ fields: String) throws {
        let e = try #require(EventEnvelope.parse(#"{"class":"SCAN",\#(fields),"id":1}"#))
        #expect(e.position == nil)
    }

    @Test func positionsRoundTripAndOnlyThatShape() {
        let p = EventPosition(boot: boot, seq: 123_456_789_012)
        #expect(EventPosition.parse(json: p.json) == p)
        #expect(EventPosition.parse(json: " { \"boot\" : \"\(boot)\" , \"seq\" : 5 }\n") == EventPosition(boot: boot, seq: 5))
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":5,"x":1}"#) == nil)
        #expect(EventPosition.parse(json: #"{"seq":5,"boot":"\#(boot)"}"#) == nil)
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":99999999999999999999}"#) == nil)
        #expect(EventPosition.parse(json: "") == nil)
    }

    @Test func bootIDsAreThirtyTwoLowercaseHexDigits() {
        var rng = SystemRandomNumberGenerator()
        let a = EventPosition.randomBootID(using: &rng)
        let b = EventPosition.randomBootID(using: &rng)
        #expect(EventPosition.isBootID(a) && EventPosition.isBootID(b))
        #expect(a != b)
    }

    @Test func utcTimesAsScandWritesThem() {
        #expect(UTCTime.iso8601(0) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime.iso8601(1_795_352_075.578) == "2026-11-22T12:54:35.578Z")
        #expect(UTCTime.iso8601(951_782_400) == "2000-02-29T00:00:00.000Z")
        #expect(UTCTime.iso8601(-1) == "1969-12-31T23:59:59.000Z")
    }
}
