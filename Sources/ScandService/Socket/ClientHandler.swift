import Foundation
import NIOCore
import ScandCore

/// One socket client: reads request lines (bounded), answers them, and while watching receives events.
/// Runs on the channel's event loop; `deliver` may be called from any thread.
final class ClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: EventHub
    private let maxRequestBytes: Int
    private let status: @Sendable () -> String
    private let log: @Sendable (String, LogLevel) -> Void
    private var context: ChannelHandlerContext?
    private var pending = [UInt8]()
    /// Discarding the rest of an over-long line.
    private var skippingLine = false
    // Touched on the event loop only.
    private var watch: ClientRequest.Watch?
    private var queued = 0
    private var closing = false
    private let watchingLock = NSLock()
    private var _watching = false

    init(hub: EventHub, maxRequestBytes: Int, status: @escaping @Sendable () -> String, log: @escaping @Sendable (String, LogLevel) -> Void) {
        self.hub = hub
        self.maxRequestBytes = maxRequestBytes
        self.status = status
        self.log = log
    }

    var isWatching: Bool {
        watchingLock.lock()
        defer { watchingLock.unlock() }
        return _watching
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        guard hub.admit(self) else {
            send(ErrorEvent.json("too many clients (\(hub.maxClients)); try again later"), context: context)
            context.close(promise: nil)
            return
        }
        logCredentials(context.channel)
        send(VersionInfo.json(), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        hub.remove(self)
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
            if pending.count >= maxRequestBytes {
                // Refuse the line, keep the connection: what follows the next newline is read normally.
                send(ErrorEvent.json("request longer than \(maxRequestBytes) bytes refused"), context: context)
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
        do {
            switch try ClientRequest.parse(line) {
            case .version:
                send(VersionInfo.json(), context: context)
            case .status:
                send(status(), context: context)
            case .watch(let w):
                watch = w.enable ? w : nil
                watchingLock.lock()
                _watching = w.enable
                watchingLock.unlock()
                send(w.json.serialized(), context: context)
            }
        } catch {
            send(ErrorEvent.json(error.description), context: context)
        }
    }

    /// From the hub, any thread: hop to the event loop, apply the filters, count what waits.
    func deliver(_ line: String, _ meta: EventMeta) {
        guard isWatching, let loop = context?.eventLoop else { return }
        loop.execute { [self] in
            guard let context, let watch, !closing else { return }
            if let classes = watch.classes, !classes.contains(meta.className) { return }
            if let formats = watch.formats, let f = meta.format, !formats.contains(f) { return }
            if queued >= hub.queueLimit {
                closing = true
                hub.countSlowDrop()
                log("client \(context.channel.remoteAddress.map { "\($0)" } ?? "") stopped reading: \(queued) events waiting; disconnected", .warning)
                context.close(promise: nil)
                return
            }
            send(line, context: context)
        }
    }

    private func send(_ line: String, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        queued += 1
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { [self] _ in queued -= 1 }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
    }

    private func logCredentials(_ channel: Channel) {
        guard let provider = channel as? SocketOptionProvider else { return }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
        future.whenSuccess { [log] (cred: PeerCredentials) in log("client connected: pid \(cred.pid), uid \(cred.uid), gid \(cred.gid)", .info) }
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
