import Foundation
import ScandCore
import ScandProtocol
import Testing

@testable import ScandWeb

/// What a setup page is told first when it opens: the codes in view and the last scans (issue 46, item 10:
/// a page opened while a code was in view showed nothing until something changed).
@Suite struct PageViewTests {
    static func scan(_ id: Int, _ text: String, replayed: Bool = false) -> String {
        #"{"class":"SCAN","id":\#(id),"format":"QRCode","text":"\#(text)","normalized":[[0.1,0.1],[0.2,0.1],[0.2,0.2],[0.1,0.2]]"#
            + (replayed ? #","boot":"0123456789abcdef0123456789abcdef","seq":\#(id),"replayed":true}"# : "}")
    }
    static func update(_ id: Int) -> String {
        #"{"class":"UPDATE","id":\#(id),"format":"QRCode","normalized":[[0.3,0.1],[0.4,0.1],[0.4,0.2],[0.3,0.2]]}"#
    }
    static func lost(_ id: Int) -> String { #"{"class":"LOST","id":\#(id),"format":"QRCode"}"# }

    static func view(_ lines: [String]) throws -> PageView {
        var view = PageView()
        for line in lines { view.take(try EventDecoder.decode(line)) }
        return view
    }

    @Test func nothingSeenIsNoLine() throws {
        #expect(try Self.view([]).line == nil)
    }

    @Test func codesInViewWithTheirNewestCornersAndScansOldestFirst() throws {
        let view = try Self.view([Self.scan(1, "a"), Self.scan(2, "b"), Self.update(1), Self.lost(2)])
        #expect(view.line == #"{"class":"VIEW","scans":["# + Self.scan(1, "a") + "," + Self.scan(2, "b") + #"],"inView":["# + Self.update(1) + "]}")
    }

    @Test func aCameraThatStopsStreamingShowsNoCodes() throws {
        let device = #"{"class":"DEVICE","path":"/dev/video0","state":"waiting","message":"unplugged"}"#
        let view = try Self.view([Self.scan(1, "a"), device])
        #expect(view.line == #"{"class":"VIEW","scans":["# + Self.scan(1, "a") + #"],"inView":[]}"#)
    }

    /// A replayed scan (scand web's start, a daemon restart) counts as published live: listed, and in view
    /// until its LOST.
    @Test func theLastTenScansAreKeptAndAReplayedOneAsPublishedLive() throws {
        let view = try Self.view((1...12).map { Self.scan($0, "s\($0)") } + (1...12).map(Self.lost) + [Self.scan(13, "r", replayed: true)])
        let live = Self.scan(13, "r", replayed: true).replacingOccurrences(of: #","replayed":true"#, with: "")
        let expected = (4...12).map { Self.scan($0, "s\($0)") } + [live]
        #expect(view.line == #"{"class":"VIEW","scans":["# + expected.joined(separator: ",") + #"],"inView":["# + live + "]}")
    }

    /// scand web's first subscription takes the journal's last events again, for this view.
    @Test func theRelayStartsWithTheJournalsLastEvents() {
        let on = #"{"class":"STATUS","journal":{"state":"on","boot":"b1","first":5,"last":900,"events":896}}"#
        #expect(EventRelay.start(status: on) == EventPosition(boot: "b1", seq: 700))
        let short = #"{"class":"STATUS","journal":{"state":"on","boot":"b1","first":5,"last":30,"events":26}}"#
        #expect(EventRelay.start(status: short) == EventPosition(boot: "b1", seq: 5))
        #expect(EventRelay.start(status: #"{"class":"STATUS","journal":{"state":"on","boot":"b1","events":0}}"#) == nil)
        #expect(EventRelay.start(status: #"{"class":"STATUS","journal":{"state":"off","boot":"b1","reason":"x"}}"#) == nil)
        #expect(EventRelay.start(status: nil) == nil)
    }
}
