import NIOCore

/// The first handler of every HTTP connection, in front of the HTTP decoder: the connection's first
/// request head must be decoded within `timeout` (else 408) and be at most `maxBytes` (else 431), as
/// Hummingbird's idle timeout starts only at a first decoded head and would otherwise hold a silent
/// connection for ever. `FirstRequestDecodeWatch`, behind the decoder, removes this handler at that head (an
/// end of head seen here is not enough: the decoder skips leading line breaks) and answers one that does not
/// parse through it (400). Later requests are bounded by the idle timeout and `ParseErrorResponder`. A
/// connection over the server's limit is answered 503 as soon as it is up, and nothing it sends is read.
final class FirstRequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let maxBytes: Int
    private var received = 0
    /// The last bytes seen, for an end of head split across reads.
    private var tail: [UInt8] = []
    private var deadline: Scheduled<Void>?
    private var answered = false
    private let full: Bool

    init(timeout: Duration, maxBytes: Int, full: Bool = false) {
        self.timeout = TimeAmount(timeout)
        self.maxBytes = maxBytes
        self.full = full
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        start(context)
    }

    private func start(_ context: ChannelHandlerContext) {
        if full {
            refuse(context, "503 Service Unavailable", headers: "Retry-After: 1\r\n")
        } else {
            startClock(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        let bytes = unwrapInboundIn(data)
        let seen = tail + bytes.readableBytesView
        // The head's bytes so far: up to its end when the end is in this read (a body may follow it).
        let head = Self.endOfHead(in: seen).map { received + $0 - tail.count } ?? received + bytes.readableBytes
        if head > maxBytes {
            refuse(context, "431 Request Header Fields Too Large")
            return
        }
        received += bytes.readableBytes
        tail = Array(seen.suffix(3))
        // A head decoded from these bytes removes this handler, and its clock, while they pass.
        context.fireChannelRead(data)
    }

    /// The count of bytes up to and including the first CRLF CRLF in `bytes`.
    static func endOfHead(in bytes: [UInt8]) -> Int? { bytes.firstRange(of: [13, 10, 13, 10])?.upperBound }

    private func startClock(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.refuse(context, "408 Request Timeout")
        }
    }

    /// Answers with `status` (no body) straight on the socket, past the HTTP encoder, and closes.
    func refuse(_ context: ChannelHandlerContext, _ status: String, headers: String = "") {
        guard !answered else { return }
        answered = true
        deadline?.cancel()
        let response = "HTTP/1.1 \(status)\r\n\(headers)Connection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response)), promise: nil)
        Self.lingeringClose(context)
    }

    /// Closes our side, then the whole connection a little later: what the client is still sending (the rest
    /// of a huge head) is read and dropped meanwhile, where a close with unread bytes would reset the
    /// connection and could destroy the answer before the client reads it.
    static func lingeringClose(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .seconds(2)) {
            endQuietly(loopBound.value)
            loopBound.value.close(promise: nil)
        }
    }

    /// Tells the handlers behind that the client is gone: what still waits for a head there then ends as
    /// "input closed", which Hummingbird does not log as an error.
    static func endQuietly(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if answered { Self.endQuietly(context) }
        context.fireChannelInactive()
    }
}
