/// One connection's answers in the order its requests came. An answer that takes time (a snapshot, a new
/// rect of interest) holds back the answers after it, so a client that pipelines reads each answer where it
/// asked. No I/O: the client's writer reserves places and writes the lines this returns; when a request may
/// start is `RequestReader`'s.
struct ReplyOrder {
    enum Kind: Equatable, Sendable {
        case snapshot
        case other
    }

    /// Requests whose answers wait, oldest first; the line once answered.
    private var slots: [String?] = []
    /// The ticket of `slots.first`: the number of answers out.
    private(set) var answered = 0

    /// A place for the answer of a request that starts now; give it with `answer`.
    mutating func reserve() -> Int {
        slots.append(nil)
        return answered + slots.count - 1
    }

    /// The answer for `ticket`; returns the lines that may go out now, in order.
    mutating func answer(_ ticket: Int, _ line: String) -> [String] {
        let i = ticket - answered
        guard slots.indices.contains(i), slots[i] == nil else { return [] }
        slots[i] = line
        var ready: [String] = []
        while let first = slots.first, let line = first {
            ready.append(line)
            slots.removeFirst()
            answered += 1
        }
        return ready
    }
}
