import NIOCore
import ScandProtocol
import ServiceLifecycle

/// Requests to the daemon (`.status`, `.snapshot`, `.setRegionOfInterest`, `.metrics`, …) over one kept
/// connection, one request at a time (the daemon answers a slow request when it is ready, so two in flight on
/// one connection could be answered out of order). A page polling 5 times a second must not open a
/// connection per request: each one the daemon admits, greets and logs. The connection is made at the first
/// request and again after the daemon closed it; `run` serves the requests until shutdown.
public final class DaemonClient: Service, Sendable {
    public let socketPath: String
    let timeout: Duration
    private let queue: AsyncStream<Pending>
    private let enqueue: AsyncStream<Pending>.Continuation

    struct Pending: Sendable {
        var request: ClientRequest
        var answer: CheckedContinuation<ReceivedEvent, any Error>
        /// Sent once already on a kept connection that turned out closed.
        var retried = false
        /// When it was asked: one that waited its whole timeout in line is answered `.backlogged`, so a
        /// flood of requests bounds each one's wait instead of growing it.
        let asked = ContinuousClock.now

        func fail(_ error: DaemonError) { answer.resume(throwing: error) }
    }

    public init(socketPath: String, timeout: Duration = .seconds(5)) {
        self.socketPath = socketPath
        self.timeout = timeout
        (queue, enqueue) = AsyncStream.makeStream(of: Pending.self)
    }

    /// The daemon's answer to `request`, of the request's answer class; its ERROR as `.refusedRequest`.
    /// One request on a client of its own, run for as long as its answer takes: a command's one question
    /// (`scand controls`, `scand roi`, `scand watch --status`). Throws the request's `DaemonError`.
    public static func ask(_ request: ClientRequest, socketPath: String) async throws -> ReceivedEvent {
        let client = DaemonClient(socketPath: socketPath)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await client.request(request)
        }
    }

    public func request(_ request: ClientRequest) async throws(DaemonError) -> ReceivedEvent {
        do {
            return try await withCheckedThrowingContinuation { answer in
                if case .terminated = enqueue.yield(Pending(request: request, answer: answer)) { answer.resume(throwing: DaemonError.closed) }
            }
        } catch {
            throw error as? DaemonError ?? .closed
        }
    }

    /// Serves requests until a graceful shutdown; those still waiting then are answered `.closed`.
    public func run() async {
        var pending = queue.makeAsyncIterator()
        let enqueue = self.enqueue
        await withGracefulShutdownHandler {
            var next = await pending.next()
            while let first = next {
                next = await serve(first, then: &pending)
            }
        } onGracefulShutdown: {
            enqueue.finish()
        }
    }

    /// One connection: `first` and the requests that follow while it lasts. Returns the request to serve on a
    /// new connection (nil: none is waiting, the client stops).
    private func serve(_ first: Pending, then queue: inout AsyncStream<Pending>.Iterator) async -> Pending? {
        guard let first = fresh(first) else { return await next(from: &queue) }
        let lines: DaemonConnection.Lines
        do { lines = try await DaemonConnection.connect(path: socketPath, timeout: timeout) } catch {
            first.fail(error)
            return await next(from: &queue)
        }
        var current = first
        var onThisConnection = 0
        do {
            try await lines.executeThenClose { inbound, outbound in
                var reader = DaemonLineReader(lines: inbound.makeAsyncIterator(), channel: lines.channel)
                _ = try await reader.banner(within: timeout)
                while true {
                    onThisConnection += 1
                    try await DaemonConnection.write(current.request, to: outbound)
                    guard let line = try await reader.next(within: timeout) else { throw DaemonError.closed }
                    current.answer.resume(with: Self.answer(line, to: current.request))
                    guard let next = await next(from: &queue) else { return }  // shutting down
                    current = next
                }
            }
            return nil
        } catch {
            let error = error as? DaemonError ?? .closed
            // A kept connection may have been closed by a restarted daemon: once more on a new one.
            if error == .closed, onThisConnection > 1, !current.retried {
                current.retried = true
                return current
            }
            current.fail(error)
            return await next(from: &queue)
        }
    }

    /// The next request that has not waited too long already; nil when shutting down.
    private func next(from queue: inout AsyncStream<Pending>.Iterator) async -> Pending? {
        while let pending = await queue.next() {
            if let fresh = fresh(pending) { return fresh }
        }
        return nil
    }

    /// `pending`, or nil once it is answered `.backlogged` for having waited its whole timeout in line.
    private func fresh(_ pending: Pending) -> Pending? {
        let waited = ContinuousClock.now - pending.asked
        guard waited >= timeout, !pending.retried else { return pending }
        pending.fail(.backlogged(seconds: Int(waited.components.seconds)))
        return nil
    }

    /// A line of the request's answer class, or why not: the daemon's ERROR, or a line of another class.
    static func answer(_ line: ReceivedEvent, to request: ClientRequest) -> Result<ReceivedEvent, any Error> {
        if line.eventClass == request.answerClass { return .success(line) }
        if let message = line.errorMessage { return .failure(DaemonError.refusedRequest(message)) }
        return .failure(DaemonError.protocolViolation("scand answered \(request.line) with \(line.eventClass.rawValue)"))
    }
}
