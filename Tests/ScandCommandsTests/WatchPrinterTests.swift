import ScandClient
import ScandCore
import ScandProtocol
import Testing

@testable import ScandCommands

/// What `scand watch` prints, without a daemon: lines as the daemon writes them, through the one decoder.
struct WatchPrinterTests {
    static func line(_ text: String) throws -> SubscriptionLoop.Step { .event(try EventDecoder.decode(text)) }
    static let version =
        #"{"class":"VERSION","boot":"0123456789abcdef0123456789abcdef","release":"1.0","proto_major":1,"proto_minor":5,"zxing":"3.1.1"}"#
    static let watch = #"{"class":"WATCH","enable":true,"classes":["SCAN"]}"#
    static func scan(_ id: Int, _ text: String, seq: Int) -> String {
        #"{"class":"SCAN","boot":"0123456789abcdef0123456789abcdef","seq":\#(seq),"id":\#(id),"device":"/dev/video0","format":"EAN-13","text":"\#(text)"}"#
    }
    static let lost = #"{"class":"LOST","boot":"0123456789abcdef0123456789abcdef","seq":9,"id":1,"device":"/dev/video0","format":"EAN-13"}"#

    @Test func rawPrintsOnlyTheTextOfScansEscaped() throws {
        var p = WatchPrinter(output: .raw, classes: nil, count: nil)
        #expect(p.take(try Self.line(Self.version)) == [])
        #expect(p.take(try Self.line(Self.watch)) == [])
        #expect(p.take(try Self.line(Self.scan(1, #"4006381333931\u001b[2J"#, seq: 3))) == [.print(#"4006381333931\u001b[2J"#)])
        #expect(p.take(try Self.line(Self.lost)) == [])
    }

    @Test func jsonPrintsTheClassesAskedForAndEveryLineWhenNoneWere() throws {
        var asked = WatchPrinter(output: .json, classes: [.scan], count: nil)
        #expect(asked.take(try Self.line(Self.version)) == [])
        #expect(asked.take(try Self.line(Self.watch)) == [])
        #expect(asked.take(try Self.line(Self.scan(1, "a", seq: 1))) == [.print(Self.scan(1, "a", seq: 1))])
        var all = WatchPrinter(output: .json, classes: nil, count: nil)
        #expect(all.take(try Self.line(Self.version)) == [.print(Self.version)])
        #expect(all.take(try Self.line(Self.lost)) == [.print(Self.lost)])
    }

    @Test func countFinishesAfterTheNthScanAndOnlyScansCount() throws {
        var p = WatchPrinter(output: .raw, classes: nil, count: 2)
        #expect(p.take(try Self.line(Self.scan(1, "a", seq: 1))) == [.print("a")])
        #expect(p.take(try Self.line(Self.lost)) == [])
        #expect(p.take(try Self.line(Self.scan(2, "b", seq: 2))) == [.print("b"), .finished])
    }

    /// Losses are said as the loop's `OutageReport` decides (each cause once per outage), and a subscription
    /// only after a loss was said.
    @Test func errorsAndLossesAreWarnings() throws {
        var p = WatchPrinter(output: .raw, classes: nil, count: nil)
        let error = #"{"class":"ERROR","message":"since {\"boot\":\"x\",\"seq\":1} is not in the journal"}"#
        #expect(p.take(try Self.line(error)) == [.warn(#"scand: since {"boot":"x","seq":1} is not in the journal"#)])
        let gone = DaemonError.unreachable("scand is not running", .notRunning)
        #expect(p.take(.lost(gone, reason: gone.description)) == [.warn("scand is not running; trying again")])
        #expect(p.take(.lost(gone, reason: nil)) == [], "a cause said already")
        #expect(p.take(.subscribed(again: false, afterOutage: true)) == [.warn("scand answers: subscribed")], "the first is no 'again'")
        #expect(p.take(.subscribed(again: true, afterOutage: true)) == [.warn("subscribed again")])
        #expect(p.take(try Self.line(Self.watch)) == [])
    }

    /// A watcher that finds the daemon at once says nothing about subscribing.
    @Test func aFirstSubscriptionWithoutALossIsQuiet() throws {
        var p = WatchPrinter(output: .raw, classes: nil, count: nil)
        #expect(p.take(.subscribed(again: false, afterOutage: false)) == [])
        #expect(p.take(.subscribed(again: true, afterOutage: false)) == [])
    }

    @Test func execRunsForScansWithTheirText() throws {
        var p = WatchPrinter(output: .exec, classes: nil, count: nil)
        let line = try EventDecoder.decode(Self.scan(7, "x y", seq: 4))
        #expect(p.take(.event(line)) == [.run(ReceivedCode(id: 7, formatName: "EAN-13", text: "x y", device: "/dev/video0"), line)])
        let env = ScanHook.environment(for: line.code!, line: line)
        #expect(
            env["SCAND_TEXT"] == "x y" && env["SCAND_ID"] == "7" && env["SCAND_SEQ"] == "4" && env["SCAND_BOOT"] == "0123456789abcdef0123456789abcdef"
        )
        #expect(env["SCAND_FORMAT"] == "EAN-13" && env["SCAND_DEVICE"] == "/dev/video0" && env["SCAND_JSON"] == line.line)
    }
}
