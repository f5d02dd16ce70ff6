import ScandCore
import ScandProtocol

/// What a GET /events asks for: the classes and formats (as `?WATCH` filters them, spelled as `scand watch
/// --classes SCAN,LOST --formats qr` does), where to resume (the `Last-Event-ID` header an EventSource
/// sends when it reconnects, else the `lastEventId` query parameter a page sets after a reload), and
/// whether a stream that starts live begins with a VIEW (`view=1`, the setup page's).
struct EventStreamRequest: Equatable {
    var watch: ClientRequest.Watch
    var since: EventPosition?
    /// A VIEW first, of the codes in view and the last scans, when the stream does not resume (a resumed
    /// stream catches up instead, and a VIEW would repeat what its client has).
    var view = false

    /// The classes /events serves: the journaled ones, which carry the position a client resumes from.
    static let classes: [Event.Class] = [.device, .journal, .lost, .scan, .stats, .update]
    static let defaultClasses: Set<Event.Class> = [.scan]

    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    init(
        classes: String?, formats: String?, view: String? = nil, lastEventID header: String?, lastEventID query: String?
    ) throws(Problem) {
        watch = ClientRequest.Watch(enable: true, classes: Self.defaultClasses)
        if let classes {
            let known = Self.classes.map(\.rawValue).joined(separator: ", ")
            var chosen: Set<Event.Class> = []
            for name in classes.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).uppercased() }) {
                guard let c = Event.Class(rawValue: name), Self.classes.contains(c) else {
                    throw Problem(description: "classes: unknown or unserved event class '\(name.prefix(32))' (known: \(known))")
                }
                chosen.insert(c)
            }
            guard !chosen.isEmpty else { throw Problem(description: "classes: name at least one of \(known)") }
            watch.classes = chosen
        }
        if let formats {
            do { watch.formats = try BarcodeFormats.parse(formats) } catch { throw Problem(description: "formats: \(error.description)") }
        }
        switch view {
        case nil, "0": break
        case "1": self.view = true
        case let other?: throw Problem(description: "view must be 1 or 0, got '\(other.prefix(16))'")
        }
        // The header is the browser's own bookkeeping and newer than a URL written at page load.
        for (value, name) in [(header, "Last-Event-ID"), (query, "lastEventId")] {
            guard let value, !value.isEmpty else { continue }
            guard let position = EventStreamID.position(value) else {
                throw Problem(description: "\(name) must be an event's id, BOOT:SEQ, got '\(value.prefix(64))'")
            }
            since = position
            break
        }
    }
}
