import ScandCore
import ScandProtocol

/// The `id:` of an event on /events, `BOOT:SEQ` (the daemon's boot and the event's seq), which the browser
/// sends back as `Last-Event-ID` when it reconnects: the position to resume from. An HTTP concern; the
/// position itself is ScandCore's `EventPosition`.
enum EventStreamID {
    static func text(_ position: EventPosition) -> String { "\(position.boot):\(position.seq)" }

    /// The position of `BOOT:SEQ` (32 lowercase hex digits, a seq in 1…`EventPosition.maxSeq`), nil for
    /// anything else: a seq beyond would reach the daemon's arithmetic.
    static func position(_ text: some StringProtocol) -> EventPosition? {
        guard text.utf8.count <= 52 else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, EventPosition.isBootID(parts[0]), (1...19).contains(parts[1].count),
            parts[1].allSatisfy({ ("0"..."9").contains($0) }), let seq = Int(parts[1]), EventPosition.isSeq(seq)
        else { return nil }
        return EventPosition(boot: String(parts[0]), seq: seq)
    }
}
