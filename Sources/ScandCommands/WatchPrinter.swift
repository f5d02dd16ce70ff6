import ScandClient
import ScandCore
import ScandProtocol

/// What `scand watch` does with each line of its subscription, decided without I/O: print it (JSON, or the
/// text alone with `--raw`), run the `--exec` command for a scan, warn on stderr, or stop after `--count`
/// scans. The VERSION banner and the WATCH answer are printed only when asked for by class (or when no
/// class was named), so `--classes SCAN` prints SCANs and nothing else.
struct WatchPrinter {
    enum Output: Equatable {
        /// JSON lines, as the daemon wrote them (control characters escaped once more).
        case json
        /// The text of each SCAN, one per line, as `zbarcam --raw`.
        case raw
        /// No printing: the `--exec` command is run for each SCAN.
        case exec
    }

    enum Action: Equatable {
        case print(String)
        case warn(String)
        case run(ReceivedCode, ReceivedEvent)
        /// `--count` scans were taken: exit 0.
        case finished
    }

    let output: Output
    /// The classes asked for; nil prints every line.
    let classes: Set<Event.Class>?
    let count: Int?
    private(set) var scans = 0
    /// The reason of the last loss reported, so a daemon that stays away is one line, not one per attempt.
    private var lastLoss: String?
    /// Whether a subscription was confirmed before: the next one is a subscription again, the first is not.
    private var subscribed = false

    init(output: Output, classes: Set<Event.Class>?, count: Int?) {
        self.output = output
        self.classes = output == .json ? classes : [.scan]
        self.count = count
    }

    mutating func take(_ element: EventSubscription.Element) -> [Action] {
        switch element {
        case .lost(let error):
            let reason = error.description
            defer { lastLoss = reason }
            return reason == lastLoss ? [] : [.warn("\(reason); trying again")]
        case .event(let line):
            var actions: [Action] = []
            if line.eventClass == .watch {
                // Said only after a loss was: a watcher that found the daemon at once starts quietly.
                if lastLoss != nil { actions.append(.warn(subscribed ? "subscribed again" : "scand answers: subscribed")) }
                lastLoss = nil
                subscribed = true
            }
            // A refusal after the WATCH (a `since` the journal cannot answer) is news for the person, not data.
            if let message = line.errorMessage { return actions + [.warn("scand: \(message)")] }
            guard classes?.contains(line.eventClass) ?? true else { return actions }
            switch output {
            case .json:
                actions.append(.print(line.line.escapingControlCharacters()))
            case .raw:
                guard let text = line.code?.text else { return actions }
                actions.append(.print(text.escapingControlCharacters()))
            case .exec:
                guard let code = line.code, code.text != nil else { return actions }
                actions.append(.run(code, line))
            }
            guard line.eventClass == .scan, line.code != nil else { return actions }
            scans += 1
            if let count, scans >= count { actions.append(.finished) }
            return actions
        }
    }
}
