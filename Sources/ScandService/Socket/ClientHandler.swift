import Foundation
import NIOCore
import ScandCore
import Synchronization

/// One socket client: admitted by uid, reads request lines (bounded), answers them, and while watching
/// receives events. Every line it is sent, reply or event, counts against the hub's queue limit until the
/// kernel takes it; past the limit, or with the channel unwritable, the client is disconnected. A client
/// that sends no request within the request timeout is closed: an idle connection must not hold a slot.
/// Runs on the channel's event loop; `deliver` may be called from any thread.
final class ClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What every client of one server shares.
    struct Settings: Sendable {
        var hub: EventHub
        var maxRequestBytes: Int
        var requestTimeout: Duration
        var status: @Sendable () -> String
        var log: @Sendable (String, LogLevel) -> Void
        /// Refused connections, idle ones closed and slow ones dropped can come in floods: rate-limited.
        var refusals: RateLimitedLog
        var idleClosed: RateLimitedLog
        var drops: RateLimitedLog
    }

    private let settings: Settings
    private let loop: EventLoop
    private var hub: EventHub { settings.hub }
    // Touched on the event loop only.
    private var context: ChannelHandlerContext?
    private var pending = [UInt8]()
    /// Discarding the rest of an over-long line.
    private var skippingLine = false
    private var watch: ClientRequest.Watch?
    private var queued = 0
    private var closing = false
    private var admitted = false
    private var peer = "client"
    private var idleTimer: Scheduled<Void>?
    // Read by the hub from any thread.
    private let watching = Mutex(false)

    init(settings: Settings, loop: EventLoop) {
        self.settings = settings
        self.loop = loop
    }

    var isWatching: Bool { watching.withLock { $0 } }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        guard let provider = context.channel as? SocketOptionProvider else { return admit(nil) }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
        // On the channel's own loop the option is read at once, so this runs before any request is read.
        credentials.whenComplete { [self] result in admit(try? result.get()) }
    }

    /// Admits the client (or refuses it with the reason), greets it with VERSION and starts its request timer.
    private func admit(_ credentials: PeerCredentials?) {
        guard let context else { return }
        if let c = credentials { peer = "client pid \(c.pid), uid \(c.uid)" }
        if let refusal = hub.admit(self, uid: credentials?.uid) {
            settings.refusals("\(peer) refused: \(refusal)")
            send(ErrorEvent.json(refusal), context: context)
            closing = true
            context.close(promise: nil)
            return
        }
        admitted = true
        if let c = credentials { settings.log("client connected: pid \(c.pid), uid \(c.uid), gid \(c.gid)", .info) }
        send(VersionInfo.json(), context: context)
        let c = settings.requestTimeout.components
        idleTimer = context.eventLoop.scheduleTask(in: .nanoseconds(c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000)) { [self] in
            guard let context = self.context, !closing else { return }
            let reason = "no request within \(Double(c.seconds) + Double(c.attoseconds) / 1e18) s; closing the connection"
            hub.countTimeout()
            settings.idleClosed("\(peer) closed: \(reason)")
            send(ErrorEvent.json(reason), context: context)
            closing = true
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        if admitted { hub.remove(self) }
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        for b in bytes {
            if b == UInt8(ascii: "\n") {
                if skippingLine {
                    skippingLine = false
                } else {
                    handle(line: String(decoding: pending, as: UTF8.self), context: context)
                }
                pending.removeAll(keepingCapacity: true)
                continue
            }
            guard !skippingLine else { continue }
            if pending.count >= settings.maxRequestBytes {
                // Refuse the line, keep the connection: what follows the next newline is read normally.
                send(ErrorEvent.json("request longer than \(settings.maxRequestBytes) bytes refused"), context: context)
                pending.removeAll(keepingCapacity: true)
                skippingLine = true
                continue
            }
            pending.append(b)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    private func handle(line: String, context: ChannelHandlerContext) {
        if line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
        idleTimer?.cancel()
        do {
            switch try ClientRequest.parse(line) {
            case .version:
                send(VersionInfo.json(), context: context)
            case .status:
                send(settings.status(), context: context)
            case .watch(let w):
                watch = w.enable ? w : nil
                watching.withLock { $0 = w.enable }
                send(w.json.serialized(), context: context)
            }
        } catch {
            send(ErrorEvent.json(error.description), context: context)
        }
    }

    /// From the hub, any thread: hop to the event loop, apply the filters, send.
    func deliver(_ line: String, _ meta: EventMeta) {
        guard isWatching else { return }
        loop.execute { [self] in
            guard let context, let watch else { return }
            if let classes = watch.classes, !classes.contains(meta.className) { return }
            if let formats = watch.formats, let f = meta.format, !formats.contains(f) { return }
            send(line, context: context)
        }
    }

    /// Writes one line, unless the client already has `queueLimit` lines waiting or more bytes than the
    /// channel's high-water mark: then it is disconnected and counted instead.
    private func send(_ line: String, context: ChannelHandlerContext) {
        guard !closing else { return }
        if admitted && (queued >= hub.queueLimit || !context.channel.isWritable) {
            closing = true
            hub.countSlowDrop()
            settings.drops("\(peer) stopped reading: \(queued) lines waiting; disconnected")
            context.close(promise: nil)
            return
        }
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        queued += 1
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] _ in queued -= 1 }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
    }
}

enum ErrorEvent {
    static func json(_ message: String) -> String {
        JSONValue.object([("class", .string("ERROR")), ("message", .string(message))]).serialized()
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
