import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandWeb

/// The hand-over from the journal to the relay: every event once, in order, whatever the order in which
/// the two deliver them.
@Suite struct EventHandoverTests {
    static let boot = "5f0c9a7e31d24b6c8e1f02a9d4b7c3e6"
    static let newBoot = "0123456789abcdef0123456789abcdef"
    let scans = ClientRequest.Watch(enable: true, classes: [.scan])

    /// A SCAN (or UPDATE) line numbered `seq`, replayed or live, as the daemon's encoder writes it.
    static func line(_ seq: Int, _ eventClass: Event.Class = .scan, replayed: Bool = false, boot: String = boot) -> ReceivedEvent {
        let code = SampleCode.tracked(seq, text: "t\(seq)")
        let line = EventEncoder.line(eventClass == .update ? .update(code) : .scan(code), stamp: EventStamp(boot: boot, seq: seq))
        return try! EventDecoder.decode(replayed ? EventEncoder.markingReplayed(line) : line)
    }

    static func position(_ seq: Int, boot: String = boot) -> EventPosition { EventPosition(boot: boot, seq: seq) }

    @Test func withoutSinceOrUpToDateTheRelayServesAtOnce() {
        var fresh = EventHandover(watch: scans, since: nil, relayed: Self.position(10))
        #expect(fresh.phase == .live)
        #expect(fresh.relayed(Self.line(11))?.position?.seq == 11)
        // A reload: the page saw 10, the relay's newest; 9 and 10 again are skipped, 11 is new.
        var reload = EventHandover(watch: scans, since: Self.position(10), relayed: Self.position(10))
        #expect(reload.phase == .live)
        #expect(reload.relayed(Self.line(10)) == nil)
        #expect(reload.relayed(Self.line(11))?.position?.seq == 11)
    }

    @Test func behindItCatchesUpUntilTheRelaysNewestThenTakesTheRelayWithoutRepeats() {
        var h = EventHandover(watch: scans, since: Self.position(3), relayed: Self.position(6))
        #expect(h.phase == .catchingUp(until: Self.position(6)))
        #expect(h.relayed(Self.line(7)) == nil, "the relay's lines wait while catching up")
        var sent: [Int] = []
        for seq in 4...6 {
            if let e = h.caughtUp(Self.line(seq, seq == 5 ? .update : .scan, replayed: true)) { sent.append(e.position!.seq) }
            #expect(h.phase == (seq < 6 ? .catchingUp(until: Self.position(6)) : .live))
        }
        // The relay's queue from the subscription on: 5…8 (5, 6 were sent by the catch-up or filtered).
        for seq in 5...8 { if let e = h.relayed(Self.line(seq)) { sent.append(e.position!.seq) } }
        #expect(sent == [4, 6, 7, 8], "the UPDATE 5 is filtered; none twice")
        #expect(h.caughtUp(Self.line(9)) == nil, "after the switch the catch-up is done with")
    }

    @Test func aLiveLineEndsTheCatchUpWhenTheRelayHadNothing() {
        var h = EventHandover(watch: scans, since: Self.position(3), relayed: nil)
        #expect(h.phase == .catchingUp(until: nil))
        #expect(h.caughtUp(Self.line(4, replayed: true))?.position?.seq == 4)
        #expect(h.phase != .live)
        #expect(h.caughtUp(Self.line(5))?.position?.seq == 5)
        #expect(h.phase == .live)
        #expect(h.relayed(Self.line(5)) == nil)
        #expect(h.relayed(Self.line(6))?.position?.seq == 6)
    }

    @Test func aPositionOfAnotherBootIsCaughtUpAndTheDaemonsErrorPassesOn() {
        var h = EventHandover(watch: scans, since: Self.position(50, boot: Self.newBoot), relayed: Self.position(6))
        #expect(h.phase == .catchingUp(until: Self.position(6)))
        let error = try! EventDecoder.decode(Event.error("since … is not in the journal, the journal keeps seq 1…6").line)
        #expect(h.caughtUp(error) == error)
        #expect(h.caughtUp(try! EventDecoder.decode(Event.watch(scans).line)) == nil)
        for seq in 1...5 { #expect(h.caughtUp(Self.line(seq, replayed: true))?.position?.seq == seq) }
        #expect(h.caughtUp(Self.line(6, replayed: true)) != nil)
        #expect(h.phase == .live)
        // The daemon restarts with a new boot: its events pass, whatever their seq.
        #expect(h.relayed(Self.line(7, boot: Self.newBoot))?.position?.seq == 7)
        #expect(h.relayed(Self.line(7, boot: Self.newBoot)) == nil)
    }

    @Test func aPositionAheadOfTheRelayIsCaughtUpFromTheDaemon() {
        // Ahead of all the relay passed on: the daemon judges it (an ERROR and a replay of what it holds,
        // when it is ahead of its journal too); the relay's events up to it were never sent.
        var h = EventHandover(watch: scans, since: Self.position(100_006), relayed: Self.position(6))
        #expect(h.phase == .catchingUp(until: Self.position(6)))
        let error = try! EventDecoder.decode(Event.error("since … is not in the journal: the journal keeps seq 1…6").line)
        #expect(h.caughtUp(error) == error)
        for seq in 1...6 { #expect(h.caughtUp(Self.line(seq, replayed: true))?.position?.seq == seq) }
        #expect(h.phase == .live)
        #expect(h.relayed(Self.line(6)) == nil)
        #expect(h.relayed(Self.line(7))?.position?.seq == 7)
    }

    @Test func formatsFilterAsTheDaemonDoes() throws {
        var h = EventHandover(
            watch: ClientRequest.Watch(enable: true, classes: [.scan], formats: try BarcodeFormats.parse("ean13")), since: nil, relayed: nil)
        #expect(h.relayed(Self.line(1)) == nil, "a QRCode")
    }
}
