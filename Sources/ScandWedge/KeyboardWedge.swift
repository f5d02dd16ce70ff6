import Foundation
import ScandCore
import ScandPayload
import ScandProtocol

/// The wedge's decisions, with no I/O: which of the SCANs its ?WATCH filter passes are typed, and as what. Each SCAN the daemon sends is
/// typed at most once: its position is persisted before its keys go out (a crash mid-code loses the rest of
/// that code rather than typing it twice), a replay after a restart skips what was typed already, and a
/// replayed SCAN older than `replayMaxAge` is not typed into whatever the kiosk shows now.
public struct KeyboardWedge: Sendable {
    /// What the wedge needs of a SCAN line (decoded by ScandProtocol).
    public struct Scan: Sendable, Equatable {
        public var position: EventPosition?
        public var replayed: Bool
        public var format: BarcodeFormat?
        public var text: String
        /// When the code was scanned.
        public var time: Date?

        public init(position: EventPosition?, replayed: Bool, format: BarcodeFormat?, text: String, time: Date?) {
            (self.position, self.replayed, self.format, self.text, self.time) = (position, replayed, format, text, time)
        }
    }

    public enum Action: Sendable, Equatable {
        /// Keep this position as typed (before the keys go out).
        case persist(EventPosition)
        case type([KeyEvent])
        /// One line for the log: a refusal, what was dropped, what was skipped.
        case log(String)
    }

    /// What the wedge did since it started.
    public struct Counters: Sendable, Equatable {
        public var typed = 0
        /// Codes not typed because the layout cannot type one of their characters.
        public var refused = 0
        /// Control characters left out of typed codes.
        public var droppedControls = 0
        public var replacedSeparators = 0
        /// Replayed SCANs not typed: older than the replay window.
        public var skippedStale = 0
        public init() {}
    }

    public let planner: KeystrokePlanner
    public let replayMaxAge: Duration?
    public let digitalLink: WedgeSettings.DigitalLink
    /// The last position typed (or decided not to type); where a restart resumes with `since`.
    public private(set) var typedUpTo: EventPosition?
    public private(set) var counters = Counters()
    /// After the daemon said the `since` is not in its journal: the replay is from another numbering.
    private var acceptAnySeq = false

    /// - Parameters:
    ///   - replayMaxAge: nil types every replayed SCAN, however old.
    ///   - digitalLink: `.elementString` types a GS1 Digital Link as its element string.
    public init(
        planner: KeystrokePlanner, typedUpTo: EventPosition? = nil, replayMaxAge: Duration? = .seconds(60),
        digitalLink: WedgeSettings.DigitalLink = .uri
    ) {
        self.planner = planner
        self.typedUpTo = typedUpTo
        self.replayMaxAge = replayMaxAge
        self.digitalLink = digitalLink
    }

    /// The daemon could not replay from `typedUpTo` (an ERROR answered the WATCH): what follows is taken
    /// whatever its seq.
    public mutating func sinceNotKept() { acceptAnySeq = true }

    public mutating func handle(_ scan: Scan, now: Date) -> [Action] {
        var actions: [Action] = []
        if let position = scan.position {
            if let typedUpTo, position.seq <= typedUpTo.seq, !acceptAnySeq { return [] }  // typed before a restart
            acceptAnySeq = false
            typedUpTo = position
            actions.append(.persist(position))
        }
        if scan.replayed, let replayMaxAge, let time = scan.time, now.timeIntervalSince(time) > replayMaxAge.inSeconds {
            counters.skippedStale += 1
            return actions + [
                .log(
                    "not typing a \(scan.format?.name ?? "code") scanned at \(Self.clock(time)), while the wedge was away: older than replay_max_age")
            ]
        }
        switch planner.plan(text(of: scan)) {
        case .refused(let character):
            counters.refused += 1
            actions.append(
                .log(
                    "not typing a \(scan.format?.name ?? "code") of \(scan.text.count) characters: the \(planner.layout.name.rawValue) layout cannot type \(KeystrokePlanner.describe(character)); nothing of it was typed"
                ))
        case .type(let events, let dropped, let replaced):
            counters.typed += 1
            counters.droppedControls += dropped
            counters.replacedSeparators += replaced
            actions.append(.type(events))
            if dropped > 0 {
                actions.append(
                    .log(
                        "typed a \(scan.format?.name ?? "code") without its \(dropped) control character\(dropped == 1 ? "" : "s") (never typed as keys)"
                    ))
            }
        }
        return actions
    }

    /// What is typed for a scan: its text, or a Digital Link's element string, whose GS separators the
    /// planner then treats as those of any GS1 code.
    func text(of scan: Scan) -> String {
        guard digitalLink == .elementString, let gs1 = Payload.GS1(digitalLink: scan.text) else { return scan.text }
        return gs1.elementString
    }

    static func clock(_ date: Date) -> String {
        let t = Int(date.timeIntervalSince1970)
        var seconds = time_t(t)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d UTC", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
