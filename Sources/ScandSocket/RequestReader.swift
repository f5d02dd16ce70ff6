import Foundation
import NIOCore
import ScandCore
import ScandProtocol

/// Reads one client's request lines and starts each in its turn. Snapshots may wait together (they change
/// nothing and share a frame); any other request starts only once every answer before it is out, so that it
/// sees what they did (a `?STATUS;` after `?ROI=` shows the new rect). While a request waits for its turn the
/// connection is not read: a client that pipelines faster than its answers come is slowed down by its own
/// socket buffer, not by the daemon's memory. Answers go to the client's writer, which puts them in order.
struct RequestReader {
    /// A request line read, parsed or refused.
    enum Held {
        case request(ClientRequest)
        case refusal(String)

        var isSnapshot: Bool { if case .request(.snapshot) = self { true } else { false } }
    }

    let settings: ClientConnection.Settings
    let client: Subscriber
    let credentials: PeerCredentials?
    /// Requests started (each took the next place among the answers), and answers out, as the writer says.
    private var started = 0
    private var out = 0
    /// The place of the last request that is no snapshot, and those of the snapshots not answered yet.
    private var lastOther = -1
    private var snapshots: [Int] = []
    /// The replays asked for: each one's id.
    private var replays = 0

    init(settings: ClientConnection.Settings, client: Subscriber, credentials: PeerCredentials?) {
        self.settings = settings
        self.client = client
        self.credentials = credentials
    }

    /// Reads and starts requests until the connection or the writer ends. The first request cancels `idle`.
    /// Each request's call on the daemon is a task of the reader's group, cancelled when reading ends.
    mutating func run(_ inbound: NIOAsyncChannelInboundStream<RequestLine>, answersOut: AsyncStream<Int>, idle: Scheduled<Void>) async {
        await withDiscardingTaskGroup { tasks in
            await read(inbound, answersOut: answersOut, idle: idle, tasks: &tasks)
            tasks.cancelAll()
        }
    }

    private mutating func read(
        _ inbound: NIOAsyncChannelInboundStream<RequestLine>, answersOut: AsyncStream<Int>, idle: Scheduled<Void>,
        tasks: inout DiscardingTaskGroup
    ) async {
        var answers = answersOut.makeAsyncIterator()
        do {
            for try await line in inbound {
                let held: Held
                switch line {
                case .tooLong:
                    // The line is refused, the connection kept: what follows its newline is read normally.
                    held = .refusal("request longer than \(settings.maxRequestBytes) bytes refused")
                case .line(let text):
                    if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { continue }
                    idle.cancel()
                    do { held = .request(try ClientRequest.parse(text)) } catch { held = .refusal(error.description) }
                }
                while !mayStart(snapshot: held.isSnapshot) {
                    guard let answered = await answers.next() else { return }
                    out = answered
                }
                start(held, &tasks)
            }
        } catch {
            // A read failed: the connection is closed.
        }
    }

    /// Whether a request may start now, given the answers waiting.
    private func mayStart(snapshot: Bool) -> Bool {
        let waiting = started - out
        guard waiting < ClientConnection.maxAnswersWaiting else { return false }
        return waiting == 0 || (snapshot && lastOther < out)
    }

    /// Takes the request's place among the answers and starts it; answers from the daemon come from a task
    /// of `tasks`, in their place all the same.
    private mutating func start(_ held: Held, _ tasks: inout DiscardingTaskGroup) {
        let ticket = started
        started += 1
        if !held.isSnapshot { lastOther = ticket }
        client.step(.reserve)
        let request: ClientRequest
        switch held {
        case .refusal(let message): return answer(ticket, Event.error(message).line)
        case .request(let r): request = r
        }
        if request.changesSettings {
            guard let c = credentials, settings.admins.admits(uid: c.uid, primaryGroup: c.gid) else {
                return answer(ticket, Event.error(settings.admins.refusal(uid: credentials?.uid)).line)
            }
        }
        let daemon = settings.daemon
        switch request {
        case .version: answer(ticket, settings.versionLine)
        case .status: later(ticket, &tasks) { Event.status(await daemon.status()).line }
        case .watch(let w): watch(w, ticket)
        case .snapshot: snapshot(ticket, &tasks)
        case .metrics: later(ticket, &tasks) { Event.metrics(await daemon.metrics()).line }
        case .regionOfInterest: later(ticket, &tasks) { Event.regionOfInterest(await daemon.regionOfInterest()).line }
        case .setRegionOfInterest(let rect):
            let peer = client.peer, log = settings.log
            later(ticket, &tasks) {
                let result = await daemon.setRegionOfInterest(rect)
                if case .regionOfInterest = result { log("\(peer) set the rect of interest to \(rect)", .notice) }
                return result.line
            }
        case .cameraControls:
            later(ticket, &tasks) { await daemon.cameraControls().line }
        case .setCameraControls(let change):
            let peer = client.peer, log = settings.log
            later(ticket, &tasks) {
                let result = await daemon.setCameraControls(change)
                if case .cameraControls = result {
                    let set = change.settings.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
                    let did = [set.isEmpty ? nil : "set the camera controls \(set)", change.keep ? "kept the camera controls set so far" : nil]
                    log("\(peer) " + did.compactMap { $0 }.joined(separator: " and "), .notice)
                }
                return result.line
            }
        }
    }

    /// WATCH: what the client receives from now on, and with a `since`, what it missed first.
    private mutating func watch(_ w: ClientRequest.Watch, _ ticket: Int) {
        let hub = settings.hub
        var replay: ReplayRequest?
        if w.enable, let since = w.since, case .success(let journal)? = settings.daemon.events?.journal {
            replays += 1
            replay = ReplayRequest(id: replays, since: since, watch: w, journal: journal)
        }
        // The replay is in the outbox before the first event that goes to it.
        client.step(.replay(replay))
        let position = hub.watch(client, w.enable ? w : nil, replay: replay?.id)
        // Without a since, the answer's is where the subscription starts: a client that reconnects with it
        // gets what it missed, even when no event came before (see `EventHub`).
        var answer = w
        if w.enable, w.since == nil { answer.since = position }
        self.answer(ticket, Event.watch(answer).line)
        guard w.enable, let since = w.since else { return }
        switch settings.daemon.events?.journal {
        case .success?:
            // After the answer: the replay's first line cannot come before it.
            client.step(.beginReplay(id: replays))
        case .failure(let why)?:
            client.step(
                .line(Event.error("since \(since.json) cannot be answered: the event journal is off (\(why.description)); live events follow").line))
        case nil:
            client.step(.line(Event.error("since \(since.json) cannot be answered: this daemon keeps no journal; live events follow").line))
        }
    }

    /// SNAPSHOT, unless enough already wait for a frame on this connection: then an ERROR in its place.
    private mutating func snapshot(_ ticket: Int, _ tasks: inout DiscardingTaskGroup) {
        snapshots.removeAll { $0 < out }
        guard snapshots.count < ClientConnection.maxSnapshotsWaiting else {
            let message = "\(ClientConnection.maxSnapshotsWaiting) snapshots already wait for a frame on this connection; read their answers first"
            return answer(ticket, Event.error(message).line)
        }
        snapshots.append(ticket)
        let channel = client.channel, daemon = settings.daemon
        later(ticket, &tasks) { await daemon.snapshot({ channel.isActive }) }
    }

    /// An answer goes to the writer, which checks the client keeps up as it writes it (the outbox's spare
    /// room holds every answer the reader lets wait).
    private func answer(_ ticket: Int, _ line: String) { client.step(.answer(ticket: ticket, line: line)) }

    /// An answer the daemon gives: `line`, awaited in a task of `tasks`.
    private func later(_ ticket: Int, _ tasks: inout DiscardingTaskGroup, _ line: @escaping @Sendable () async -> String) {
        let client = client
        tasks.addTask { client.step(.answer(ticket: ticket, line: await line())) }
    }
}
