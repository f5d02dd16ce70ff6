/// Where a published event stands, written right after its `class`: the daemon's boot id, its sequence
/// number (events the journal keeps: DEVICE, SCAN, UPDATE, LOST, STATS, JOURNAL; VERSION has only the boot), and
/// for a line replayed from the journal `"replayed":true` at the end.
public struct EventStamp: Sendable, Equatable {
    public var boot: String
    public var seq: Int?
    public var replayed: Bool

    public init(boot: String, seq: Int? = nil, replayed: Bool = false) {
        self.boot = boot
        self.seq = seq
        self.replayed = replayed
    }

    public var position: EventPosition? { seq.map { EventPosition(boot: boot, seq: $0) } }
}

extension Event {
    /// Whether the daemon numbers and journals this event: what happened at the camera, not replies.
    public var isJournaled: Bool {
        switch self {
        case .device, .scan, .update, .lost, .stats, .journal: true
        default: false
        }
    }
}
