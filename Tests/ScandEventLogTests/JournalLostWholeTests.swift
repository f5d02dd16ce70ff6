import Foundation
import NIOConcurrencyHelpers
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandEventLog

/// Issue 48, 3: a journal lost whole (its WAL removed before the first checkpoint, or its files removed
/// while the daemon was stopped) was started again from the published seq without a word.
@Suite(.serialized) struct JournalLostWholeTests: EventLogKeepingLines {
    let dir = ScandBinary.temporaryDirectory()
    let logged = NIOLockedValueBox<[String]>([])

    /// Ten events published into `directory`, then the files a SIGKILL would leave, minus `lost`.
    func crashed(_ name: String, losing lost: [String]) throws -> String {
        let running = dir + "/running-" + name
        let log = eventLog(running)
        for i in 0..<10 { _ = log.stamp(EventLogTests.scan(i), now: 1000) }
        let to = dir + "/" + name
        try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
        for file in [EventLog.fileName, EventLog.fileName + "-wal", PublishedSeqFile.fileName] where !lost.contains(file) {
            try FileManager.default.copyItem(atPath: running + "/" + file, toPath: to + "/" + file)
        }
        return to
    }

    func expectLossReported(_ directory: String) throws {
        logged.withLockedValue { $0 = [] }
        let restarted = eventLog(directory)
        let lines = logged.withLockedValue { $0 }.filter { $0.contains("every event up to seq 10 is lost") }
        #expect(lines.count == 1, "\(logged.withLockedValue { $0 })")
        let next = restarted.stamp(EventLogTests.scan(10), now: 1001)
        #expect(next.map(\.seq) == [11, 12], "a JOURNAL event saying so, then the numbering goes on after 10")
        guard case .journal(let notice) = next.first?.event else {
            Issue.record("\(next.map(\.line))")
            return
        }
        #expect(notice.notJournaled == JournalGap(first: 1, last: 10))
        guard case .on(_, _, _, let gap) = restarted.status else {
            Issue.record("journal off")
            return
        }
        #expect(gap == JournalGap(first: 1, last: 10))
    }

    @Test func aWALLostBeforeTheFirstCheckpointIsReported() throws {
        try expectLossReported(try crashed("wal", losing: [EventLog.fileName + "-wal"]))
    }

    @Test func journalFilesRemovedWhileStoppedAreReported() throws {
        try expectLossReported(try crashed("removed", losing: [EventLog.fileName, EventLog.fileName + "-wal"]))
    }

    @Test func aFirstStartSaysNothing() throws {
        logged.withLockedValue { $0 = [] }
        let first = eventLog(dir + "/first")
        #expect(first.stamp(EventLogTests.scan(0), now: 1000).map(\.seq) == [1])
        #expect(logged.withLockedValue { $0 }.isEmpty, "\(logged.withLockedValue { $0 })")
    }
}
