/// One connection's answers in the order its requests came. An answer that takes time (a snapshot, a new
/// rect of interest) holds back the answers after it, so a client that pipelines reads each answer where it
/// asked. Snapshots may wait together (they change nothing and share a frame); any other request starts
/// only once every answer before it is out, so that it sees what they did (a `?STATUS;` after `?ROI=`
/// shows the new rect). No I/O: the client handler starts requests and writes the lines this returns.
struct ReplyOrder {
    enum Kind: Equatable {
        case snapshot
        case other
    }

    /// Requests whose answers wait, oldest first; `line` once answered.
    private var slots: [(kind: Kind, line: String?)] = []
    /// The ticket of `slots.first`.
    private var head = 0
    /// Answers (given or not) waiting at most: past it the connection stops reading.
    let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// Whether a request of `kind` may start now.
    func mayStart(_ kind: Kind) -> Bool {
        guard slots.count < limit else { return false }
        return slots.isEmpty || (kind == .snapshot && slots.allSatisfy { $0.kind == .snapshot })
    }

    /// Snapshots started and not answered yet.
    var snapshotsWaiting: Int { slots.count(where: { $0.kind == .snapshot && $0.line == nil }) }

    var isEmpty: Bool { slots.isEmpty }

    /// A place for the answer of a request that starts now; give it with `answer`.
    mutating func reserve(_ kind: Kind) -> Int {
        slots.append((kind, nil))
        return head + slots.count - 1
    }

    /// The answer for `ticket`; returns the lines that may go out now, in order.
    mutating func answer(_ ticket: Int, _ line: String) -> [String] {
        let i = ticket - head
        guard slots.indices.contains(i), slots[i].line == nil else { return [] }
        slots[i].line = line
        var ready: [String] = []
        while let first = slots.first, let line = first.line {
            ready.append(line)
            slots.removeFirst()
            head += 1
        }
        return ready
    }
}
