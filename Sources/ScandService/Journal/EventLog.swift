import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol
import ScandJournal

/// The daemon's numbering of its events and their journal: each DEVICE, SCAN, UPDATE, LOST and STATS gets
/// the next seq under this boot and is appended to the journal before it is published. A journal that
/// cannot be opened or written is logged once and switched off; numbering and publishing go on.
public final class EventLog: Sendable {
    public static let fileName = "journal.sqlite"

    public let boot: String
    private struct State {
        var seq: Int
        var journal: EventJournal?
        var offReason: String?
        /// What the journal holds, refreshed when it may have been pruned (STATUS reads it on the event loop).
        var span: JournalSpan?
        var appendsSinceSpan = 0
    }
    private let state: NIOLockedValueBox<State>
    private let log: @Sendable (String, LogLevel) -> Void

    /// Opens `<directory>/journal.sqlite` (no directory: no journal, said once).
    public init(directory: String?, limits: EventJournal.Limits, log: @escaping @Sendable (String, LogLevel) -> Void) {
        var random = SystemRandomNumberGenerator()
        boot = EventPosition.randomBootID(using: &random)
        self.log = log
        var s = State(seq: 0)
        if let directory {
            // systemd creates StateDirectory=; a directory given by hand may not exist yet.
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            do {
                let journal = try EventJournal.open(path: directory + "/" + Self.fileName, limits: limits)
                s.seq = try journal.lastSeq()
                s.span = try journal.span()
                s.journal = journal
            } catch {
                s.offReason = error.description
                log("event journal off: \(error.description); events are published live only, and since cannot be answered", .error)
            }
        } else {
            s.offReason = "no state directory ([service] state_directory, or systemd's $STATE_DIRECTORY)"
        }
        state = NIOLockedValueBox(s)
    }

    /// The journal to replay from, or why there is none.
    public var journal: Result<EventJournal, JournalError> {
        state.withLockedValue { s in
            if let j = s.journal { return .success(j) }
            return .failure(JournalError(kind: .unavailable, description: s.offReason ?? "off"))
        }
    }

    public var status: JournalStatus {
        state.withLockedValue { s in
            s.journal != nil ? .on(s.span, boot: boot) : .off(reason: s.offReason ?? "off", boot: boot)
        }
    }

    /// VERSION's stamp: the boot alone.
    public var versionStamp: EventStamp { EventStamp(boot: boot) }

    /// Numbers, encodes and journals one event; callers publish them one at a time, in order.
    public func stamp(_ event: Event, now: Double = Date().timeIntervalSince1970) -> PublishedEvent {
        guard event.isJournaled else {
            let stamp: EventStamp? = if case .version = event { versionStamp } else { nil }
            return PublishedEvent(event: event, line: EventEncoder.line(event, stamp: stamp))
        }
        let (seq, journal) = state.withLockedValue { s in
            s.seq += 1
            return (s.seq, s.journal)
        }
        let line = EventEncoder.line(event, stamp: EventStamp(boot: boot, seq: seq))
        guard let journal else { return PublishedEvent(event: event, line: line, seq: seq) }
        do {
            try journal.append(seq: seq, boot: boot, eventClass: event.eventClass.rawValue, line: line, at: now)
        } catch {
            state.withLockedValue { s in
                s.journal = nil
                s.offReason = error.description
            }
            log("event journal off: \(error.description); events are published live only from seq \(seq) on", .error)
            return PublishedEvent(event: event, line: line, seq: seq)
        }
        let refresh = state.withLockedValue { s in
            s.appendsSinceSpan += 1
            guard s.span == nil || s.appendsSinceSpan >= 64 else {
                s.span?.last = seq
                return false
            }
            s.appendsSinceSpan = 0
            return true
        }
        if refresh, let span = try? journal.span() { state.withLockedValue { $0.span = span } }
        return PublishedEvent(event: event, line: line, seq: seq, journaled: true)
    }
}
