/// One line the daemon sent, as a client reads it: its class and stamp, typed; the answers to requests
/// typed whole (`event`); the line itself, to relay or print as the daemon wrote it.
public struct ReceivedEvent: Sendable, Equatable {
    public var eventClass: Event.Class
    /// The daemon's boot, and the sequence number of a journaled event (what `since` resumes from).
    public var stamp: EventStamp?
    /// VERSION, WATCH, ERROR, ROI, CONTROLS, SNAPSHOT and METRICS, decoded; nil for the others (events and STATUS),
    /// which clients pass on as `line`.
    public var event: Event?
    /// SCAN, UPDATE and LOST: the code's id, format and text.
    public var code: ReceivedCode?
    /// The line, without its newline.
    public var line: String

    public init(eventClass: Event.Class, stamp: EventStamp?, event: Event?, code: ReceivedCode? = nil, line: String) {
        self.eventClass = eventClass
        self.stamp = stamp
        self.event = event
        self.code = code
        self.line = line
    }

    /// The message of an ERROR.
    public var errorMessage: String? {
        if case .error(let message)? = event { message } else { nil }
    }

    /// Where the event stands in the daemon's numbering, when it is journaled.
    public var position: EventPosition? { stamp?.position }

    /// The line as it was published live, without a replay's `"replayed":true`: the same bytes whether it
    /// came live or from the journal.
    public var liveLine: String {
        stamp?.replayed == true ? EventEncoder.removingReplayMark(line) : line
    }
}
