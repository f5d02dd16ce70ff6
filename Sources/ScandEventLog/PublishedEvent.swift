import ScandProtocol

/// An event as the daemon publishes it: encoded once (stamped with its boot and seq), with its seq and
/// whether the journal holds it, for stdout, every socket client and the replays in progress.
public struct PublishedEvent: Sendable {
    public var event: Event
    public var line: String
    public var seq: Int?
    public var journaled: Bool

    public init(event: Event, line: String, seq: Int? = nil, journaled: Bool = false) {
        self.event = event
        self.line = line
        self.seq = seq
        self.journaled = journaled
    }

    /// An event outside the numbering (tests, replies): its plain line.
    public init(_ event: Event) { self.init(event: event, line: event.line) }
}
