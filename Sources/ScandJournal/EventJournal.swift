import Foundation
import GRDB
import ScandProtocol
import NIOConcurrencyHelpers
import Synchronization

/// The daemon's journal of recent events: an append-only SQLite table in WAL mode in its state directory,
/// bounded by count and age. Each event is appended (committed) before it is published, so a client that
/// missed it can get it with `since`; reads go in bounded batches by seq, never the whole table.
///
/// Durability: WAL with `synchronous=NORMAL` commits into the WAL file with write(2) and syncs only at
/// checkpoints. An appended event survives the process crashing (or being SIGKILLed) right after: the data
/// is in the kernel's page cache and SQLite recovers the WAL on the next open. It does not survive a power
/// cut or a kernel crash before the next checkpoint: the last events may then be missing, though the file
/// stays consistent (SQLite rolls back to the last synced transaction).
public final class EventJournal: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Events kept at most (older ones are pruned in batches as new ones come).
        public var maxEvents: Int
        /// Seconds an event is kept at most. The newest event is always kept: its seq is where the numbering
        /// goes on after a restart.
        public var maxAge: Double

        public init(maxEvents: Int, maxAge: Double) {
            self.maxEvents = max(1, maxEvents)
            self.maxAge = max(0, maxAge)
        }
    }

    public let path: String
    public let limits: Limits
    /// This journal's id (32 hex digits), new with each journal file: a journal started after a damaged or
    /// removed one is told apart from it.
    public let id: String
    /// The seq the numbering went on after when this journal was started (0 for a first journal).
    public let base: Int
    /// This open made the journal: no journal was at the path, or its file held none (its WAL lost before
    /// the first checkpoint). With events published before, that is a journal lost whole.
    public let created: Bool
    private let db: DatabaseQueue
    /// The file opened (device and inode): a journal removed or replaced under the daemon is noticed.
    private let file: (device: UInt64, inode: UInt64)?
    /// The first error that said the file is damaged: the daemon then sets it aside. Locked: set by whichever
    /// caller's read or write failed, on that caller's thread (the journal's calls block; no task waits here).
    private let damage = NIOLockedValueBox<JournalError?>(nil)
    /// Appends so far: pruning runs every `pruneEvery` appends, at most `pruneBatch` rows. A counter: atomic.
    private let appends = Atomic(0)
    /// The events the table holds: counted once at open (SQLite keeps no count; `count(*)` reads every page of
    /// the table), then kept by this journal's own inserts and deletes, the only writes to its file. A counter:
    /// atomic.
    private let eventCount: Synchronization.Atomic<Int>
    /// The highest seq a daemon numbers on from at start (in a journal or in its published-seq file): 2^40
    /// (a trillion events, centuries at a busy till's rate) short of `EventPosition.maxSeq`, so a run never
    /// numbers past what clients accept. A state file above it was damaged or written by hand.
    public static let maxResumeSeq = EventPosition.maxSeq - (1 << 40)
    static let pruneEvery = 64
    static let pruneBatch = 512

    private init(path: String, limits: Limits, db: DatabaseQueue, id: String, base: Int, created: Bool, events: Int) {
        self.path = path
        self.limits = limits
        self.db = db
        self.id = id
        self.base = base
        self.created = created
        self.eventCount = Synchronization.Atomic(events)
        self.file = Self.identity(of: path)
    }

    /// Opens (or creates) the journal at `path`, checking its integrity (SQLite's quick_check) first. A file
    /// that is no journal or is damaged is a `.corrupt` error; a directory that cannot be written, another
    /// error with one line saying so. A new journal gets a new id and numbers on after `base`.
    public static func open(path: String, limits: Limits, continuingAfter base: Int = 0) throws(JournalError) -> EventJournal {
        var config = Configuration()
        config.journalMode = .wal
        config.label = "scand-journal"
        config.prepareDatabase { db in
            // Commits reach the WAL file at once and are synced at checkpoints (see the type's comment).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // The journal's own errors (a check that failed) as they are; GRDB's and SQLite's in one line.
        func failure(_ error: any Error, while what: String) -> JournalError {
            error as? JournalError ?? JournalError(error, path: path, while: what)
        }
        let queue: DatabaseQueue
        do { queue = try DatabaseQueue(path: path, configuration: config) } catch { throw failure(error, while: "opening") }
        do {
            let check = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw JournalError(
                    kind: .corrupt, description: "journal \(path) failed its integrity check (\(check.first?.prefix(120) ?? "no answer"))")
            }
        } catch {
            throw failure(error, while: "checking it")
        }
        let meta: (id: String, base: Int, created: Bool, events: Int)
        do {
            meta = try queue.write { db -> (String, Int, Bool, Int) in
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS event (
                            seq INTEGER PRIMARY KEY,
                            boot TEXT NOT NULL,
                            class TEXT NOT NULL,
                            time REAL NOT NULL,
                            line TEXT NOT NULL)
                        """)
                // A table of that name with other columns is not scand's journal.
                let columns = try db.columns(in: "event").map(\.name)
                guard columns == ["seq", "boot", "class", "time", "line"] else {
                    throw JournalError(
                        kind: .corrupt,
                        description:
                            "journal \(path): its table has columns \(columns), not scand's: scand moves the file aside and starts a new journal")
                }
                // The journal's id and where its numbering began, set once when it is made.
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                try db.execute(
                    sql: "INSERT OR IGNORE INTO meta (key, value) VALUES ('id', ?), ('base', ?)",
                    arguments: [EventPosition.randomBootID(), String(base)])
                let created = db.changesCount > 0
                let id = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'id'") ?? ""
                let base = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'base'").flatMap { Int($0) } ?? 0
                // Numbers read from the file: the daemon numbers on after them and prunes by them.
                let seqs = try Row.fetchOne(db, sql: "SELECT min(seq), max(seq), count(*) FROM event")
                let least: Int? = seqs?[0]
                let most: Int? = seqs?[1]
                guard (0...Self.maxResumeSeq).contains(base), least.map(EventPosition.isSeq) ?? true,
                    most.map { (1...Self.maxResumeSeq).contains($0) } ?? true
                else {
                    throw JournalError(
                        kind: .corrupt,
                        description:
                            "journal \(path) numbers beyond 1…\(Self.maxResumeSeq), too near 2^53−1 to number on from (base \(base), seq \(least ?? 0)…\(most ?? 0)): scand moves the file aside and starts a new journal"
                    )
                }
                let events: Int? = seqs?[2]
                return (id, base, created, events ?? 0)
            }
        } catch {
            throw failure(error, while: "opening")
        }
        return EventJournal(path: path, limits: limits, db: queue, id: meta.id, base: meta.base, created: meta.created, events: meta.events)
    }

    /// The highest seq journaled (or the journal's base, when it holds none): the daemon numbers on from here.
    public func lastSeq() throws(JournalError) -> Int {
        try max(base, read("reading the last seq") { db in try Int.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0 })
    }

    /// Why the file is known to be damaged (an operation failed with SQLite's "malformed" or "not a
    /// database"); nil while nothing said so.
    public var damaged: JournalError? { damage.withLockedValue { $0 } }

    /// Whether `path` still names the file opened: false once it was removed or replaced (the journal would
    /// otherwise go on writing into a file nobody can open again).
    public var isStillAtPath: Bool {
        guard let file else { return true }
        guard let now = Self.identity(of: path) else { return false }
        return now == file
    }

    /// Closes the file: reads and appends fail from now on.
    public func close() { try? db.close() }

    /// Moves the journal at `path` (and its WAL and shared-memory files) aside as `<path>.bad-<time>`, kept
    /// for whoever wants to look into it; returns that name, or nil when nothing was there to move.
    public static func setAside(path: String, now: Double) -> String? {
        let stamp = UTCTime.iso8601(now).filter { $0 != ":" && $0 != "-" }
        let moved = path + ".bad-" + stamp
        guard rename(path, moved) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] { _ = rename(path + suffix, moved + suffix) }
        return moved
    }

    /// The last seq a damaged journal still tells (read-only, errors ignored), for the numbering to go on.
    public static func salvageLastSeq(path: String) -> Int? {
        var config = Configuration()
        config.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: config) else { return nil }
        defer { try? queue.close() }
        let last = try? queue.read { db in
            let seq = try Int.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0
            let base = (try? String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'base'")).flatMap { Int($0) } ?? 0
            return max(seq, base)
        }
        // A damaged file may tell anything: a seq out of range is no place to number on from.
        return last.flatMap { (0...maxResumeSeq).contains($0) ? $0 : nil }
    }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// A JournalError for `error`, remembered when it says the file is damaged.
    private func failure(_ error: any Error, while what: String) -> JournalError {
        let e = JournalError(error, path: path, while: what)
        if e.kind == .corrupt { damage.withLockedValue { $0 = $0 ?? e } }
        return e
    }

    /// Appends one event, committed when this returns. `seq` must be above every journaled seq.
    public func append(seq: Int, boot: String, eventClass: String, line: String, at time: Double) throws(JournalError) {
        let prune = appends.wrappingAdd(1, ordering: .relaxed).newValue % Self.pruneEvery == 0
        do {
            let pruned = try db.write { db in
                try db.execute(
                    sql: "INSERT INTO event (seq, boot, class, time, line) VALUES (?, ?, ?, ?, ?)",
                    arguments: [seq, boot, eventClass, time, line])
                return try prune ? Self.pruneBatch(db, limits: limits, now: time) : 0
            }
            eventCount.wrappingAdd(1 - pruned, ordering: .relaxed)
        } catch {
            throw failure(error, while: "appending seq \(seq)")
        }
    }

    /// At most `limit` events with seq > `seq`, in seq order: one page of a replay; of `classes` only, when
    /// named (a client's `?WATCH` classes: the others are never read).
    public func events(after seq: Int, limit: Int = 256, classes: Set<String>? = nil) throws(JournalError) -> [JournaledEvent] {
        var sql = "SELECT seq, boot, class, time, line FROM event WHERE seq > ?"
        var arguments: StatementArguments = [seq]
        if let classes {
            let names = classes.sorted()
            sql += " AND class IN (\(names.map { _ in "?" }.joined(separator: ", ")))"
            arguments += StatementArguments(names)
        }
        sql += " ORDER BY seq LIMIT ?"
        arguments += [max(1, limit)]
        return try read("reading events after seq \(seq)") { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map {
                JournaledEvent(seq: $0[0], boot: $0[1], eventClass: $0[2], time: $0[3], line: $0[4])
            }
        }
    }

    /// What the journal holds (nil when empty): for the ERROR that answers a `since` it no longer has.
    public func span() throws(JournalError) -> JournalSpan? {
        try read("reading its range") { db in
            guard let first = try Row.fetchOne(db, sql: "SELECT seq, time FROM event ORDER BY seq LIMIT 1"),
                let last = try Int.fetchOne(db, sql: "SELECT max(seq) FROM event")
            else { return nil }
            return JournalSpan(first: first[0], last: last, oldestTime: first[1], events: eventCount.load(ordering: .relaxed))
        }
    }

    /// The boot of the event numbered `seq`, if the journal holds it.
    public func boot(at seq: Int) throws(JournalError) -> String? {
        try read("reading seq \(seq)") { db in try String.fetchOne(db, sql: "SELECT boot FROM event WHERE seq = ?", arguments: [seq]) }
    }

    public func count() throws(JournalError) -> Int {
        try read("counting events") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") ?? 0 }
    }

    /// Prunes everything beyond the limits, batch by batch (each batch its own transaction, so appends
    /// are not held up long). Returns how many events went.
    @discardableResult
    public func prune(now: Double) throws(JournalError) -> Int {
        var total = 0
        while true {
            let n: Int
            do { n = try db.write { db in try Self.pruneBatch(db, limits: limits, now: now) } } catch {
                throw failure(error, while: "pruning")
            }
            total += n
            eventCount.wrappingSubtract(n, ordering: .relaxed)
            if n < Self.pruneBatch { return total }
        }
    }

    /// Deletes at most `pruneBatch` of the oldest events that are over the count or older than `maxAge`,
    /// never the newest one.
    @discardableResult
    static func pruneBatch(_ db: Database, limits: Limits, now: Double) throws -> Int {
        guard let first = try Int.fetchOne(db, sql: "SELECT min(seq) FROM event"),
            let last = try Int.fetchOne(db, sql: "SELECT max(seq) FROM event")
        else { return 0 }
        // Everything before `keepFrom` goes: by count, then by age (the first young event, found from the
        // head, so the cost follows what is old, not the table).
        var keepFrom = last - limits.maxEvents + 1
        let firstYoung =
            try Int.fetchOne(
                db, sql: "SELECT seq FROM event WHERE time >= ? ORDER BY seq LIMIT 1",
                arguments: [now - limits.maxAge]) ?? last
        keepFrom = min(max(keepFrom, firstYoung), last)
        let end = min(keepFrom, first + pruneBatch)
        guard end > first else { return 0 }
        try db.execute(sql: "DELETE FROM event WHERE seq < ?", arguments: [end])
        return db.changesCount
    }

    private func read<T>(_ what: String, _ body: (Database) throws -> T) throws(JournalError) -> T {
        do { return try db.read(body) } catch { throw failure(error, while: what) }
    }
}
