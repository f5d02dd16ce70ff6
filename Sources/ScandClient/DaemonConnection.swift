import NIOCore
import NIOExtras
import NIOPosix
import ScandProtocol

/// A connection to the daemon's socket: an async channel of lines (NIOExtras' framing, bounded by the
/// longest line the daemon sends), on NIO's shared event loops.
enum DaemonConnection {
    typealias Lines = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static func connect(path: String, timeout: Duration) async throws(DaemonError) -> Lines {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(timeout))
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: EventDecoder.maxLength))
                        return try Lines(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw .connecting(to: path, error)
        }
    }

    /// One request line, with its newline.
    static func write(_ request: ClientRequest, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws(DaemonError) {
        do { try await outbound.write(ByteBuffer(string: request.line + "\n")) } catch { throw .closed }
    }
}

/// The daemon's lines, decoded, each within an optional deadline: a late line is not waited for (the
/// connection is closed, so a late answer cannot be taken for the next one).
struct DaemonLineReader {
    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let channel: any Channel

    /// The next line; nil when the daemon closed the connection.
    mutating func next(within timeout: Duration?) async throws(DaemonError) -> ReceivedEvent? {
        let channel = self.channel
        let deadline = timeout.map { timeout in
            channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { channel.close(promise: nil) }
        }
        /// Whether the deadline closed the connection: its task ran (cancelled, its future fails instead).
        func timedOut() async -> Bool {
            guard let deadline else { return false }
            deadline.cancel()
            return (try? await deadline.futureResult.get()) != nil
        }
        defer { deadline?.cancel() }
        let buffer: ByteBuffer?
        do { buffer = try await lines.next() } catch {
            if let timeout, await timedOut() { throw .timeout(seconds: Int(timeout.components.seconds)) }
            if error is ByteToMessageDecoderError.PayloadTooLargeError {
                throw .protocolViolation("scand sent a line over \(EventDecoder.maxLength) bytes")
            }
            throw .closed
        }
        guard let buffer else {
            if let timeout, await timedOut() { throw .timeout(seconds: Int(timeout.components.seconds)) }
            return nil
        }
        do { return try EventDecoder.decode(String(buffer: buffer)) } catch { throw .protocolViolation(error.description) }
    }

    /// The VERSION banner every connection starts with; an ERROR instead is a refusal.
    mutating func banner(within timeout: Duration) async throws(DaemonError) -> ReceivedEvent {
        guard let banner = try await next(within: timeout) else { throw .closed }
        if let message = banner.errorMessage { throw .refused(message) }
        return banner
    }
}
