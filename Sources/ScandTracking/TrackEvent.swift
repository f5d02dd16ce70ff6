import ScandCore

/// What the tracker reports.
public enum TrackEvent: Sendable, Equatable {
    /// A code was confirmed: once per appearance (not again while it stays in view or comes back within
    /// the forget time).
    case scan(id: Int, Detection)
    /// New corners of a code in view, at most every `updateInterval`.
    case update(id: Int, Detection)
    /// The code has not been seen for `lostAfter`.
    case lost(id: Int, Detection)

    public var id: Int {
        switch self {
        case .scan(let id, _), .update(let id, _), .lost(let id, _): id
        }
    }

    public var detection: Detection {
        switch self {
        case .scan(_, let d), .update(_, let d), .lost(_, let d): d
        }
    }
}
