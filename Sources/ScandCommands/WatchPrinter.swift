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

    init(output: Output, classes: Set<Event.Class>?, count: Int?) {
        self.output = output
        self.classes = output == .json ? classes : [.scan]
        self.count = count
    }

    mutating func take(_ step: SubscriptionLoop.Step) -> [Action] {
        switch step {
        case .lost(_, let reason):
            return reason.map { [.warn("\($0); trying again")] } ?? []
        case .subscribed(let again, let afterOutage):
            // Said only after a loss was: a watcher that found the daemon at once starts quietly.
            return afterOutage ? [.warn(again ? "subscribed again" : "scand answers: subscribed")] : []
        case .event(let line):
            var actions: [Action] = []
            // A refusal after the WATCH (a `since` the journal cannot answer) is news for the person, not data.
            if let message = line.errorMessage { return [.warn("scand: \(message)")] }
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
