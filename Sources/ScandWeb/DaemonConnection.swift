import NIOCore
import NIOPosix

/// One connection to the daemon's socket for requests, one at a time: the daemon answers a slow request
/// (a snapshot) when it is ready, so two in flight on one connection could be answered out of order.
final class DaemonConnection: Sendable {
    private let channel: any Channel
    private let answerTimeout: TimeAmount

    private init(channel: any Channel, answerTimeout: TimeAmount) {
        self.channel = channel
        self.answerTimeout = answerTimeout
    }

    var isActive: Bool { channel.isActive }

    /// Connects and waits for the daemon's VERSION banner.
    static func open(path: String, group: any EventLoopGroup, timeout: TimeAmount) async throws(DaemonError) -> DaemonConnection {
        let banner = group.any().makePromise(of: Void.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                        try channel.pipeline.syncOperations.addHandler(RequestHandler(banner: banner, timeout: timeout))
                    }
                }
                .connect(unixDomainSocketPath: path).get()
        } catch {
            banner.fail(DaemonError.closed)
            throw DaemonError.connecting(to: path, error)
        }
        do {
            try await banner.futureResult.get()
        } catch {
            channel.close(promise: nil)
            throw error as? DaemonError ?? .closed
        }
        return DaemonConnection(channel: channel, answerTimeout: timeout)
    }

    /// Sends one request line (without its newline) and returns the answer line.
    func request(_ line: String) async throws(DaemonError) -> String {
        let answer = channel.eventLoop.makePromise(of: String.self)
        channel.writeAndFlush(Request(line: line, answer: answer), promise: nil)
        do { return try await answer.futureResult.get() } catch { throw error as? DaemonError ?? .closed }
    }

    func close() { channel.close(promise: nil) }

    struct Request: Sendable {
        var line: String
        var answer: EventLoopPromise<String>
    }

    /// Lives on the channel's event loop: the banner first, then one answer per request.
    final class RequestHandler: ChannelDuplexHandler {
        typealias InboundIn = String
        typealias OutboundIn = Request
        typealias OutboundOut = ByteBuffer

        private var banner: EventLoopPromise<Void>?
        private var pending: EventLoopPromise<String>?
        private var deadline: Scheduled<Void>?
        private let timeout: TimeAmount

        init(banner: EventLoopPromise<Void>, timeout: TimeAmount) {
            self.banner = banner
            self.timeout = timeout
        }

        func channelActive(context: ChannelHandlerContext) {
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = loopBound.value
                handler.fail(.timeout(seconds: Int(handler.timeout.nanoseconds / 1_000_000_000)), context: context)
            }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let line = unwrapInboundIn(data)
            if let banner {
                self.banner = nil
                deadline?.cancel()
                if line.hasPrefix(#"{"class":"ERROR""#) {
                    banner.fail(DaemonError.refused(DaemonAnswer(line: line).message))
                    context.close(promise: nil)
                } else {
                    banner.succeed()
                }
            } else if let pending {
                self.pending = nil
                deadline?.cancel()
                pending.succeed(line)
            }
            // Anything else (an event, an ERROR before closing for idleness) answers nothing asked.
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let request = unwrapOutboundIn(data)
            guard banner == nil, pending == nil, context.channel.isActive else {
                request.answer.fail(DaemonError.closed)
                return
            }
            pending = request.answer
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = loopBound.value
                handler.fail(.timeout(seconds: Int(handler.timeout.nanoseconds / 1_000_000_000)), context: context)
            }
            var buffer = context.channel.allocator.buffer(capacity: request.line.utf8.count + 1)
            buffer.writeString(request.line + "\n")
            context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        }

        func channelInactive(context: ChannelHandlerContext) {
            fail(.closed, context: context)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            fail(.closed, context: context)
        }

        /// Fails whatever waits and closes: after a timeout, a late answer would be taken for the next one.
        private func fail(_ error: DaemonError, context: ChannelHandlerContext) {
            deadline?.cancel()
            banner?.fail(error)
            pending?.fail(error)
            banner = nil
            pending = nil
            context.close(promise: nil)
        }
    }
}
