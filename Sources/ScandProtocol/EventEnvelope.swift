import ScandCore

/// The head of a published event line, as the wire contract fixes it:
/// `{"class":"SCAN","boot":"<32 hex>","seq":N,…}` (VERSION: `{"class":"VERSION","boot":"…",…}`), and for
/// an event replayed from the journal `,"replayed":true` appended last. Lines of a daemon older than that
/// contract have neither boot nor seq; they still have their class.
public struct EventEnvelope: Sendable, Equatable {
    /// `SCAN`, `DEVICE`, … as written.
    public var eventClass: String
    public var boot: String?
    public var seq: Int?
    public var replayed: Bool
    /// The line as it was published live: without the replayed flag, so a message is the same bytes
    /// whether it came live or from the journal.
    public var liveLine: String

    public var position: EventPosition? {
        guard let boot, let seq else { return nil }
        return EventPosition(boot: boot, seq: seq)
    }

    static let replayedSuffix = #","replayed":true}"#

    /// nil when the line is not a JSON object starting with a `class` (what no version of scand sends).
    public static func parse(_ line: String) -> EventEnvelope? {
        var line = line
        while line.last == "\r" || line.last == "\n" { line.removeLast() }
        let replayed = line.hasSuffix(replayedSuffix)
        let live = removingReplayMark(line)
        var s = JSONPrefixScanner(live)
        guard s.take("{"), s.take("\"class\""), s.take(":"), let eventClass = s.string(), !eventClass.isEmpty,
            eventClass.utf8.allSatisfy({ (0x41...0x5A).contains($0) })
        else { return nil }
        var envelope = EventEnvelope(eventClass: eventClass, boot: nil, seq: nil, replayed: replayed, liveLine: live)
        guard s.take(","), s.take("\"boot\""), s.take(":"), let boot = s.string(), EventPosition.isBootID(boot) else { return envelope }
        envelope.boot = boot
        if s.take(","), s.take("\"seq\""), s.take(":"), let seq = s.integer(), EventPosition.isSeq(seq) { envelope.seq = seq }
        return envelope
    }

    /// A replayed line as it was published live: without its `"replayed":true`; any other line as it is.
    public static func removingReplayMark(_ line: String) -> String {
        guard line.hasSuffix(replayedSuffix) else { return line }
        return String(line.dropLast(replayedSuffix.utf8.count)) + "}"
    }

    /// A journaled line as a replay sends it: the same object with `"replayed":true` last.
    public static func markingReplayed(_ line: String) -> String {
        guard line.hasSuffix("}") else { return line }
        return String(line.dropLast()) + replayedSuffix
    }
}
