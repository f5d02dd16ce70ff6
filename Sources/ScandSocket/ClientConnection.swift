import Foundation
import Logging
import NIOCore
import ScandCore
import ScandLogging
import ScandProtocol

/// One socket client, as a task on its `NIOAsyncChannel`: admitted by uid (or refused with the reason),
/// greeted with VERSION, then read by its `RequestReader` and written by its `ClientWriter`, two tasks of its
/// own, until either ends. A client that sends no request within the request timeout is closed: an idle
/// connection must not hold a slot.
struct ClientConnection: Sendable {
    typealias Channel = NIOAsyncChannel<RequestLine, ByteBuffer>

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

        /// VERSION, with the boot the daemon numbers its events under.
        var versionLine: String { EventEncoder.line(.version(VersionInfo.banner), stamp: daemon.events?.versionStamp) }
    }

    let settings: Settings

    /// A client as accepted: its peer's credentials, read at once on its loop (a client that sends a line and
    /// goes is known all the same), and its channel, not read (auto-read off, `SocketServer.listen`) until the
    /// task that serves it wraps it in its `NIOAsyncChannel` (`run`). Closed when dropped: the listener's stream
    /// drops the clients it holds when the task taking them is cancelled, and a channel wrapped already would
    /// then trap (NIO's writer is not finished; swift-nio issue 2813), one not wrapped would stay open.
    final class Accepted: Sendable {
        let credentials: PeerCredentials?
        let channel: any NIOCore.Channel

        init(credentials: PeerCredentials?, channel: any NIOCore.Channel) {
            self.credentials = credentials
            self.channel = channel
        }

        deinit { channel.close(promise: nil) }
    }

    /// Sets up an accepted channel, on its loop: request lines framed by `RequestLineDecoder`, lines out.
    static func accept(_ channel: any NIOCore.Channel, maxRequestBytes: Int) -> EventLoopFuture<Accepted> {
        let credentials: EventLoopFuture<PeerCredentials?>
        if let provider = channel as? SocketOptionProvider {
            let asked: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
            credentials = asked.map { Optional($0) }.recover { _ in nil }
        } else {
            credentials = channel.eventLoop.makeSucceededFuture(nil)
        }
        return credentials.flatMapThrowing { credentials in
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(RequestLineDecoder(maxLength: maxRequestBytes)))
            return Accepted(credentials: credentials, channel: channel)
        }
    }

    /// Serves the client until it goes (or is dropped, or the server stops), then closes its connection.
    func run(_ accepted: Accepted) async {
        let channel = accepted.channel
        do {
            // Wrapped on its loop, then read: nothing it sent before is lost, and the wrapped channel is never
            // dropped unfinished, as executeThenClose follows at once whatever happens to this task.
            let connection = try await channel.eventLoop.submit {
                let connection = try Channel(wrappingChannelSynchronously: channel)
                channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in channel.close(promise: nil) }
                return connection
            }.get()
            try await connection.executeThenClose { inbound, outbound in
                try await serve(connection.channel, credentials: accepted.credentials, inbound: inbound, outbound: outbound)
            }
        } catch {
            // The client went: its connection is closed.
        }
    }

    private func serve(
        _ channel: any NIOCore.Channel, credentials: PeerCredentials?, inbound: NIOAsyncChannelInboundStream<RequestLine>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        let peer = credentials.map { "client pid \($0.pid), uid \($0.uid)" } ?? "client"
        let hub = settings.hub, drops = settings.drops
        let (client, outbox) = Subscriber.make(channel: channel, uid: credentials?.uid, peer: peer, queueLimit: hub.queueLimit) { client, waiting in
            guard hub.dropSlow(client) else { return }
            drops("\(client.peer) stopped reading: \(waiting) lines waiting; disconnected")
            client.close()
        }
        if let refusal = hub.admit(client) {
            settings.refusals("\(peer) refused: \(refusal)")
            try await outbound.write(ByteBuffer(string: Event.error(refusal).line + "\n"))
            return
        }
        if let c = credentials { settings.log("client connected: pid \(c.pid), uid \(c.uid), gid \(c.gid)", .info) }
        let admitted = ContinuousClock.now
        client.step(.line(settings.versionLine))
        let idle = idleTimer(for: client, on: channel.eventLoop)
        let (answersOut, answered) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        await withDiscardingTaskGroup { group in
            group.addTask {
                var writer = ClientWriter(client: client, hub: hub, pool: settings.daemon.replays, answersOut: answered)
                await writer.run(outbox, to: outbound)
            }
            var reader = RequestReader(settings: settings, client: client, credentials: credentials)
            await reader.run(inbound, answersOut: answersOut, idle: idle)
            group.cancelAll()
        }
        idle.cancel()
        client.close()
        hub.remove(client)
        // The pair of "client connected": a log shows who is connected now.
        if let c = credentials {
            let seconds = (ContinuousClock.now - admitted).inSeconds
            settings.log("client disconnected: pid \(c.pid), uid \(c.uid), after \(String(format: "%.1f", seconds)) s", .info)
        }
    }

    /// Closes the connection, with the reason, if no request comes within the request timeout.
    private func idleTimer(for client: Subscriber, on loop: any EventLoop) -> Scheduled<Void> {
        let timeout = settings.requestTimeout, hub = settings.hub, idleClosed = settings.idleClosed
        return loop.scheduleTask(in: TimeAmount(timeout)) {
            let reason = "no request within \(timeout.inSeconds) s; closing the connection"
            hub.countTimeout()
            idleClosed("\(client.peer) closed: \(reason)")
            client.step(.closing(Event.error(reason).line))
        }
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
