import ScandCore
import ScandProtocol

/// The logic of `scand mqtt`, without I/O: the daemon's events in, QoS 1 publishes out, PUBACKs in, and the
/// acknowledged position to persist. The driver carries out the actions and feeds back what happened. At
/// most `maxInFlight` events are held between the socket and their PUBACK, and each is handed to the MQTT
/// client once (only one it refused outright again): docs/fleet.md, "Back-pressure" and "One owner of
/// retransmission".
public struct MQTTBridge: Sendable {
    public enum Input: Sendable, Equatable {
        /// The daemon confirmed the WATCH (the first, or one the subscription made again).
        case daemonConnected
        /// One line from the daemon, decoded.
        case line(ReceivedEvent)
        /// `publish` with this ticket was handed to the MQTT client as message `mid` (queued while disconnected).
        case published(ticket: Int, mid: Int32)
        /// The MQTT client refused the message outright: it is handed over again on `brokerConnected`.
        case publishFailed(ticket: Int)
        /// The retained status went to the client as message `mid`; nil: refused.
        case statusPublished(mid: Int32?)
        /// The broker acknowledged message `mid` (PUBACK).
        case acknowledged(mid: Int32)
        case brokerConnected
        case brokerDisconnected
    }

    public enum Action: Sendable, Equatable {
        /// Subscribe to the daemon so (once: the subscription itself connects again and resumes).
        case subscribe(ClientRequest.Watch)
        /// Stop reading the socket: `inFlight` events wait for the broker.
        case pauseReading(inFlight: Int)
        case resumeReading
        /// Publish at QoS 1, then report `published` or `publishFailed` with the ticket.
        case publish(ticket: Int, topic: String, payload: String)
        /// Publish the retained status (QoS 1), then report `statusPublished`.
        case publishStatus(topic: String, payload: String)
        /// Write this position to the state file: every event up to it was acknowledged.
        case persist(EventPosition)
        case log(String)
    }

    struct Entry {
        var ticket: Int
        var position: EventPosition?
        var topic: String
        var payload: String
        /// The message id the client took it as; nil until then (or after the client refused it).
        var mid: Int32?
        var acknowledged = false
    }

    /// The position before every event of any journal: a `since` no daemon holds (its boot is no random
    /// one), which the daemon answers with an ERROR and everything its journal keeps, then live events.
    /// A new bridge starts from it, and so does one whose state file cannot be read.
    public static let journalStart = EventPosition(boot: String(repeating: "0", count: 32), seq: 1)

    public let kioskID: String
    /// The topics' first levels (`[mqtt] topic_prefix`, checked there).
    public let topicPrefix: String
    /// The classes and formats asked of the daemon (nil: all): it sends no other event, live or replayed,
    /// so what is acknowledged is the last event it sent, and a `since` from there skips no wanted one.
    public let classes: Set<Event.Class>?
    public let formats: BarcodeFormats?
    public let maxInFlight: Int
    let release: String
    /// The last position persisted (or read from the state file at start); nil only for a bridge started
    /// `now` that has neither taken an event nor had the daemon's answer to its WATCH yet.
    public private(set) var acknowledged: EventPosition?
    /// The last numbered event taken from the daemon: where a new subscription starts.
    public private(set) var received: EventPosition?
    private var window: [Entry] = []
    private var tickets: [Int32: Int] = [:]
    private var nextTicket = 1
    /// The retained status the client holds unacknowledged: it sends it again itself, so no second one.
    private var statusMid: Int32?
    private var paused = false
    /// After an ERROR (a `since` the journal no longer holds), numbering may start over: take what comes.
    private var acceptAnySeq = false
    /// The current subscription asked for the whole journal: its ERROR is the expected answer.
    private var subscribedFromJournalStart = false
    private var warnedUnnumbered = false

    /// `acknowledged`: the state file's position; nil without one, when `start` says where to begin.
    public init(
        kioskID: String, topicPrefix: String = "scand", classes: Set<Event.Class>? = nil, formats: BarcodeFormats? = nil, maxInFlight: Int = 1000,
        release: String, acknowledged: EventPosition?, start: MQTTSettings.Start = .all
    ) {
        self.kioskID = kioskID
        self.topicPrefix = topicPrefix
        self.classes = classes
        self.formats = formats
        self.maxInFlight = max(2, maxInFlight)
        self.release = release
        self.acknowledged = acknowledged ?? (start == .all ? Self.journalStart : nil)
        self.received = self.acknowledged
    }

    public var inFlight: Int { window.count }
    public var statusTopic: String { "\(topicPrefix)/\(kioskID)/status" }
    public var onlinePayload: String { #"{"state":"online","kiosk":"\#(kioskID)","release":"\#(release)"}"# }
    /// The last will, retained: what the broker tells subscribers when the bridge vanishes.
    public var offlinePayload: String { #"{"state":"offline","kiosk":"\#(kioskID)"}"# }
    public func topic(forClass eventClass: Event.Class) -> String { "\(topicPrefix)/\(kioskID)/events/\(eventClass.rawValue.lowercased())" }

    /// The subscription: the classes and formats published, `since` the last event taken (live only for a
    /// bridge started `now` before its first event and the daemon's answer).
    public var watch: ClientRequest.Watch { ClientRequest.Watch(enable: true, classes: classes, formats: formats, since: received) }

    /// Subscribes; a bridge starting from the journal's start writes that down first, so that one stopped
    /// before its first acknowledgement begins there again.
    public mutating func start() -> [Action] {
        var actions: [Action] = []
        if acknowledged == Self.journalStart { actions.append(.persist(Self.journalStart)) }
        subscribedFromJournalStart = received == Self.journalStart
        actions.append(.subscribe(watch))
        return actions
    }

    public mutating func handle(_ input: Input) -> [Action] {
        switch input {
        case .daemonConnected:
            acceptAnySeq = false
            return []
        case .line(let line):
            return take(line)
        case .published(let ticket, let mid):
            guard let i = index(of: ticket) else { return [] }
            window[i].mid = mid
            tickets[mid] = ticket
            return []
        case .publishFailed:
            return []  // handed over again when the broker is back
        case .statusPublished(let mid):
            statusMid = mid
            return []
        case .acknowledged(let mid):
            if mid == statusMid {
                statusMid = nil
                return []
            }
            guard let ticket = tickets.removeValue(forKey: mid), let i = index(of: ticket) else { return [] }
            window[i].acknowledged = true
            return advance()
        case .brokerConnected:
            var actions: [Action] = []
            // An online status still unacknowledged is sent again by the client; a new one would pile up.
            if statusMid == nil { actions.append(.publishStatus(topic: statusTopic, payload: onlinePayload)) }
            // Only what the client refused: what it took, it sends again itself (once per reconnection).
            for entry in window where entry.mid == nil && !entry.acknowledged {
                actions.append(.publish(ticket: entry.ticket, topic: entry.topic, payload: entry.payload))
            }
            return actions
        case .brokerDisconnected:
            return []
        }
    }

    private mutating func take(_ line: ReceivedEvent) -> [Action] {
        switch line.eventClass {
        case .version, .status:
            return []
        case .watch:
            return subscribed(line)
        case .error:
            acceptAnySeq = true
            let message = (line.errorMessage ?? line.line).escapingControlCharacters()
            if subscribedFromJournalStart {
                subscribedFromJournalStart = false
                let (text, live) = Self.journalStartAnswer(message)
                // Said once here: the unnumbered events that follow need no warning of their own.
                if live { warnedUnnumbered = true }
                return [.log(text)]
            }
            return [.log("scand: \(message)")]
        default:
            break
        }
        guard line.event?.isJournaled ?? true else {
            return [.log("ignoring a \(line.eventClass.rawValue) line from the daemon, which is no event")]
        }
        var actions: [Action] = []
        if let position = line.position {
            if let received, received != Self.journalStart, position.seq <= received.seq, !acceptAnySeq {
                return []  // already taken (a replay overlapping what came live)
            }
            acceptAnySeq = false
            if acknowledged == nil {
                // Started `now` and the daemon's answer held no position (it had numbered nothing and its
                // journal was empty, or an older daemon), or this event came before the answer: the first
                // event taken is where this bridge began; one stopped before its first acknowledgement
                // resumes just before it.
                let began = position.seq > 1 ? EventPosition(boot: position.boot, seq: position.seq - 1) : Self.journalStart
                acknowledged = began
                actions.append(.persist(began))
            }
            received = position
        } else if !warnedUnnumbered {
            warnedUnnumbered = true
            actions.append(
                .log(
                    "the daemon's events carry no boot and seq (a scand without the journal): forwarding them live only; what happens while the bridge or the broker is away is not sent again"
                ))
        }
        let entry = Entry(ticket: nextTicket, position: line.position, topic: topic(forClass: line.eventClass), payload: line.liveLine)
        nextTicket += 1
        window.append(entry)
        // Handed to the client at once, connected or not: it keeps QoS 1 messages until it can send them.
        actions.append(.publish(ticket: entry.ticket, topic: entry.topic, payload: entry.payload))
        if window.count >= maxInFlight && !paused {
            paused = true
            actions.append(.pauseReading(inFlight: window.count))
        }
        return actions
    }

    /// What the daemon's ERROR to a bridge asking from the journal's start means, in words without the
    /// made-up position it was asked since, and whether only live events follow (no journal to publish from).
    static func journalStartAnswer(_ message: String) -> (String, live: Bool) {
        if let off = message.range(of: "cannot be answered: ") {
            let reason = message[off.upperBound...].replacingOccurrences(of: "; live events follow", with: "")
            return (
                "the daemon keeps no journal to publish from (\(reason)): publishing live events only; what is scanned while the bridge or the broker is away is not sent again",
                true
            )
        }
        if message.contains("which is empty") { return ("the daemon's journal is empty: publishing events as they come", false) }
        let span = message.range(of: "): ").map { String(message[$0.upperBound...]) }.map {
            $0.replacingOccurrences(of: "; replaying all of those", with: "")
        }
        return ("publishing everything the daemon's journal keeps, then live events" + (span.map { " (\($0))" } ?? ""), false)
    }

    /// The daemon's answer to a WATCH without a since carries the position the subscription starts after.
    /// A bridge that holds none yet (started `now`, no event taken) holds that one, acknowledged: there is
    /// nothing to forward up to it. So a bridge stopped, or subscribing again, before its first event resumes
    /// there rather than live, which lost what the daemon scanned meanwhile. A bridge that holds a position
    /// keeps it: it asked since it, and what the daemon sends after it is still to be acknowledged.
    private mutating func subscribed(_ line: ReceivedEvent) -> [Action] {
        guard received == nil, case .watch(let answer)? = line.event, let start = answer.since else { return [] }
        acknowledged = start
        received = start
        return [.persist(start)]
    }

    /// Tickets in the window are consecutive: the window only grows at its end and shrinks at its head.
    private func index(of ticket: Int) -> Int? {
        guard let first = window.first?.ticket, ticket >= first, ticket - first < window.count else { return nil }
        return ticket - first
    }

    /// Drops the acknowledged head of the window and persists the last numbered position in it.
    private mutating func advance() -> [Action] {
        var actions: [Action] = []
        var newest: EventPosition?
        while let head = window.first, head.acknowledged {
            if let p = head.position { newest = p }
            if let mid = head.mid { tickets.removeValue(forKey: mid) }
            window.removeFirst()
        }
        if let newest {
            acknowledged = newest
            actions.append(.persist(newest))
        }
        if paused && window.count <= maxInFlight / 2 {
            paused = false
            actions.append(.resumeReading)
        }
        return actions
    }
}
