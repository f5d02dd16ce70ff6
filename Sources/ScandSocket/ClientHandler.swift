import Foundation
import Logging
import NIOCore
import ScandCore
import ScandLogging
import ScandProtocol

/// One socket client on its channel's event loop: admitted by uid (or refused with the reason), greeted with
/// VERSION, answers the request lines `RequestLineDecoder` frames, in the order they came (`ReplyOrder`):
/// while answers that take time wait, the lines after them are held and the connection is not read. A
/// client that sends no request within the request timeout is closed: an idle connection must not hold a
/// slot. Events reach it through its `Subscriber`, from any thread.
final class ClientHandler: ChannelDuplexHandler {
    typealias InboundIn = RequestLine
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Snapshots one connection may have waiting for a frame; more get an ERROR.
    static let maxSnapshotsWaiting = 4
    /// Answers one connection may have waiting (given or not) before it is no longer read.
    static let maxAnswersWaiting = 32

    /// What every client of one server shares.
    struct Settings: Sendable {
        var hub: EventHub
        var maxRequestBytes: Int
        var requestTimeout: Duration
        var daemon: DaemonControls
        var admins: AdminGroup
        var log: Logger
        /// Refused connections, idle ones closed and slow ones dropped can come in floods: rate-limited.
        var refusals: RateLimitedLog
        var idleClosed: RateLimitedLog
        var drops: RateLimitedLog
    }

    /// A request line read, parsed or refused.
    private enum Held {
        case request(ClientRequest)
        case refusal(String)

        var kind: ReplyOrder.Kind { if case .request(.snapshot) = self { .snapshot } else { .other } }
    }

    private let settings: Settings
    private var hub: EventHub { settings.hub }
    private var subscriber: Subscriber?
    private var credentials: PeerCredentials?
    /// When the client was admitted: its disconnection is logged with how long it stayed.
    private var admitted: ContinuousClock.Instant?
    private var idleTimer: Scheduled<Void>?
    private var closing = false
    private var order = ReplyOrder(limit: ClientHandler.maxAnswersWaiting)
    /// Lines read and not started yet (from `heldStart` on), and whether a read waits for them to go.
    private var held: [Held] = []
    private var heldStart = 0
    private var readWaiting = false

    init(settings: Settings) {
        self.settings = settings
    }

    func channelActive(context: ChannelHandlerContext) {
        guard let provider = context.channel as? SocketOptionProvider else { return admit(nil, context: context) }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
        // On the channel's own loop the option is read at once, so this runs before any request is read.
        credentials.assumeIsolated().whenComplete { [self] result in admit(try? result.get(), context: context) }
    }

    /// Admits the client (or refuses it with the reason), greets it with VERSION and starts its request timer.
    private func admit(_ credentials: PeerCredentials?, context: ChannelHandlerContext) {
        let peer = credentials.map { "client pid \($0.pid), uid \($0.uid)" } ?? "client"
        let hub = self.hub, drops = settings.drops
        let client = Subscriber(channel: context.channel, uid: credentials?.uid, peer: peer, queueLimit: hub.queueLimit) { client, waiting in
            hub.countSlowDrop()
            drops("\(client.peer) stopped reading: \(waiting) lines waiting; disconnected")
        }
        if let refusal = hub.admit(client) {
            settings.refusals("\(peer) refused: \(refusal)")
            closing = true
            var buffer = context.channel.allocator.buffer(capacity: 128)
            buffer.writeString(Event.error(refusal).line + "\n")
            context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        subscriber = client
        self.credentials = credentials
        if let c = credentials { settings.log("client connected: pid \(c.pid), uid \(c.uid), gid \(c.gid)", .info) }
        admitted = .now
        client.send(versionLine)
        let timeout = settings.requestTimeout
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            guard !closing else { return }
            let reason = "no request within \(timeout.inSeconds) s; closing the connection"
            hub.countTimeout()
            settings.idleClosed("\(peer) closed: \(reason)")
            subscriber?.send(Event.error(reason).line)
            subscriber?.close()
            closing = true
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        if let subscriber {
            subscriber.close()
            hub.remove(subscriber)
            // The pair of "client connected": a log shows who is connected now.
            if let c = credentials, let admitted {
                let seconds = (ContinuousClock.now - admitted).inSeconds
                settings.log("client disconnected: pid \(c.pid), uid \(c.uid), after \(String(format: "%.1f", seconds)) s", .info)
            }
        }
        subscriber = nil
        held = []
        heldStart = 0
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, subscriber != nil else { return }
        switch unwrapInboundIn(data) {
        case .tooLong:
            // The line is refused, the connection kept: what follows its newline is read normally.
            held.append(.refusal("request longer than \(settings.maxRequestBytes) bytes refused"))
        case .line(let line):
            if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            idleTimer?.cancel()
            do { held.append(.request(try ClientRequest.parse(line))) } catch { held.append(.refusal(error.description)) }
        }
        startHeld(context: context)
    }

    /// The next read waits while lines are held: a client that pipelines faster than its answers come
    /// is slowed down by its own socket buffer, not by the daemon's memory.
    func read(context: ChannelHandlerContext) {
        if heldStart < held.count { readWaiting = true } else { context.read() }
    }

    /// Starts the held requests that may start, in order; reads again once none is held.
    private func startHeld(context: ChannelHandlerContext) {
        while heldStart < held.count, let client = subscriber, order.mayStart(held[heldStart].kind) {
            let next = held[heldStart]
            heldStart += 1
            start(next, from: client, context: context)
        }
        guard heldStart >= held.count else {
            if heldStart > 1024 {
                held.removeFirst(heldStart)
                heldStart = 0
            }
            return
        }
        held.removeAll(keepingCapacity: true)
        heldStart = 0
        if readWaiting {
            readWaiting = false
            context.read()
        }
    }

    /// Sends the answers that may go out now that `ticket` has its own.
    private func deliver(_ ticket: Int, _ line: String) {
        for ready in order.answer(ticket, line) { subscriber?.send(ready) }
    }

    /// An answer that comes later, from any thread: given on the loop, then the requests it held up start.
    private func later(_ ticket: Int, context: ChannelHandlerContext) -> @Sendable (String) -> Void {
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        return { line in
            loop.execute {
                let (handler, context) = bound.value
                handler.deliver(ticket, line)
                handler.startHeld(context: context)
            }
        }
    }

    /// Starts one request; the answers that take time (a snapshot, a new rect of interest) are given later.
    private func start(_ held: Held, from client: Subscriber, context: ChannelHandlerContext) {
        let ticket = order.reserve(held.kind)
        let request: ClientRequest
        switch held {
        case .refusal(let message): return deliver(ticket, Event.error(message).line)
        case .request(let r): request = r
        }
        if request.changesSettings {
            guard let c = credentials, settings.admins.admits(uid: c.uid, primaryGroup: c.gid) else {
                return deliver(ticket, Event.error(settings.admins.refusal(uid: credentials?.uid)).line)
            }
        }
        let daemon = settings.daemon
        switch request {
        case .version:
            deliver(ticket, versionLine)
        case .status:
            deliver(ticket, Event.status(daemon.status()).line)
        case .watch(let w):
            client.replay(nil)
            let position = client.watch(w.enable ? w : nil)
            // Without a since, the answer's is where the subscription starts: a client that reconnects
            // with it gets what it missed, even when no event came before (see `EventHub`).
            var answer = w
            if w.enable, w.since == nil { answer.since = position }
            deliver(ticket, Event.watch(answer).line)
            guard w.enable, let since = w.since else { return }
            switch daemon.events?.journal {
            case .success(let journal)?:
                SubscriberReplay.start(client, since: since, watch: w, journal: journal, pool: daemon.replays, queueLimit: hub.queueLimit)
            case .failure(let why)?:
                client.send(
                    Event.error("since \(since.json) cannot be answered: the event journal is off (\(why.description)); live events follow").line)
            case nil:
                client.send(Event.error("since \(since.json) cannot be answered: this daemon keeps no journal; live events follow").line)
            }
        case .snapshot:
            guard order.snapshotsWaiting <= Self.maxSnapshotsWaiting else {
                let message = "\(Self.maxSnapshotsWaiting) snapshots already wait for a frame on this connection; read their answers first"
                return deliver(ticket, Event.error(message).line)
            }
            daemon.snapshot({ !client.isClosing }, later(ticket, context: context))
        case .metrics:
            deliver(ticket, Event.metrics(daemon.metrics()).line)
        case .regionOfInterest:
            deliver(ticket, Event.regionOfInterest(daemon.regionOfInterest()).line)
        case .setRegionOfInterest(let rect):
            let peer = client.peer, log = settings.log, answer = later(ticket, context: context)
            daemon.setRegionOfInterest(rect) { result in
                if case .regionOfInterest = result { log("\(peer) set the rect of interest to \(rect)", .notice) }
                answer(result.line)
            }
        case .cameraControls:
            let answer = later(ticket, context: context)
            daemon.cameraControls { answer($0.line) }
        case .setCameraControls(let change):
            let peer = client.peer, log = settings.log, answer = later(ticket, context: context)
            daemon.setCameraControls(change) { result in
                if case .cameraControls = result {
                    let set = change.settings.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")
                    let did = [set.isEmpty ? nil : "set the camera controls \(set)", change.keep ? "kept the camera controls set so far" : nil]
                    log("\(peer) " + did.compactMap { $0 }.joined(separator: " and "), .notice)
                }
                answer(result.line)
            }
        }
    }

    /// VERSION, with the boot the daemon numbers its events under.
    private var versionLine: String {
        EventEncoder.line(.version(VersionInfo.banner), stamp: settings.daemon.events?.versionStamp)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

/// Linux's `struct ucred` (SO_PEERCRED), which Swift's Glibc module does not export.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    /// SO_PEERCRED on Linux.
    static let option: Int32 = 17
}
