import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandJournal

/// A fresh directory under /tmp, removed with everything in it at the end.
final class TemporaryDirectory {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "scand-journal-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A tmpfs of `size` mounted on a new directory, for as long as this lives; nil without the right to mount.
final class TinyFileSystem {
    let directory = TemporaryDirectory()
    var path: String { directory.path }

    init?(options: String) {
        guard geteuid() == 0, Self.run("/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", directory.path]) == 0 else { return nil }
    }
    deinit { _ = Self.run("/bin/umount", ["-l", directory.path]) }

    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        (try? ScandBinary.runTool(tool, arguments))?.status ?? -1
    }
}

@Suite struct EventJournalTests {
    static let boot = "0123456789abcdef0123456789abcdef"
    static func line(_ seq: Int) -> String { #"{"class":"SCAN","boot":"\#(boot)","seq":\#(seq),"text":"code \#(seq)"}"# }
    static let roomy = EventJournal.Limits(maxEvents: 100_000, maxAge: 86_400)

    @Test func appendsThenReadsInBoundedBatchesAcrossAReopen() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/journal.sqlite"
        do {
            let j = try EventJournal.open(path: path, limits: Self.roomy)
            #expect(try j.lastSeq() == 0)
            #expect(try j.span() == nil)
            for seq in 1...1000 { try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: 1000 + Double(seq)) }
        }
        let j = try EventJournal.open(path: path, limits: Self.roomy)
        #expect(try j.lastSeq() == 1000)
        #expect(try j.span() == JournalSpan(first: 1, last: 1000, oldestTime: 1001))
        #expect(try j.boot(at: 500) == Self.boot)
        #expect(try j.boot(at: 5000) == nil)
        var cursor = 10
        var seen: [Int] = []
        while true {
            let batch = try j.events(after: cursor, limit: 128)
            #expect(batch.count <= 128)
            guard let last = batch.last else { break }
            seen += batch.map(\.seq)
            cursor = last.seq
        }
        #expect(seen == Array(11...1000))
        #expect(
            try j.events(after: 41, limit: 1).first == JournaledEvent(seq: 42, boot: Self.boot, eventClass: "SCAN", time: 1042, line: Self.line(42)))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// A replay of some classes reads only those: a batch is full of them, whatever lies between.
    @Test func aReplayOfSomeClassesReadsOnlyThose() throws {
        let dir = TemporaryDirectory()
        let j = try EventJournal.open(path: dir.path + "/j", limits: Self.roomy)
        let classes = ["SCAN", "UPDATE", "UPDATE", "LOST", "STATS"]
        for seq in 1...100 { try j.append(seq: seq, boot: Self.boot, eventClass: classes[seq % 5], line: Self.line(seq), at: Double(seq)) }
        let scans = try j.events(after: 0, limit: 10, classes: ["SCAN"])
        #expect(scans.map(\.seq) == Array(stride(from: 5, through: 50, by: 5)))
        let some = try j.events(after: 90, limit: 256, classes: ["LOST", "STATS"])
        #expect(some.map(\.seq) == [93, 94, 98, 99])
        #expect(try j.events(after: 0, classes: []).isEmpty)
        #expect(try j.events(after: 97, limit: 256).map(\.seq) == [98, 99, 100], "no classes named: all of them")
    }

    /// Issue 48: STATUS said 1021 events for the 21 rows of a journal that was off for 1000 seqs.
    @Test func theSpanCountsTheEventsItHoldsAcrossAGap() throws {
        let dir = TemporaryDirectory()
        let j = try EventJournal.open(path: dir.path + "/j", limits: Self.roomy)
        for seq in Array(1...10) + Array(1011...1021) {
            try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: Double(seq))
        }
        let span = try #require(try j.span())
        #expect(span.first == 1 && span.last == 1021 && span.events == 21)
    }

    /// The span's count is kept by the journal's own inserts and deletes, not read with `count(*)` (every page
    /// of the table) each time a `since` or the event runtime asks: it agrees with the table through the prunes
    /// that appends run, a prune of its own, a refused append and a reopen.
    @Test func theSpanKeepsItsCountThroughPrunesAndAReopen() throws {
        let dir = TemporaryDirectory()
        let limits = EventJournal.Limits(maxEvents: 100, maxAge: 86_400)
        let j = try EventJournal.open(path: dir.path + "/j", limits: limits)
        for seq in 1...1000 { try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: Double(seq)) }
        #expect(try j.count() > 100, "appends prune in batches, behind the limit")
        #expect(try j.span()?.events == j.count())
        #expect(throws: JournalError.self) { try j.append(seq: 1000, boot: Self.boot, eventClass: "SCAN", line: "x", at: 1001) }
        #expect(try j.prune(now: 1001) > 0)
        #expect(try j.count() == 100 && j.span()?.events == 100)
        j.close()
        let again = try EventJournal.open(path: dir.path + "/j", limits: limits)
        #expect(try again.span()?.events == 100)
    }

    @Test func aSeqAlreadyJournaledIsRefused() throws {
        let dir = TemporaryDirectory()
        let j = try EventJournal.open(path: dir.path + "/j", limits: Self.roomy)
        try j.append(seq: 5, boot: Self.boot, eventClass: "SCAN", line: Self.line(5), at: 1)
        #expect(throws: JournalError.self) { try j.append(seq: 5, boot: Self.boot, eventClass: "SCAN", line: "x", at: 2) }
        #expect(try j.count() == 1)
    }

    @Test func prunesByCountInBatchesAsItAppends() throws {
        let dir = TemporaryDirectory()
        let j = try EventJournal.open(path: dir.path + "/j", limits: .init(maxEvents: 100, maxAge: 86_400))
        for seq in 1...2000 { try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: Double(seq)) }
        #expect(try j.count() <= 100 + EventJournal.pruneEvery)
        try j.prune(now: 2000)
        #expect(try j.span()?.first == 1901)
        #expect(try j.lastSeq() == 2000)
    }

    @Test func prunesByAgeButKeepsTheNewestForTheNumbering() throws {
        let dir = TemporaryDirectory()
        let j = try EventJournal.open(path: dir.path + "/j", limits: .init(maxEvents: 100_000, maxAge: 60))
        for seq in 1...1500 { try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: Double(seq)) }
        try j.prune(now: 1500)
        #expect(try j.span()?.first == 1440)
        #expect(try j.prune(now: 1_000_000) == 60)
        #expect(try j.span() == JournalSpan(first: 1500, last: 1500, oldestTime: 1500))
        #expect(try j.lastSeq() == 1500)
    }

    @Test func aFileThatIsNoJournalIsOneLineOfErrorNoCrash() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/journal.sqlite"
        var garbage = [UInt8](repeating: 0, count: 8192)
        var random = SeededRandom(seed: 7)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: random.next()) }
        FileManager.default.createFile(atPath: path, contents: Data(garbage))
        #expect { try EventJournal.open(path: path, limits: Self.roomy) } throws: { e in
            let error = e as! JournalError
            return error.kind == .corrupt && error.description.contains("not a database") && !error.description.contains("\n")
        }
    }

    @Test func aJournalWhosePagesAreDamagedFailsWithAnErrorNotACrash() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/journal.sqlite"
        do {
            let j = try EventJournal.open(path: path, limits: Self.roomy)
            for seq in 1...2000 { try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: Self.line(seq), at: Double(seq)) }
            _ = try j.prune(now: 0)
        }
        // Checkpoint into the main file, then overwrite its table pages (the header page stays).
        _ = TinyFileSystem.run("/usr/bin/sqlite3", [path, "PRAGMA wal_checkpoint(TRUNCATE);"])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 64 * 1024))
        try handle.close()
        var failed: JournalError?
        do {
            let j = try EventJournal.open(path: path, limits: Self.roomy)
            _ = try j.events(after: 0, limit: 5000)
            try j.append(seq: 2001, boot: Self.boot, eventClass: "SCAN", line: "x", at: 1)
        } catch {
            failed = error
        }
        let error = try #require(failed)
        #expect(error.kind == .corrupt)
        #expect(!error.description.contains("\n"))
    }

    @Test func anUnwritableDirectoryIsOneLineOfError() throws {
        // Root writes anywhere the permission bits say no: a read-only mount says it to root too.
        let dir: String
        let mount = TinyFileSystem(options: "size=1m,ro")
        let plain = TemporaryDirectory()
        if let mount {
            dir = mount.path
        } else {
            chmod(plain.path, 0o500)
            dir = plain.path
        }
        defer { chmod(plain.path, 0o700) }
        #expect { try EventJournal.open(path: dir + "/journal.sqlite", limits: Self.roomy) } throws: { e in
            let error = e as! JournalError
            return error.kind == .unavailable && error.description.contains("writable") && !error.description.contains("\n")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "mounting a tiny tmpfs needs root"))
    func aFullDiskIsAnErrorAndWhatWasJournaledStays() throws {
        let fs = try #require(TinyFileSystem(options: "size=256k"), "mount -t tmpfs failed")
        let path = fs.path + "/journal.sqlite"
        let big = String(repeating: "x", count: 4000)
        var appended = 0
        var failure: JournalError?
        do {
            let j = try EventJournal.open(path: path, limits: Self.roomy)
            for seq in 1...1000 {
                try j.append(seq: seq, boot: Self.boot, eventClass: "SCAN", line: big, at: Double(seq))
                appended = seq
            }
        } catch {
            failure = error
        }
        let error = try #require(failure, "256 KiB held 1000 events of 4 KB?")
        #expect(error.kind == .full, "\(error)")
        #expect(error.description.contains("full") && !error.description.contains("\n"))
        #expect(appended > 0)
        // Every event whose append returned is still there.
        let reopened = try EventJournal.open(path: path, limits: Self.roomy)
        #expect(try reopened.lastSeq() == appended)
    }
}
