import Testing

@testable import ScandProtocol

/// Positions as clients keep them (state files) and read them, boot ids, and times as scand writes them.
@Suite struct EventPositionTests {
    let boot = "0123456789abcdef0123456789abcdef"

    @Test func positionsRoundTripAndOnlyThatShape() {
        let p = EventPosition(boot: boot, seq: 123_456_789_012)
        #expect(EventPosition.parse(json: p.json) == p)
        #expect(EventPosition.parse(json: " { \"boot\" : \"\(boot)\" , \"seq\" : 5 }\n") == EventPosition(boot: boot, seq: 5))
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":5,"x":1}"#) == nil)
        #expect(EventPosition.parse(json: #"{"seq":5,"boot":"\#(boot)"}"#) == EventPosition(boot: boot, seq: 5), "a JSON object's keys have no order")
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)"}"#) == nil)
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":0}"#) == nil)
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot.uppercased())","seq":5}"#) == nil)
        #expect(EventPosition.parse(json: #"{"boot":"\#(boot)","seq":"5"}"#) == nil)
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
