import Foundation
import NIOCore
import ScandCore
import ScandProtocol

/// One socket client on its channel's event loop: admitted by uid (or refused with the reason), greeted with
/// VERSION, answers the request lines `RequestLineDecoder` frames. A client that sends no request within the
/// request timeout is closed: an idle connection must not hold a slot. Events reach it through its
/// `Subscriber`, from any thread.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = RequestLine
    typealias OutboundOut = ByteBuffer

    /// What every client of one server shares.
    struct Settings: Sendable {
        var hub: EventHub
        var maxRequestBytes: Int
        var requestTimeout: Duration
        var daemon: DaemonControls
        var admins: AdminGroup
        var log: @Sendable (String, LogLevel) -> Void
        /// Refused connections, idle ones closed and slow ones dropped can come in floods: rate-limited.
        var refusals: RateLimitedLog
        var idleClosed: RateLimitedLog
        var drops: RateLimitedLog
    }

    private let settings: Settings
    private var hub: EventHub { settings.hub }
    private var subscriber: Subscriber?
    private var credentials: PeerCredentials?
    private var idleTimer: Scheduled<Void>?
    private var closing = false

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
        client.send(versionLine)
        let timeout = settings.requestTimeout
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            guard !closing else { return }
            let reason = "no request within \(timeout.seconds) s; closing the connection"
            hub.countTimeout()
            settings.idleClosed("\(peer) closed: \(reason)")
            close(after: .error(reason), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        if let subscriber {
            subscriber.close()
            hub.remove(subscriber)
        }
        subscriber = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, let client = subscriber else { return }
        switch unwrapInboundIn(data) {
        case .tooLong:
            // The line is refused, the connection kept: what follows its newline is read normally.
            client.send(Event.error("request longer than \(settings.maxRequestBytes) bytes refused").line)
        case .line(let line):
            if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            idleTimer?.cancel()
            answer(to: line, from: client)
        }
    }

    /// Answers a request; the answers that take time (a snapshot, a new rect of interest) are sent when
    /// ready, from whichever thread has them.
    private func answer(to line: String, from client: Subscriber) {
        let request: ClientRequest
        do { request = try ClientRequest.parse(line) } catch { return client.send(Event.error(error.description).line) }
        if request.changesSettings {
            guard let c = credentials, settings.admins.admits(uid: c.uid, primaryGroup: c.gid) else {
                return client.send(Event.error(settings.admins.refusal(uid: credentials?.uid)).line)
            }
        }
        let daemon = settings.daemon
        switch request {
        case .version:
            client.send(versionLine)
        case .status:
            client.send(Event.status(daemon.status()).line)
        case .watch(let w):
            client.replay(nil)
            client.watch(w.enable ? w : nil)
            client.send(Event.watch(w).line)
            guard w.enable, let since = w.since else { return }
            switch daemon.events?.journal {
            case .success(let journal)?:
                SubscriberReplay.start(client, since: since, watch: w, journal: journal, queue: daemon.replays, queueLimit: hub.queueLimit)
            case .failure(let why)?:
                client.send(
                    Event.error("since \(since.json) cannot be answered: the event journal is off (\(why.description)); live events follow").line)
            case nil:
                client.send(Event.error("since \(since.json) cannot be answered: this daemon keeps no journal; live events follow").line)
            }
        case .snapshot:
            daemon.snapshot { result in client.send(result.line) }
        case .metrics:
            client.send(Event.metrics(daemon.metrics()).line)
        case .regionOfInterest:
            client.send(Event.regionOfInterest(daemon.regionOfInterest()).line)
        case .setRegionOfInterest(let rect):
            let peer = client.peer, log = settings.log
            daemon.setRegionOfInterest(rect) { result in
                if case .regionOfInterest = result { log("\(peer) set the rect of interest to \(rect)", .notice) }
                client.send(result.line)
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

    /// Sends a last line and closes.
    private func close(after event: Event, context: ChannelHandlerContext) {
        subscriber?.send(event.line)
        subscriber?.close()
        closing = true
        context.close(promise: nil)
    }
}

extension TimeAmount {
    init(_ d: Duration) {
        let c = d.components
        self = .nanoseconds(c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000)
    }
}

extension Duration {
    /// In seconds, for messages.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Linux's `struct ucred` (SO_PEERCRED), which Swift's Glibc module does not export.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    /// SO_PEERCRED on Linux.
    static let option: Int32 = 17
}
