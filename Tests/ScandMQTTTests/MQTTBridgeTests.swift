import ScandCore
import ScandProtocol
import Testing

@testable import ScandMQTT

@Suite struct MQTTBridgeTests {
    static let boot = "0123456789abcdef0123456789abcdef"
    static func line(_ seq: Int, _ eventClass: String = "SCAN") -> String {
        #"{"class":"\#(eventClass)","boot":"\#(boot)","seq":\#(seq),"id":\#(seq),"format":"QRCode","text":"t\#(seq)"}"#
    }

    /// `text` as the daemon's client reads it.
    static func received(_ text: String) -> ReceivedEvent {
        do { return try EventDecoder.decode(text) } catch {
            Issue.record("\(error): \(text)")
            return ReceivedEvent(eventClass: .error, stamp: nil, event: nil, line: text)
        }
    }

    /// A bridge with the daemon's socket and the broker both connected.
    static func connected(maxInFlight: Int = 1000, acknowledged: EventPosition? = nil) -> MQTTBridge {
        var b = MQTTBridge(kioskID: "k", maxInFlight: maxInFlight, release: "0", acknowledged: acknowledged)
        _ = b.handle(.daemonConnected)
        _ = b.handle(.brokerConnected)
        return b
    }

    /// Publishes every `publish` action as the next message id and returns those ids by ticket.
    static func publishAll(_ actions: [MQTTBridge.Action], _ bridge: inout MQTTBridge, nextMid: inout Int32) -> [Int32] {
        var mids: [Int32] = []
        for case .publish(let ticket, _, _) in actions {
            _ = bridge.handle(.published(ticket: ticket, mid: nextMid))
            mids.append(nextMid)
            nextMid += 1
        }
        return mids
    }

    @Test func aNewBridgeWritesDownAndAsksForTheWholeJournalAndAResumedOneSinceItsPosition() {
        var fresh = MQTTBridge(kioskID: "till-1", release: "0.1.0", acknowledged: nil)
        let start = MQTTBridge.journalStart
        #expect(fresh.start() == [.persist(start), .subscribe(.init(enable: true, since: start))])
        var resumed = MQTTBridge(kioskID: "till-1", release: "0.1.0", acknowledged: EventPosition(boot: Self.boot, seq: 41))
        #expect(resumed.start() == [.subscribe(.init(enable: true, since: EventPosition(boot: Self.boot, seq: 41)))])
        var now = MQTTBridge(kioskID: "till-1", release: "0.1.0", acknowledged: nil, start: .now)
        #expect(now.start() == [.subscribe(.init(enable: true))])
    }

    @Test func theJournalsAnswerToANewBridgeIsExpectedAndEverythingItReplaysIsTaken() {
        var b = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil)
        _ = b.start()
        _ = b.handle(.daemonConnected)
        let error = b.handle(
            .line(
                Self.received(
                    #"{"class":"ERROR","message":"since … is not in the journal (it is not from this journal): the journal keeps seq 1…3 since x; replaying all of those"}"#
                )))
        guard case .log(let text)? = error.first else { Issue.record("\(error)"); return }
        #expect(text == "publishing everything the daemon's journal keeps, then live events (the journal keeps seq 1…3 since x)")
        for seq in 1...3 { #expect(b.handle(.line(Self.received(Self.line(seq)))).count == 1, "seq \(seq) taken") }
        #expect(b.received?.seq == 3)
    }

    /// A daemon without a journal cannot answer the journal's start: said in words, without the made-up
    /// position, and without a second warning for the unnumbered events that follow (issue 46, item 6).
    @Test func aDaemonWithoutAJournalIsSaidOnceWithoutTheMadeUpPosition() {
        var b = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil)
        _ = b.start()
        _ = b.handle(.daemonConnected)
        let since = MQTTBridge.journalStart.json.replacingOccurrences(of: "\"", with: "\\\"")
        let error = b.handle(
            .line(
                Self.received(
                    #"{"class":"ERROR","message":"since \#(since) cannot be answered: the event journal is off (disk full); live events follow"}"#
                )))
        #expect(
            error == [
                .log(
                    "the daemon keeps no journal to publish from (the event journal is off (disk full)): publishing live events only; what is scanned while the bridge or the broker is away is not sent again"
                )
            ])
        let live = b.handle(.line(Self.received(#"{"class":"SCAN","id":1,"format":"QRCode","text":"x"}"#)))
        #expect(!live.contains { if case .log = $0 { true } else { false } }, "\(live)")
        #expect(live.contains { if case .publish = $0 { true } else { false } }, "\(live)")
    }

    @Test func aBridgeStartedNowWritesDownWhereItBeganAtItsFirstEvent() {
        var b = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil, start: .now)
        _ = b.start()
        _ = b.handle(.daemonConnected)
        let first = b.handle(.line(Self.received(Self.line(8))))
        #expect(first.first == .persist(EventPosition(boot: Self.boot, seq: 7)))
        #expect(b.handle(.line(Self.received(Self.line(9)))).count == 1, "only once")
        // Stopped before any PUBACK: the next start asks since the event before the first one taken.
        var next = MQTTBridge(kioskID: "k", release: "0", acknowledged: b.acknowledged, start: .now)
        #expect(next.start() == [.subscribe(.init(enable: true, since: EventPosition(boot: Self.boot, seq: 7)))])
    }

    /// The daemon's answer to a live WATCH, with the position the subscription starts after.
    static func answer(since seq: Int?) -> ReceivedEvent {
        received(Event.watch(.init(enable: true, since: seq.map { EventPosition(boot: boot, seq: $0) })).line)
    }

    /// Before any event, a bridge started `now` holds where its subscription started (the daemon's answer):
    /// a restart of the process, or a new subscription, resumes there. It held nothing and resumed live,
    /// losing what the daemon scanned meanwhile.
    @Test func aBridgeStartedNowHoldsWhereItsSubscriptionStartedBeforeAnyEvent() {
        var b = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil, start: .now)
        #expect(b.start() == [.subscribe(.init(enable: true))])
        _ = b.handle(.daemonConnected)
        let start = EventPosition(boot: Self.boot, seq: 7)
        #expect(b.handle(.line(Self.answer(since: 7))) == [.persist(start)], "nothing to forward up to it: acknowledged")
        #expect(b.acknowledged == start)
        var restarted = MQTTBridge(kioskID: "k", release: "0", acknowledged: b.acknowledged, start: .now)
        #expect(restarted.start() == [.subscribe(.init(enable: true, since: start))])
        #expect(b.watch == .init(enable: true, since: start), "a subscription made again resumes there too")
        _ = b.handle(.daemonConnected)
        #expect(b.handle(.line(Self.answer(since: 7))).isEmpty, "the answer to a since: nothing new")
        #expect(b.handle(.line(Self.received(Self.line(8)))) == [.publish(ticket: 1, topic: "scand/k/events/scan", payload: Self.line(8))])
        #expect(b.acknowledged == start, "seq 8 waits for its PUBACK")
    }

    /// A position held is never moved by an answer: not past events taken and not yet acknowledged, nor back
    /// before an event that came ahead of the answer.
    @Test func anAnswerNeverMovesAPositionTheBridgeHolds() {
        var resumed = MQTTBridge(kioskID: "k", release: "0", acknowledged: EventPosition(boot: Self.boot, seq: 3), start: .now)
        _ = resumed.start()
        _ = resumed.handle(.daemonConnected)
        #expect(resumed.handle(.line(Self.answer(since: 3))).isEmpty)
        for seq in 4...5 { #expect(resumed.handle(.line(Self.received(Self.line(seq)))).count == 1) }
        #expect(resumed.handle(.line(Self.answer(since: 9))).isEmpty)
        #expect(resumed.acknowledged?.seq == 3 && resumed.received?.seq == 5)
        var early = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil, start: .now)
        _ = early.start()
        _ = early.handle(.daemonConnected)
        #expect(early.handle(.line(Self.received(Self.line(8)))).first == .persist(EventPosition(boot: Self.boot, seq: 7)))
        #expect(early.handle(.line(Self.answer(since: 6))).isEmpty)
        #expect(early.acknowledged?.seq == 7 && early.received?.seq == 8)
        var all = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil)
        _ = all.start()
        #expect(all.handle(.line(Self.received(Event.watch(all.watch).line))).isEmpty, "the whole journal asked for: kept")
        #expect(all.acknowledged == MQTTBridge.journalStart)
        var empty = MQTTBridge(kioskID: "k", release: "0", acknowledged: nil, start: .now)
        _ = empty.start()
        #expect(empty.handle(.line(Self.answer(since: nil))).isEmpty, "a daemon with nothing numbered yet")
        #expect(empty.acknowledged == nil)
    }

    @Test func publishesEventsUnderTheKioskTopicsAndAnnouncesItselfOnline() {
        var b = MQTTBridge(kioskID: "till-1", release: "0.1.0", acknowledged: EventPosition(boot: Self.boot, seq: 1))
        _ = b.handle(.daemonConnected)
        #expect(
            b.handle(
                .line(Self.received(#"{"class":"VERSION","boot":"\#(Self.boot)","release":"0.1.0","proto_major":1,"proto_minor":4,"zxing":"3.1.1"}"#))
            ).isEmpty)
        #expect(b.handle(.line(Self.received(#"{"class":"WATCH","enable":true}"#))).isEmpty)
        // Before the broker is there too: the client keeps QoS 1 messages until it can send them.
        #expect(b.handle(.line(Self.received(Self.line(2)))) == [.publish(ticket: 1, topic: "scand/till-1/events/scan", payload: Self.line(2))])
        #expect(
            b.handle(.brokerConnected) == [
                .publishStatus(topic: "scand/till-1/status", payload: #"{"state":"online","kiosk":"till-1","release":"0.1.0"}"#),
                .publish(ticket: 1, topic: "scand/till-1/events/scan", payload: Self.line(2))
            ], "not taken by the client yet: handed over now")
        #expect(
            b.handle(.line(Self.received(Self.line(3, "LOST")))) == [
                .publish(ticket: 2, topic: "scand/till-1/events/lost", payload: Self.line(3, "LOST"))
            ])
        #expect(b.offlinePayload == #"{"state":"offline","kiosk":"till-1"}"#)
    }

    @Test func persistsOnlyWhatIsAcknowledgedWithEverythingBeforeIt() {
        var b = Self.connected()
        var mid: Int32 = 100
        var mids: [Int32] = []
        for seq in 1...4 { mids += Self.publishAll(b.handle(.line(Self.received(Self.line(seq)))), &b, nextMid: &mid) }
        #expect(b.handle(.acknowledged(mid: mids[1])).isEmpty)  // seq 2 before seq 1: nothing yet
        #expect(b.handle(.acknowledged(mid: mids[0])) == [.persist(EventPosition(boot: Self.boot, seq: 2))])
        #expect(b.handle(.acknowledged(mid: 9999)).isEmpty)  // not ours (the status message)
        #expect(b.handle(.acknowledged(mid: mids[3])).isEmpty)
        #expect(b.handle(.acknowledged(mid: mids[2])) == [.persist(EventPosition(boot: Self.boot, seq: 4))])
        #expect(b.inFlight == 0)
    }

    @Test func aFullWindowPausesTheSocketAndHalfOfItAcknowledgedResumes() {
        var b = Self.connected(maxInFlight: 4)
        var mid: Int32 = 1
        var mids: [Int32] = []
        for seq in 1...3 { mids += Self.publishAll(b.handle(.line(Self.received(Self.line(seq)))), &b, nextMid: &mid) }
        let fourth = b.handle(.line(Self.received(Self.line(4))))
        #expect(fourth.last == .pauseReading(inFlight: 4))
        mids += Self.publishAll(fourth, &b, nextMid: &mid)
        #expect(b.handle(.acknowledged(mid: mids[0])) == [.persist(EventPosition(boot: Self.boot, seq: 1))])
        #expect(b.handle(.acknowledged(mid: mids[1])) == [.persist(EventPosition(boot: Self.boot, seq: 2)), .resumeReading])
    }

    @Test func aDaemonRestartSubscribesAgainAndOverlapIsDropped() {
        var b = Self.connected()
        _ = b.handle(.line(Self.received(Self.line(1))))
        #expect(b.watch == .init(enable: true, since: EventPosition(boot: Self.boot, seq: 1)))
        _ = b.handle(.daemonConnected)
        #expect(b.handle(.line(Self.received(Self.line(1)))).isEmpty)  // a daemon that sent it again
        #expect(b.handle(.line(Self.received(Self.line(2)))).count == 1)
    }

    @Test func afterAnErrorTheNumberingMayStartOver() {
        var b = Self.connected(acknowledged: EventPosition(boot: Self.boot, seq: 50))
        let error = b.handle(
            .line(
                Self.received(
                    #"{"class":"ERROR","message":"since … is not in the journal: the journal keeps seq 1…3 since 2026-01-01T00:00:00.000Z"}"#)))
        #expect(error == [.log("scand: since … is not in the journal: the journal keeps seq 1…3 since 2026-01-01T00:00:00.000Z")])
        #expect(b.handle(.line(Self.received(Self.line(1)))).count == 1)
        #expect(b.handle(.line(Self.received(Self.line(1)))).isEmpty)
        #expect(b.received?.seq == 1)
    }

    @Test func whatTheClientTookIsNeverHandedOverTwiceOnlyWhatItRefused() {
        var b = Self.connected(acknowledged: EventPosition(boot: Self.boot, seq: 1))
        var mid: Int32 = 1
        let taken = Self.publishAll(b.handle(.line(Self.received(Self.line(2)))), &b, nextMid: &mid)
        let refused = b.handle(.line(Self.received(Self.line(3))))
        #expect(refused == [.publish(ticket: 2, topic: "scand/k/events/scan", payload: Self.line(3))])
        _ = b.handle(.publishFailed(ticket: 2))
        // Any number of reconnections: the client sends message 2 again itself; only the refused one comes back.
        for _ in 0..<50 {
            _ = b.handle(.brokerDisconnected)
            let back = b.handle(.brokerConnected)
            #expect(back.filter { if case .publish = $0 { true } else { false } } == refused)
        }
        let again = Self.publishAll(refused, &b, nextMid: &mid)
        #expect(b.handle(.brokerConnected).filter { if case .publish = $0 { true } else { false } }.isEmpty)
        #expect(b.handle(.acknowledged(mid: taken[0])) == [.persist(EventPosition(boot: Self.boot, seq: 2))])
        #expect(b.handle(.acknowledged(mid: again[0])) == [.persist(EventPosition(boot: Self.boot, seq: 3))])
        #expect(b.inFlight == 0)
    }

    @Test func anOnlineStatusNotYetAcknowledgedIsNotPublishedAgain() {
        var b = MQTTBridge(kioskID: "k", release: "0", acknowledged: EventPosition(boot: Self.boot, seq: 1))
        let status = MQTTBridge.Action.publishStatus(topic: "scand/k/status", payload: b.onlinePayload)
        #expect(b.handle(.brokerConnected) == [status])
        _ = b.handle(.statusPublished(mid: 7))
        for _ in 0..<50 {
            _ = b.handle(.brokerDisconnected)
            #expect(b.handle(.brokerConnected).isEmpty, "the client sends message 7 again itself")
        }
        #expect(b.handle(.acknowledged(mid: 7)).isEmpty)
        #expect(b.handle(.brokerConnected) == [status], "acknowledged: the next connection says online anew")
        _ = b.handle(.statusPublished(mid: nil))
        #expect(b.handle(.brokerConnected) == [status], "refused: tried again")
    }

    @Test func linesWithoutAPositionAreForwardedLiveWithOneWarning() {
        var b = Self.connected()
        let old = #"{"class":"SCAN","id":1,"format":"QRCode","text":"t"}"#
        let first = b.handle(.line(Self.received(old)))
        #expect(first.count == 2)
        guard case .log(let warning) = first[0] else { Issue.record("no warning"); return }
        #expect(warning.contains("no boot and seq"))
        #expect(b.handle(.line(Self.received(old))) == [.publish(ticket: 2, topic: "scand/k/events/scan", payload: old)])
        var mid: Int32 = 1
        let mids = Self.publishAll([first[1]], &b, nextMid: &mid)
        #expect(b.handle(.acknowledged(mid: mids[0])).isEmpty)  // nothing to persist
        #expect(b.received == MQTTBridge.journalStart, "nothing to resume from but the journal's start")
    }

    @Test func anAnswerThatIsNoEventIsNotPublished() {
        var b = Self.connected()
        #expect(
            b.handle(.line(Self.received(#"{"class":"ROI","roi":[0,0,1,1]}"#))) == [.log("ignoring a ROI line from the daemon, which is no event")])
        #expect(b.inFlight == 0)
    }
}
