import Foundation
import ScandCore

/// One line the daemon sent, as a client reads it: its class and stamp, typed; the answers to requests
/// typed whole (`event`); the line itself, to relay or print as the daemon wrote it.
public struct ReceivedEvent: Sendable, Equatable {
    public var eventClass: Event.Class
    /// The daemon's boot, and the sequence number of a journaled event (what `since` resumes from).
    public var stamp: EventStamp?
    /// VERSION, WATCH, ERROR, ROI, SNAPSHOT and METRICS, decoded; nil for the others (events and STATUS),
    /// which clients pass on as `line`.
    public var event: Event?
    /// The line, without its newline.
    public var line: String
    /// A SCAN's code: what a client that acts on scans (the keyboard wedge) needs of it.
    public var scannedCode: ScannedCode?

    public init(eventClass: Event.Class, stamp: EventStamp?, event: Event?, line: String, scannedCode: ScannedCode? = nil) {
        self.eventClass = eventClass
        self.stamp = stamp
        self.event = event
        self.line = line
        self.scannedCode = scannedCode
    }

    /// The message of an ERROR.
    public var errorMessage: String? {
        if case .error(let message)? = event { message } else { nil }
    }

    /// Where the event stands in the daemon's numbering, when it is journaled.
    public var position: EventPosition? { stamp?.position }
}

/// A SCAN's `format`, `text` and `time`, decoded.
public struct ScannedCode: Sendable, Equatable {
    /// nil for a format name this client does not know (a newer daemon's).
    public var format: BarcodeFormat?
    public var text: String
    public var time: Date?

    public init(format: BarcodeFormat?, text: String, time: Date?) {
        self.format = format
        self.text = text
        self.time = time
    }
}
