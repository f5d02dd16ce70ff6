import ScandProtocol

/// The text/event-stream framing of /events: one daemon line as one event, its class as the event's type
/// (`addEventListener("SCAN", …)`) and its position as its id. The daemon's lines are one line of JSON
/// each (its encoder escapes every control character), so one `data:` field carries a whole line.
enum ServerSentEvent {
    /// How long a browser waits before it reconnects, in milliseconds (sent once, first).
    static let retryMilliseconds = 2000

    static let prelude = "retry: \(retryMilliseconds)\n\n"

    /// A comment: ignored by EventSource, it keeps proxies and NAT from closing an idle stream and shows
    /// a client that is gone.
    static let keepalive = ": keepalive\n\n"

    /// `PageView`'s line, which has no position: a resumed stream never gets one.
    static func view(_ line: String) -> String {
        "event: VIEW\ndata: \(line)\n\n"
    }

    static func frame(_ line: ReceivedEvent) -> String {
        // A stray CR or LF would end the field early: never in the daemon's lines, cut rather than trusted.
        let data = line.line.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined()
        var frame = "event: \(line.eventClass.rawValue)\n"
        if let position = line.position { frame += "id: \(EventStreamID.text(position))\n" }
        return frame + "data: \(data)\n\n"
    }
}
