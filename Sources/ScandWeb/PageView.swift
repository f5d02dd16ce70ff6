import ScandCore
import ScandProtocol

/// What a setup page shows that the events alone give it only as they come: the codes in view and the last
/// scans. Kept by `PageHub` from every event it passes on, and sent first to each page that opens (a VIEW
/// line), so a person aiming the camera sees the code already in view, and what was scanned, at once; with
/// `update_interval` at 0 nothing else would come until a code changed.
struct PageView: Sendable, Equatable {
    /// The scans a page lists.
    static let recentLimit = 10

    /// The codes in view, each with its newest SCAN or UPDATE line, in the order they came.
    private(set) var inView: [(id: Int, line: String)] = []
    /// The last scans, oldest first.
    private(set) var recent: [String] = []

    static func == (a: PageView, b: PageView) -> Bool {
        a.inView.map(\.id) == b.inView.map(\.id) && a.inView.map(\.line) == b.inView.map(\.line) && a.recent == b.recent
    }

    mutating func take(_ event: ReceivedEvent) {
        switch event.eventClass {
        case .scan, .update:
            guard let id = event.code?.id else { return }
            // Replayed (scand web's start, a daemon restart) or live, as it was published live.
            if event.eventClass == .scan {
                recent.append(event.liveLine)
                if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
            }
            if let i = inView.firstIndex(where: { $0.id == id }) {
                inView[i].line = event.liveLine
            } else {
                inView.append((id, event.liveLine))
            }
        case .lost:
            guard let id = event.code?.id else { return }
            inView.removeAll { $0.id == id }
        case .device:
            // A camera that is not streaming shows no code (the page clears its outlines the same way).
            if !event.line.contains(#""state":"streaming""#) { inView.removeAll() }
        default:
            return
        }
    }

    mutating func clearInView() { inView.removeAll() }

    /// The VIEW line a page gets first: `{"class":"VIEW","scans":[SCAN…],"inView":[SCAN or UPDATE…]}`, the
    /// daemon's own lines inside; nil when there is nothing to show.
    var line: String? {
        guard !inView.isEmpty || !recent.isEmpty else { return nil }
        return #"{"class":"VIEW","scans":["# + recent.joined(separator: ",") + #"],"inView":["#
            + inView.map(\.line).joined(separator: ",") + "]}"
    }
}
