import Foundation
import Logging
import NIOConcurrencyHelpers
import ScandCore
import ScandJournal
import ScandLogging
import ScandProtocol

/// The daemon's numbering of its events and their journal: each DEVICE, SCAN, UPDATE, LOST, STATS and
/// JOURNAL gets the next seq under this boot and is appended to the journal before it is published.
///
/// A journal that cannot be written (a full disk) goes off: said once in the log, in a JOURNAL event and in
/// STATUS, while numbering and publishing go on; it is tried again with backoff (`JournalOutage`), and once
/// it takes an event again a JOURNAL event says which seqs it missed. A journal found damaged (at open, by
/// a failed read or write) is moved aside, kept under a name with the time, and a new one with a new id is
/// started; one removed or replaced under the daemon is noticed before the next append and replaced too.
/// The numbering goes on through all of this: a new journal records where it began, so that a restart
/// does not start again at 1, and positions from the old one get the "not in the journal" answer.
public final class EventLog: Sendable {
    public static let fileName = "journal.sqlite"

    public let boot: String
    private struct State {
        var seq = 0
        var journal: EventJournal?
        /// Set while the journal is off; nil while it is on.
        var outage: JournalOutage?
        /// The journal's file is damaged: set it aside before opening the path again.
        var setAside = false
        /// The id of the journal last in use.
        var journalID: String?
        /// The events the journal missed the last time it was off.
        var lastGap: JournalGap?
        /// A JOURNAL event to publish before the next one (a journal replaced at start).
        var notice: JournalNotice?
        /// What the journal holds, refreshed when it may have been pruned (STATUS reads it on the event loop).
        var span: JournalSpan?
        var appendsSinceSpan = 0
        /// The numbering reached `EventPosition.maxSeq` (said once).
        var numberingEnded = false
        /// When a failed write of the published seq was last logged.
        var publishedFailureLogged = -Double.infinity
    }
    private let state: NIOLockedValueBox<State>
    private let path: String?
    /// The last seq published, outside SQLite (nil without a state directory, or when it cannot be kept).
    private let published: PublishedSeqFile?
    private let limits: EventJournal.Limits
    private let log: Logger

    /// Opens `<directory>/journal.sqlite` (no directory: no journal, said once).
    public init(
        directory: String?, limits: EventJournal.Limits, log: Logger,
        now: Double = Date().timeIntervalSince1970
    ) {
        boot = EventPosition.randomBootID()
        self.log = log
        self.limits = limits
        path = directory.map { $0 + "/" + Self.fileName }
        var s = State()
        var published: PublishedSeqFile?
        if let directory, let path {
            // systemd creates StateDirectory=; a directory given by hand may not exist yet.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            switch PublishedSeqFile.open(directory: directory) {
            case .success(let file):
                published = file
                if let problem = file.problem { log(problem, .warning) }
                // Numbering goes on after the last seq published, whatever the journal still holds.
                s.seq = file.lastSeq ?? 0
            case .failure(let error):
                log("\(error.description): a journal that loses its last events at a crash will not be noticed", .warning)
            }
            do {
                let (journal, replaced) = try Self.open(path, limits: limits, state: &s, now: now, log: log)
                s.journal = journal
                s.journalID = journal.id
                let journaled = try journal.lastSeq()
                var lost: (gap: JournalGap, message: String)?
                if journaled < s.seq {
                    let gap = JournalGap(first: journaled + 1, last: s.seq)
                    lost = (
                        gap,
                        "event journal \(journal.id) lost seq \(gap.first)…\(gap.last) (\(gap.events) events published before this start): its files were damaged or cut; the numbering goes on after \(gap.last)"
                    )
                } else if replaced == nil, journal.created, s.seq > 0 {
                    // A new journal takes the published seq as its base, so nothing above says what went: the
                    // journal's files were removed, or its WAL lost before the first checkpoint.
                    let gap = JournalGap(first: 1, last: s.seq)
                    lost = (
                        gap,
                        "event journal \(journal.id) is new, but seq \(s.seq) was published before this start: the journal's files were removed or emptied, and every event up to seq \(s.seq) is lost; the numbering goes on after \(s.seq)"
                    )
                }
                if let lost {
                    log(lost.message, .error)
                    s.lastGap = lost.gap
                    s.notice = JournalNotice(state: .on, journal: journal.id, notJournaled: lost.gap, message: lost.message)
                }
                s.seq = max(s.seq, journaled)
                s.span = try journal.span()
                if let replaced { s.notice = JournalNotice(state: .on, journal: journal.id, message: replaced) }
            } catch {
                s.journal = nil
                s.outage = JournalOutage(reason: error.description, now: now)
                log("event journal off: \(error.description); events are published live only, and since cannot be answered", .error)
            }
        } else {
            s.outage = JournalOutage(
                reason: "no state directory ([service] state_directory, or systemd's $STATE_DIRECTORY)", now: now, retries: false)
        }
        // Rewritten whole at once where it says something else (a stray byte, a seq behind the journal's):
        // a crash before the first event would otherwise leave the loss check off at the next start too.
        if let published, published.lastSeq != s.seq, let error = published.record(s.seq) {
            log("cannot write \(published.path) (\(String(cString: strerror(error)))): a crash now may go unnoticed", .warning)
        }
        self.published = published
        state = NIOLockedValueBox(s)
    }

    /// Opens the journal at `path`; a damaged one (or one marked so) is moved aside first and a new one
    /// started, numbering on after the last seq known. Returns the journal and, when it is a new one that
    /// replaced a damaged one, the message that says so (logged here).
    private static func open(
        _ path: String, limits: EventJournal.Limits, state s: inout State, now: Double, log: Logger
    ) throws(JournalError) -> (EventJournal, String?) {
        var why: String?
        if s.setAside {
            s.setAside = false
            why = s.outage?.reason ?? "it was damaged"
        } else {
            do { return (try EventJournal.open(path: path, limits: limits, continuingAfter: s.seq), nil) } catch  where error.kind == .corrupt {
                why = error.description
            }
        }
        let moved = EventJournal.setAside(path: path, now: now)
        let after = max(s.seq, moved.flatMap { EventJournal.salvageLastSeq(path: $0) } ?? 0)
        let journal = try EventJournal.open(path: path, limits: limits, continuingAfter: after)
        s.seq = max(s.seq, after)
        let message =
            "new event journal \(journal.id) started after seq \(after): the previous one is damaged (\(why ?? "?"))"
            + (moved.map { "; it is kept as \($0)" } ?? "") + "; since positions from it are not in the new journal"
        log(message, .error)
        return (journal, message)
    }

    /// The journal to replay from, or why there is none.
    public var journal: Result<EventJournal, JournalError> {
        state.withLockedValue { s in
            if let j = s.journal, s.outage == nil { return .success(j) }
            return .failure(JournalError(kind: .unavailable, description: s.outage?.reason ?? "off"))
        }
    }

    public var status: JournalStatus { status(now: Date().timeIntervalSince1970) }

    public func status(now: Double) -> JournalStatus {
        state.withLockedValue { s in
            if let outage = s.outage {
                return .off(reason: outage.reason, boot: boot, notJournaled: outage.missed, retryIn: outage.retryIn(now))
            }
            return .on(s.span, boot: boot, journal: s.journal?.id, notJournaled: s.lastGap)
        }
    }

    /// VERSION's stamp: the boot alone.
    public var versionStamp: EventStamp { EventStamp(boot: boot) }

    /// Numbers, encodes and journals one event; returns what to publish, in order: a JOURNAL event when the
    /// journal changed state, then the event. Callers publish them one at a time, in order.
    public func stamp(_ event: Event, now: Double = Date().timeIntervalSince1970) -> [PublishedEvent] {
        guard event.isJournaled else {
            let stamp: EventStamp? = if case .version = event { versionStamp } else { nil }
            return [PublishedEvent(event: event, line: EventEncoder.line(event, stamp: stamp))]
        }
        var out = upkeep(now: now)
        out += append(event, now: now)
        return out
    }

    /// What the journal needs while no event comes: a damaged or removed journal replaced, an attempt to
    /// switch it on again when one is due. Returns the JOURNAL event to publish, if any. Call it under the
    /// same serialization as `stamp` (the daemon's output lock), every second or so.
    public func upkeep(now: Double = Date().timeIntervalSince1970) -> [PublishedEvent] {
        var out: [PublishedEvent] = []
        if let notice = state.withLockedValue({ s in
            defer { s.notice = nil }; return s.notice
        }) {
            out.append(number(.journal(notice), now: now))
        }
        checkFile(now: now)
        if let back = retry(now: now) { out.append(back) }
        return out
    }

    /// Takes a journal found damaged, or removed or replaced under the daemon, out of use; the attempt to
    /// start a new one is due at once.
    private func checkFile(now: Double) {
        guard let journal = state.withLockedValue({ $0.outage == nil ? $0.journal : nil }) else { return }
        let why: String
        if let damage = journal.damaged {
            why = damage.description
        } else if !journal.isStillAtPath {
            why = "\(journal.path) was removed or replaced while in use"
        } else {
            return
        }
        let damaged = journal.damaged != nil
        journal.close()
        state.withLockedValue { s in
            s.journal = nil
            s.setAside = damaged
            s.outage = JournalOutage(reason: why, now: now, retryNow: true)
        }
        log("event journal \(journal.id) taken out of use: \(why)", .error)
    }

    /// When an attempt is due: opens the journal again if needed, and journals a JOURNAL event that says it
    /// is on again and what it missed. nil when it is not due or failed (then the next one backs off).
    private func retry(now: Double) -> PublishedEvent? {
        guard let path else { return nil }
        // Worked on a copy, the I/O outside the lock: only `stamp` and `upkeep` change the state, and the
        // caller serializes them.
        var s = state.withLockedValue { $0 }
        defer { state.withLockedValue { $0 = s } }
        guard var outage = s.outage, outage.isDue(now) else { return nil }
        func stillOff(_ reason: String) -> PublishedEvent? {
            outage.failed(reason, now: now)
            s.outage = outage
            log("event journal still off: \(reason); next attempt in \(Int(outage.retryIn(now) ?? 0)) s", .warning)
            return nil
        }
        var replaced: String?
        let journal: EventJournal
        do {
            if let kept = s.journal {
                journal = kept
            } else {
                let opened = try Self.open(path, limits: limits, state: &s, now: now, log: log)
                journal = opened.0
                replaced = opened.1
                s.seq = max(s.seq, try journal.lastSeq())
            }
        } catch {
            return stillOff(error.description)
        }
        // Past the last seq clients accept there is nothing to number the JOURNAL event with (`unnumbered`).
        guard s.seq < EventPosition.maxSeq else { return nil }
        let seq = s.seq + 1
        var message = replaced ?? "event journal \(journal.id) on again"
        if replaced == nil, let previous = s.journalID, previous != journal.id {
            message =
                "new event journal \(journal.id) started after seq \(journal.base): \(outage.reason); since positions from journal \(previous) are not in it"
        }
        if let gap = outage.missed {
            message += "; seq \(gap.first)…\(gap.last) (\(gap.events) events) were published live only and are not in it"
        }
        let notice = JournalNotice(state: .on, journal: journal.id, notJournaled: outage.missed, message: message)
        let line = EventEncoder.line(.journal(notice), stamp: EventStamp(boot: boot, seq: seq))
        do {
            try journal.append(seq: seq, boot: boot, eventClass: Event.Class.journal.rawValue, line: line, at: now)
        } catch {
            s.journal = journal
            if error.kind == .corrupt {
                // Damaged as soon as opened: set it aside at the next attempt.
                journal.close()
                s.journal = nil
                s.setAside = true
            }
            return stillOff(error.description)
        }
        s.seq = seq
        record(seq)
        s.journal = journal
        s.journalID = journal.id
        s.outage = nil
        s.lastGap = outage.missed
        s.span = try? journal.span()
        s.appendsSinceSpan = 0
        log(message, .notice)
        return PublishedEvent(event: .journal(notice), line: line, seq: seq, journaled: true)
    }

    /// Keeps `seq` as the last published, before the event goes out.
    private func record(_ seq: Int) {
        guard let published, let error = published.record(seq) else { return }
        // Said at most once a minute: a full disk rarely fails an overwrite in place, but may.
        let now = Date().timeIntervalSince1970
        let due = state.withLockedValue { s in
            guard now - s.publishedFailureLogged >= 60 else { return false }
            s.publishedFailureLogged = now
            return true
        }
        if due { log("cannot write \(published.path) (\(String(cString: strerror(error)))): a crash now may go unnoticed", .warning) }
    }

    /// Numbers `event` (the next seq) and journals it (or counts it as missed while the journal is off).
    private func number(_ event: Event, now: Double) -> PublishedEvent {
        let seq: Int? = state.withLockedValue { s in
            guard s.seq < EventPosition.maxSeq else { return nil }
            s.seq += 1
            return s.seq
        }
        guard let seq else { return unnumbered(event) }
        let line = EventEncoder.line(event, stamp: EventStamp(boot: boot, seq: seq))
        let published = append(event, seq: seq, line: line, now: now)
        // Kept after the journal's commit and before the event goes out: a seq in the file was published.
        record(seq)
        return published
    }

    /// An event past the last seq clients accept (2^53−1, after 2^40 events in one run: a start refuses to
    /// number on from beyond `EventJournal.maxResumeSeq`): published live without a seq, never numbered past.
    private func unnumbered(_ event: Event) -> PublishedEvent {
        let first = state.withLockedValue { s in
            defer { s.numberingEnded = true }
            return !s.numberingEnded
        }
        if first {
            log(
                "the numbering reached seq \(EventPosition.maxSeq), the last clients accept: events are published live only, without a seq; restart scand to start a new journal",
                .error)
        }
        return PublishedEvent(event: event, line: EventEncoder.line(event, stamp: EventStamp(boot: boot)))
    }

    /// The numbering as after `seq` events: the one way to its end within a test.
    func numberOn(after seq: Int) { state.withLockedValue { $0.seq = seq } }

    /// Numbers and journals one event, then a JOURNAL event if the journal just went off with it.
    private func append(_ event: Event, now: Double) -> [PublishedEvent] {
        let published = number(event, now: now)
        guard !published.journaled, let seq = published.seq, let outage = state.withLockedValue({ $0.outage }),
            outage.missed == JournalGap(first: seq, last: seq), outage.retries
        else { return [published] }
        // The journal just went off: say so to everyone watching, live (this event is not journaled either).
        let retryIn = Int(outage.retryIn(now) ?? 0)
        let notice = JournalNotice(
            state: .off, message: "event journal off from seq \(seq): \(outage.reason); events are published live only; next attempt in \(retryIn) s")
        return [published, number(.journal(notice), now: now)]
    }

    /// Journals `line` (numbered `seq`) unless the journal is off; a failure switches it off.
    private func append(_ event: Event, seq: Int, line: String, now: Double) -> PublishedEvent {
        let journal: EventJournal? = state.withLockedValue { s in
            guard s.outage == nil, let j = s.journal else {
                s.outage?.missed(seq)
                return nil
            }
            return j
        }
        guard let journal else { return PublishedEvent(event: event, line: line, seq: seq) }
        do {
            try journal.append(seq: seq, boot: boot, eventClass: event.eventClass.rawValue, line: line, at: now)
        } catch {
            state.withLockedValue { s in
                var outage = JournalOutage(reason: error.description, now: now)
                outage.missed(seq)
                s.outage = outage
                if error.kind == .corrupt {
                    journal.close()
                    s.journal = nil
                    s.setAside = true
                }
            }
            log("event journal off: \(error.description); events are published live only from seq \(seq) on (next attempt in 1 s)", .error)
            return PublishedEvent(event: event, line: line, seq: seq)
        }
        let refresh = state.withLockedValue { s in
            s.appendsSinceSpan += 1
            guard s.span == nil || s.appendsSinceSpan >= 64 else {
                s.span?.last = seq
                s.span?.events += 1
                return false
            }
            s.appendsSinceSpan = 0
            return true
        }
        if refresh, let span = try? journal.span() { state.withLockedValue { $0.span = span } }
        return PublishedEvent(event: event, line: line, seq: seq, journaled: true)
    }
}
