import Foundation
import NIOConcurrencyHelpers
import ScandJournal
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandEventLog

/// Issue 31, 8: SQLite drops a damaged write-ahead log from its first bad frame, silently. The daemon keeps the
/// last seq it published outside SQLite, numbers on after it and says which events the journal lost.
@Suite(.serialized) struct PublishedSeqTests: EventLogKeepingLines {
    let dir = ScandBinary.temporaryDirectory()
    let logged = NIOLockedValueBox<[String]>([])

    /// The files a daemon killed at this moment would leave: the database, then its WAL, copied while it runs.
    func crashImage(of from: String, to: String) throws {
        try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
        for name in [EventLog.fileName, EventLog.fileName + "-wal", PublishedSeqFile.fileName] {
            try FileManager.default.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
        }
    }

    @Test func aDamagedWALIsNoticedAndTheNumberingGoesOnAfterTheLastPublished() throws {
        let running = eventLog(dir + "/running")
        var published: [PublishedEvent] = []
        for i in 0..<99 { published += running.stamp(EventLogTests.scan(i), now: 1000) }
        let last = try #require(published.last?.seq)
        #expect(last == 99 && published.allSatisfy(\.journaled))
        try crashImage(of: dir + "/running", to: dir + "/crashed")
        // Part of the WAL overwritten, from a little past its middle: SQLite keeps the frames before.
        let wal = dir + "/crashed/" + EventLog.fileName + "-wal"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
        let fd = open(wal, O_WRONLY)
        try #require(fd >= 0)
        let junk = [UInt8](repeating: 0x5A, count: 8192)
        #expect(junk.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(size * 6 / 10)) } == 8192)
        close(fd)

        logged.withLockedValue { $0 = [] }
        let restarted = eventLog(dir + "/crashed")
        let kept = try restarted.journal.get().lastSeq()
        try #require(kept < 99, "the damage lost nothing: \(kept)")
        let lost = logged.withLockedValue { $0 }.filter { $0.contains("lost seq \(kept + 1)…99 (\(99 - kept) events") }
        #expect(lost.count == 1, "\(logged.withLockedValue { $0 })")
        let next = restarted.stamp(EventLogTests.scan(100), now: 1001)
        #expect(next.map(\.seq) == [100, 101], "a JOURNAL event saying so, then the numbering goes on after 99")
        guard case .journal(let notice) = next.first?.event else {
            Issue.record("\(next.map(\.line))")
            return
        }
        #expect(notice.notJournaled == JournalGap(first: kept + 1, last: 99) && notice.message.contains("lost seq"))
        if case .on(_, _, _, let gap) = restarted.status {
            #expect(gap == JournalGap(first: kept + 1, last: 99))
        } else {
            Issue.record("journal off")
        }
    }

    @Test func aCleanRestartSaysNothingAndNumbersOn() throws {
        do {
            let first = eventLog(dir + "/clean")
            for i in 0..<5 { _ = first.stamp(EventLogTests.scan(i), now: 1000) }
        }
        logged.withLockedValue { $0 = [] }
        let again = eventLog(dir + "/clean")
        #expect(again.stamp(EventLogTests.scan(5), now: 1001).map(\.seq) == [6])
        #expect(logged.withLockedValue { $0 }.isEmpty)
    }

    @Test func theFileIsReadWithItsRangeChecked() throws {
        #expect(try PublishedSeqFile.parse([]).get() == 0)
        #expect(try PublishedSeqFile.parse(PublishedSeqFile.record(42)).get() == 42)
        #expect(try PublishedSeqFile.parse(PublishedSeqFile.record(EventJournal.maxResumeSeq)).get() == EventJournal.maxResumeSeq)
        for bad in ["99999999999999999999\n", "9223372036854775807\n", "-1\n", "12", "x\n", String(repeating: "1", count: 30) + "\n"] {
            #expect((try? PublishedSeqFile.parse(Array(bad.utf8)).get()) == nil, "\(bad)")
        }
    }
}
