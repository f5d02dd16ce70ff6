import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandJournal
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandEventLog

/// Issue 25, 3 and 4: the journal after a full disk, and a journal damaged or removed under the daemon,
/// on real files, with the clock the test gives.
@Suite(.serialized) struct EventLogTests {
    let dir = ScandBinary.temporaryDirectory()
    let logged = NIOLockedValueBox<[String]>([])
    static let limits = EventJournal.Limits(maxEvents: 100_000, maxAge: 1e9)

    func eventLog(_ directory: String, now: Double = 1000) -> EventLog {
        let logged = self.logged
        return EventLog(
            directory: directory, limits: Self.limits, log: .scand(write: { line, _ in logged.withLockedValue { $0.append(line) } }), now: now)
    }

    static func scan(_ i: Int) -> Event {
        let text = "ticket-\(i)-" + String(repeating: "x", count: 400)
        let d = Detection(
            format: .qrCode, text: text, bytes: Array(text.utf8), corners: Quadrilateral([Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]))
        return .scan(TrackedCode(id: i, device: "d", time: Date(timeIntervalSince1970: 0), frame: 1, detection: d, frameWidth: 0, frameHeight: 0))
    }

    func journalID(_ status: JournalStatus) -> String? {
        if case .on(_, _, let id, _) = status { id } else { nil }
    }

    /// Fills the file system under `path` with a file of its own until it takes no more.
    static func fill(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        let byte: [UInt8] = [0]
        while byte.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
    }

    @Test(.enabled(if: getuid() == 0, "mounts a tmpfs"))
    func afterAFullDiskTheJournalIsRetriedWithBackoffAndComesBackSayingWhatItMissed() throws {
        let state = dir + "/full"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let mount = try ScandBinary.runTool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", state])
        try #require(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
        defer { _ = try? ScandBinary.runTool("/usr/bin/umount", [state]) }
        let log = eventLog(state)
        // Some events journaled, then the rest of the disk filled.
        var published: [PublishedEvent] = []
        for i in 0..<20 { published += log.stamp(Self.scan(i), now: 1000) }
        let journaled = published.allSatisfy { $0.journaled }
        #expect(journaled)
        Self.fill(state + "/ballast")
        var i = 20
        while published.last?.journaled != false && i < 5000 {
            published += log.stamp(Self.scan(i), now: 1000)
            i += 1
        }
        let offAt = try #require(published.firstIndex { !$0.journaled }, "the disk never filled")
        let first = try #require(published[offAt].seq)
        // The event that did not fit, then a JOURNAL event saying the journal is off.
        let off = try #require(published.last)
        #expect(off.line.contains(#""class":"JOURNAL""#) && off.line.contains(#""state":"off""#) && off.seq == first + 1, "\(off.line)")
        Self.fill(state + "/ballast")  // whatever the failed write gave back
        published = log.stamp(Self.scan(9000), now: 1000.5)
        #expect(published.count == 1 && !published[0].journaled && published[0].seq == first + 2)
        #expect(
            log.status(now: 1000.5)
                == .off(reason: statusReason(log), boot: log.boot, notJournaled: JournalGap(first: first, last: first + 2), retryIn: 0.5))
        // Due at 1001: still full, so the next attempt waits 2 s.
        #expect(log.upkeep(now: 1000.9).isEmpty)
        #expect(log.upkeep(now: 1001).isEmpty)
        if case .off(_, _, _, let retryIn) = log.status(now: 1001) { #expect(retryIn == 2) } else { Issue.record("journal on while full") }
        unlink(state + "/ballast")
        #expect(log.upkeep(now: 1002.9).isEmpty, "not due yet")
        let back = log.upkeep(now: 1003)
        #expect(back.count == 1 && back[0].journaled && back[0].seq == first + 3, "\(back.map(\.line))")
        #expect(back.first?.line.contains(#""state":"on""#) == true)
        #expect(back.first?.line.contains(#""notJournaled":{"first":\#(first),"last":\#(first + 2),"events":3}"#) == true, "\(back.map(\.line))")
        let after = log.stamp(Self.scan(9001), now: 1003.1)
        #expect(after.count == 1 && after[0].journaled && after[0].seq == first + 4)
        if case .on(_, _, _, let gap) = log.status(now: 1004) {
            #expect(gap == JournalGap(first: first, last: first + 2))
        } else {
            Issue.record("off")
        }
        let lines = logged.withLockedValue { $0 }
        #expect(lines.filter { $0.hasPrefix("event journal off") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.contains("on again") && $0.contains("3 events") }, "\(lines)")
    }

    func statusReason(_ log: EventLog) -> String {
        if case .off(let reason, _, _, _) = log.status { reason } else { "" }
    }

    @Test func aJournalRemovedUnderTheDaemonIsReplacedByANewOneAndTheNumberingGoesOn() throws {
        let state = dir + "/removed"
        let log = eventLog(state)
        for i in 0..<10 { _ = log.stamp(Self.scan(i), now: 1000) }
        let old = try #require(journalID(log.status))
        for suffix in ["", "-wal", "-shm"] { unlink(state + "/journal.sqlite" + suffix) }
        let published = log.stamp(Self.scan(10), now: 1001)
        #expect(published.map(\.seq) == [11, 12] && published.allSatisfy(\.journaled), "\(published.map(\.line))")
        #expect(published.first?.line.contains(#""class":"JOURNAL""#) == true)
        let new = try #require(journalID(log.status))
        #expect(new != old)
        #expect(logged.withLockedValue { $0 }.contains { $0.contains("was removed or replaced while in use") })
        // A position from the old journal is not held by the new one.
        let journal = try log.journal.get()
        let (_, actions) = ReplayHandover.start(since: EventPosition(boot: log.boot, seq: 5), span: try journal.span(), journalBase: journal.base) {
            try? journal.boot(at: $0)
        }
        guard case .error(let message)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        // Issue 48: it said "older events were pruned".
        #expect(message.contains("is not in the journal (this journal was started after seq 10, replacing the one it is from)"), "\(message)")
        // A restart numbers on from the new journal: no seq 1 again.
        let again = eventLog(state)
        #expect(again.stamp(Self.scan(11), now: 1002).first?.seq == 13)
    }

    @Test func aDamagedJournalIsSetAsideAtOpenAndANewOneStarted() async throws {
        let state = dir + "/damaged"
        // Commits and the damage off the cooperative pool (`OffPool`): slow under ThreadSanitizer.
        let (boot, log) = try await OffPool.run { [self] in
            let boot: String
            do {
                let first = eventLog(state)
                boot = first.boot
                for i in 0..<300 { _ = first.stamp(Self.scan(i), now: 1000) }
            }
            let path = state + "/journal.sqlite"
            // Pages overwritten after the first one, in the file and any WAL left.
            for file in [path, path + "-wal"] {
                guard let handle = FileHandle(forUpdatingAtPath: file) else { continue }
                let size = handle.seekToEndOfFile()
                guard size > 8192 else { continue }
                handle.seek(toFileOffset: 4096)
                var random = SeededRandom(seed: 25)
                handle.write(Data((0..<Int(size) - 4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
                handle.closeFile()
            }
            return (boot, eventLog(state))
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("journal.sqlite.bad-") }
        #expect(aside.contains { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "kept: \(aside)")
        let lines = logged.withLockedValue { $0 }
        #expect(lines.contains { $0.contains("new event journal") && $0.contains("damaged") }, "\(lines)")
        let notice = log.upkeep(now: 1001)
        #expect(notice.count == 1 && notice[0].journaled && notice[0].line.contains(#""class":"JOURNAL""#), "\(notice.map(\.line))")
        let journal = try log.journal.get()
        let (_, actions) = ReplayHandover.start(since: EventPosition(boot: boot, seq: 100), span: try journal.span()) { try? journal.boot(at: $0) }
        guard case .error(let message)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(message.contains("is not in the journal"), "\(message)")
    }

    /// The adversarial run's case: 300 KB of the WAL overwritten while the daemon runs, beyond what SQLite's
    /// page cache holds. The replay that reads it (as a `since` would) fails with one line, the next upkeep
    /// takes the journal out of use, sets it aside and starts a new one, and a `since` from the old one is
    /// answered "not in the journal" rather than failing for ever.
    @Test func aWALOverwrittenWhileRunningIsNoticedAtTheNextReadAndReplaced() async throws {
        let state = dir + "/wal-overwritten"
        let log = eventLog(state)
        let boot = log.boot
        // About 8 MB of events: more than the 2 MB page cache, and a WAL that is never checkpointed away
        // entirely (it restarts at its start after each checkpoint).
        try await OffPool.run { for i in 0..<18_000 { _ = log.stamp(Self.scan(i), now: 1000) } }
        let old = try #require(journalID(log.status(now: 1000)))
        let wal = state + "/journal.sqlite-wal"
        let handle = try #require(FileHandle(forUpdatingAtPath: wal))
        let size = handle.seekToEndOfFile()
        try #require(size > 400_000, "WAL of \(size) bytes")
        handle.seek(toFileOffset: 4096)
        var random = SeededRandom(seed: 25)
        handle.write(Data((0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        handle.closeFile()
        // A replay of everything, batch by batch, as SubscriberReplay reads it.
        let journal = try log.journal.get()
        let (after, failure) = try await OffPool.run { () -> (Int, JournalError?) in
            var after = 0
            while true {
                do throws(JournalError) {
                    let batch = try journal.events(after: after, limit: 256)
                    guard let last = batch.last else { return (after, nil) }
                    after = last.seq
                } catch {
                    return (after, error)
                }
            }
        }
        let error = try #require(failure, "read every event up to \(after) from an overwritten WAL")
        #expect(error.kind == .corrupt && !error.description.contains("\n"), "\(error)")
        let notice = log.upkeep(now: 1001)
        #expect(notice.count == 1 && notice[0].line.contains(#""class":"JOURNAL""#), "\(notice.map(\.line))")
        let new = try #require(journalID(log.status(now: 1001)))
        #expect(new != old)
        #expect(logged.withLockedValue { $0 }.contains { $0.contains("taken out of use") }, "\(logged.withLockedValue { $0 })")
        let aside = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("journal.sqlite.bad-") }
        #expect(!aside.isEmpty, "\((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? [])")
        let replacement = try log.journal.get()
        let (_, actions) = ReplayHandover.start(since: EventPosition(boot: boot, seq: 100), span: try replacement.span()) {
            try? replacement.boot(at: $0)
        }
        guard case .error(let message)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(message.contains("is not in the journal"), "\(message)")
    }
}
