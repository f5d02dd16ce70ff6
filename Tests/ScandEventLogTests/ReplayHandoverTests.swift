import ScandTestSupport
import Testing
import ScandCore
import ScandProtocol

@testable import ScandEventLog

/// A daemon in miniature: a journal (an array, pruned at its head), events journaled then published, and
/// one client whose replay reads the journal in batches at moments chosen by a seeded generator; a client of
/// some classes reads only those from the journal, and takes only those of what is sent (as SubscriberReplay).
struct MiniDaemon {
    let boot = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    var journal: [JournaledEvent] = []
    var seq = 0
    var handover: ReplayHandover?
    var pendingRead: Int?
    var received: [String] = []
    var errors: [String] = []
    var batchLimit = 4
    /// The client's classes; nil: all.
    var classes: Set<String>?

    /// Every third event a LOST, the others SCANs.
    static func eventClass(_ seq: Int) -> String { seq % 3 == 0 ? "LOST" : "SCAN" }

    static func line(_ seq: Int, _ boot: String) -> String {
        let text = eventClass(seq) == "SCAN" ? #","text":"t""# : ""
        return #"{"class":"\#(eventClass(seq))","boot":"\#(boot)","seq":\#(seq),"id":\#(seq),"format":"QRCode"\#(text)}"#
    }

    var span: JournalSpan? {
        guard let f = journal.first, let l = journal.last else { return nil }
        return JournalSpan(first: f.seq, last: l.seq, oldestTime: f.time)
    }

    /// Publishes one event; `journaled: false` is an append that failed (disk full): published all the same.
    mutating func publish(journaled: Bool = true) {
        seq += 1
        let line = Self.line(seq, boot)
        if journaled { journal.append(JournaledEvent(seq: seq, boot: boot, eventClass: Self.eventClass(seq), time: Double(seq), line: line)) }
        if var h = handover {
            apply(h.live(seq: seq, line: line, journaled: journaled))
            handover = h
        }
    }

    mutating func subscribe(since: EventPosition, queueLimit: Int = 1024) {
        let journal = self.journal
        let (h, actions) = ReplayHandover.start(since: since, span: span, batchLimit: batchLimit, queueLimit: queueLimit) { seq in
            journal.first { $0.seq == seq }?.boot
        }
        handover = h
        apply(actions)
    }

    mutating func performRead() {
        guard let after = pendingRead, var h = handover else { return }
        pendingRead = nil
        let batch = Array(journal.filter { $0.seq > after && classes?.contains($0.eventClass) != false }.prefix(batchLimit))
        apply(h.journaled(batch))
        handover = h
    }

    mutating func apply(_ actions: [ReplayHandover.Action]) {
        for a in actions {
            switch a {
            case .error(let m): errors.append(m)
            case .read(let after): pendingRead = after
            case .send(let line):
                if let classes, let read = ReceivedEvent(reading: line), !classes.contains(read.eventClass.rawValue) { continue }
                received.append(line)
            case .goLive: pendingRead = nil
            }
        }
    }

    func receivedSeqs() -> [Int] { received.compactMap { ReceivedEvent(reading: $0)?.position?.seq } }

    /// A seeded run: events, a client subscribing `since` one of them, reads and new events (one in ten not
    /// journaled) interleaved until it is live, then a few live events. Returns the since, nil when the
    /// client never went live.
    mutating func replay(_ random: inout SeededRandom) -> Int? {
        batchLimit = 1 + random.below(6)
        for _ in 0..<(5 + random.below(30)) { publish() }
        let since = 1 + random.below(seq)
        subscribe(since: EventPosition(boot: boot, seq: since), queueLimit: 1 + random.below(8))
        var steps = 0
        while handover?.isLive == false {
            if random.below(3) == 0 { publish(journaled: random.below(10) != 0) } else { performRead() }
            steps += 1
            if steps >= 10_000 { return nil }
        }
        for _ in 0..<random.below(5) { publish() }
        return since
    }
}

@Suite struct ReplayHandoverTests {
    @Test(arguments: 0..<40)
    func liveEventsDuringTheReplayMakeNoGapAndNoDuplicate(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var d = MiniDaemon()
        guard let since = d.replay(&random) else {
            Issue.record("the client never went live")
            return
        }
        #expect(d.errors.isEmpty)
        #expect(d.receivedSeqs() == Array((since + 1)..<(d.seq + 1)))
        let replayed = d.received.filter { ReceivedEvent(reading: $0)?.stamp?.replayed == true }.compactMap {
            ReceivedEvent(reading: $0)?.position?.seq
        }
        #expect(replayed.allSatisfy { $0 <= (d.journal.last?.seq ?? 0) })
    }

    /// A client of some classes reads only those from the journal: batches full of them, whatever lies
    /// between, and still no gap and no duplicate among them.
    @Test(arguments: 0..<40)
    func aReplayOfSomeClassesMakesNoGapAndNoDuplicate(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var d = MiniDaemon()
        d.classes = random.below(2) == 0 ? ["LOST"] : ["SCAN"]
        guard let since = d.replay(&random) else {
            Issue.record("the client never went live")
            return
        }
        #expect(d.errors.isEmpty)
        let wanted = ((since + 1)..<(d.seq + 1)).filter { d.classes?.contains(MiniDaemon.eventClass($0)) == true }
        #expect(d.receivedSeqs() == wanted, "\(d.classes ?? [])")
    }

    @Test func aSinceAtTheNewestEventGoesLiveWithNothingReplayed() {
        var d = MiniDaemon()
        for _ in 0..<3 { d.publish() }
        d.subscribe(since: EventPosition(boot: d.boot, seq: 3))
        d.performRead()
        #expect(d.handover?.isLive == true)
        d.publish()
        #expect(d.received == [MiniDaemon.line(4, d.boot)])
    }

    @Test func aPrunedSinceGetsAnErrorSayingWhatIsKeptThenAllOfIt() {
        var d = MiniDaemon()
        for _ in 0..<10 { d.publish() }
        d.journal.removeFirst(6)  // keeps 7…10
        d.subscribe(since: EventPosition(boot: d.boot, seq: 3))
        while d.pendingRead != nil { d.performRead() }
        #expect(d.errors.count == 1)
        #expect(d.errors[0].contains("journal keeps seq 7…10 since 1970-01-01T00:00:07.000Z"))
        #expect(d.errors[0].contains("pruned"))
        #expect(d.receivedSeqs() == [7, 8, 9, 10])
    }

    /// Issue 48: a since into a journal replaced while the daemon ran was answered "older events were pruned".
    @Test func aSinceFromBeforeAReplacedJournalIsSaidToBeFromAnother() {
        let boot = "0123456789abcdef0123456789abcdef"
        let span = JournalSpan(first: 11, last: 14, oldestTime: 0)
        let (_, before) = ReplayHandover.start(since: EventPosition(boot: boot, seq: 5), span: span, journalBase: 10) { _ in nil }
        guard case .error(let replaced)? = before.first else {
            Issue.record("\(before)")
            return
        }
        #expect(replaced.contains("this journal was started after seq 10") && !replaced.contains("pruned"), "\(replaced)")
        let pruned = JournalSpan(first: 13, last: 14, oldestTime: 0)
        let (_, after) = ReplayHandover.start(since: EventPosition(boot: boot, seq: 11), span: pruned, journalBase: 10) { _ in nil }
        guard case .error(let message)? = after.first else {
            Issue.record("\(after)")
            return
        }
        #expect(message.contains("older events were pruned"), "\(message)")
    }

    @Test func theEventJustBeforeTheJournalIsNoGap() {
        var d = MiniDaemon()
        for _ in 0..<10 { d.publish() }
        d.journal.removeFirst(6)
        d.subscribe(since: EventPosition(boot: d.boot, seq: 6))
        while d.pendingRead != nil { d.performRead() }
        #expect(d.errors.isEmpty)
        #expect(d.receivedSeqs() == [7, 8, 9, 10])
    }

    @Test func aSinceFromAnotherJournalGetsEverythingKept() {
        var d = MiniDaemon()
        for _ in 0..<4 { d.publish() }
        d.subscribe(since: EventPosition(boot: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", seq: 2))
        while d.pendingRead != nil { d.performRead() }
        #expect(d.errors.count == 1 && d.errors[0].contains("not from this journal"))
        #expect(d.receivedSeqs() == [1, 2, 3, 4])
        var e = MiniDaemon()
        for _ in 0..<4 { e.publish() }
        e.subscribe(since: EventPosition(boot: e.boot, seq: 9))  // ahead of the journal: another one's numbering
        while e.pendingRead != nil { e.performRead() }
        #expect(e.errors.count == 1)
        #expect(e.receivedSeqs() == [1, 2, 3, 4])
    }

    /// Issue 31: `since.seq + 1` trapped on a seq near Int.max and stopped the daemon. The decoders refuse such a
    /// seq; the handover itself does no arithmetic that could trap on the highest seq a position may carry.
    @Test func theHighestSeqAPositionMayCarryIsAnErrorAndAReplay() {
        for boot in ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"] {
            for seq in [EventPosition.maxSeq, Int.max] {
                var d = MiniDaemon()
                for _ in 0..<4 { d.publish() }
                d.subscribe(since: EventPosition(boot: boot, seq: seq))
                while d.pendingRead != nil { d.performRead() }
                #expect(d.errors.count == 1 && d.errors[0].contains("not from this journal"), "\(d.errors)")
                #expect(d.receivedSeqs() == [1, 2, 3, 4])
            }
        }
    }

    @Test func anEmptyJournalSaysSoAndGoesLive() {
        var d = MiniDaemon()
        d.subscribe(since: EventPosition(boot: d.boot, seq: 5))
        #expect(d.errors.count == 1 && d.errors[0].contains("empty"))
        #expect(d.handover?.isLive == true)
        d.publish()
        d.publish()
        #expect(d.receivedSeqs() == [1, 2])
    }

    @Test func aJournalFailingInTheReplaySendsWhatIsQueuedAndGoesLive() {
        var d = MiniDaemon()
        for _ in 0..<5 { d.publish() }
        d.subscribe(since: EventPosition(boot: d.boot, seq: 1))
        d.performRead()  // 2…5
        d.publish()  // 6, queued: the replay has not seen the journal's end yet
        var h = d.handover!
        d.apply(h.journalFailed("disk I/O error"))
        d.handover = h
        d.publish()
        #expect(d.errors == ["the replay stopped: disk I/O error; live events follow"])
        #expect(d.receivedSeqs() == [2, 3, 4, 5, 6, 7])
    }

    @Test func replayedLinesAreMarkedAndLiveOnesNot() {
        var e = MiniDaemon()
        e.publish()
        e.publish()
        e.subscribe(since: EventPosition(boot: e.boot, seq: 1))
        e.performRead()
        e.publish()
        #expect(e.received == [EventEncoder.markingReplayed(MiniDaemon.line(2, e.boot)), MiniDaemon.line(3, e.boot)])
    }
}
