import Foundation
import NIOConcurrencyHelpers
import ScandJournal
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandEventLog

/// Issue 48, 5: a published-seq within a few events of 2^53−1 was accepted, and the daemon numbered past
/// it; every client then refused those seqs. The daemon refuses a state file too near the end with one line
/// and never hands out a seq past 2^53−1.
@Suite(.serialized) struct NumberingRangeTests: EventLogKeepingLines {
    let dir = ScandBinary.temporaryDirectory()
    let logged = NIOLockedValueBox<[String]>([])

    func lines(_ containing: String) -> [String] { logged.withLockedValue { $0 }.filter { $0.contains(containing) } }

    @Test func aPublishedSeqNearTheEndIsRefusedWithOneLine() throws {
        let directory = dir + "/published"
        do {
            let first = eventLog(directory)
            for i in 0..<5 { _ = first.stamp(EventLogTests.scan(i), now: 1000) }
        }
        let path = directory + "/" + PublishedSeqFile.fileName
        #expect(FileManager.default.createFile(atPath: path, contents: Data(PublishedSeqFile.record(EventPosition.maxSeq - 3))))
        logged.withLockedValue { $0 = [] }
        let again = eventLog(directory)
        #expect(lines("too near 2^53−1").count == 1, "\(logged.withLockedValue { $0 })")
        #expect(lines("lost seq").isEmpty, "the seq refused is no loss")
        let seqs = (5..<10).flatMap { again.stamp(EventLogTests.scan($0), now: 1001).compactMap(\.seq) }
        #expect(seqs == [6, 7, 8, 9, 10])
        #expect(try PublishedSeqFile.parse(Array(FileManager.default.contents(atPath: path) ?? Data())).get() == 10)
    }

    @Test func aJournalNumberedNearTheEndIsSetAside() throws {
        let directory = dir + "/journal"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let journal = try EventJournal.open(path: directory + "/" + EventLog.fileName, limits: EventLogTests.limits)
            try journal.append(seq: EventPosition.maxSeq - 3, boot: EventPosition.randomBootID(), eventClass: "SCAN", line: "{}", at: 1000)
            journal.close()
        }
        logged.withLockedValue { $0 = [] }
        let log = eventLog(directory)
        let refused = lines("too near 2^53−1")
        #expect(refused.count == 1 && refused[0].contains("new event journal"), "\(logged.withLockedValue { $0 })")
        let seqs = log.stamp(EventLogTests.scan(0), now: 1001).compactMap(\.seq)
        #expect(!seqs.isEmpty && seqs.allSatisfy(EventPosition.isSeq), "\(seqs)")
    }

    @Test func theNumberingNeverGoesPastTheLastSeqClientsAccept() throws {
        let log = eventLog(dir + "/end")
        log.numberOn(after: EventPosition.maxSeq - 1)
        logged.withLockedValue { $0 = [] }
        #expect(log.stamp(EventLogTests.scan(0), now: 1000).map(\.seq) == [EventPosition.maxSeq])
        for i in 1...3 {
            let published = log.stamp(EventLogTests.scan(i), now: 1000)
            #expect(published.count == 1 && published[0].seq == nil && !published[0].line.contains("\"seq\""), "\(published.map(\.line))")
        }
        #expect(lines("the numbering reached seq \(EventPosition.maxSeq)").count == 1, "\(logged.withLockedValue { $0 })")
    }
}
