import NIOCore
import ScandCore
import ScandProtocol
import ServiceLifecycle

/// A subscription to the daemon's events (`?WATCH=`), as an `AsyncSequence`; `run` (a service) keeps it:
/// it connects, sends the WATCH, and passes on every line. With `reconnect`, a daemon that stops or restarts
/// is connected to again after the `Backoff`'s wait, and the WATCH asks `since` the last journaled event
/// received, so nothing the journal kept is missed or repeated. Before any event came, that is where the first
/// subscription started: the daemon's answer to a WATCH without a since carries it (`"since"`). Without
/// `reconnect`, the sequence ends when the daemon closes the connection, and throws the `DaemonError` that
/// ended it otherwise.
public final class EventSubscription: Service, AsyncSequence, Sendable {
    public enum Element: Sendable, Equatable {
        /// A line of the daemon: the VERSION banner, the WATCH that confirms the subscription, the events.
        case event(ReceivedEvent)
        /// The connection was lost or could not be made: tried again after the backoff's wait.
        case lost(DaemonError)
    }

    public let socketPath: String
    public let watch: ClientRequest.Watch
    let reconnect: Bool
    let backoff: Backoff
    let timeout: Duration
    private let stream: AsyncThrowingStream<Element, any Error>
    private let continuation: AsyncThrowingStream<Element, any Error>.Continuation

    /// - Parameter bufferLimit: events waiting for the reader; past it, the subscription is made again from
    ///   the last event taken, so a slow reader loses nothing the journal keeps.
    public init(
        socketPath: String, watch: ClientRequest.Watch, reconnect: Bool, backoff: Backoff = Backoff(), timeout: Duration = .seconds(5),
        bufferLimit: Int = 1024
    ) {
        self.socketPath = socketPath
        self.watch = watch
        self.reconnect = reconnect
        self.backoff = backoff
        self.timeout = timeout
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, bufferingPolicy: .bufferingOldest(bufferLimit))
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.Iterator { stream.makeAsyncIterator() }

    /// Why a connection ended on this side.
    struct ReaderTooSlow: Error {}

    public func run() async {
        let ended: DaemonError? = await cancelWhenGracefulShutdown { [self] in
            var backoff = self.backoff
            var since = watch.since
            while !Task.isCancelled {
                let problem: DaemonError
                do {
                    try await session(since: &since) { backoff.reset() }
                    problem = .closed
                    guard reconnect else { return nil }
                } catch is ReaderTooSlow {
                    // The reader will catch up: the same subscription again, from what it took last.
                    try? await Task.sleep(for: backoff.next())
                    continue
                } catch {
                    problem = error as? DaemonError ?? .closed
                    // A refused request stays refused: asking again would be refused again.
                    guard reconnect, !Self.isFinal(problem) else { return problem }
                }
                continuation.yield(.lost(problem))
                try? await Task.sleep(for: backoff.next())
            }
            return nil
        }
        if let ended { continuation.finish(throwing: ended) } else { continuation.finish() }
    }

    static func isFinal(_ error: DaemonError) -> Bool {
        if case .refusedRequest = error { true } else { false }
    }

    /// One connection: the banner, the WATCH (since the last journaled event passed on), then every line.
    private func session(since: inout EventPosition?, subscribed: () -> Void) async throws {
        var request = watch
        request.since = since ?? watch.since
        var position = since
        defer { since = position }
        try await DaemonWatch.session(path: socketPath, watch: request, timeout: timeout) { line in
            if line.eventClass == .watch { subscribed() }
            if case .dropped = continuation.yield(.event(line)) { throw ReaderTooSlow() }
            if let p = line.position {
                position = p
            } else if position == nil, case .watch(let answer)? = line.event, let start = answer.since {
                // No event yet: the position the subscription started after. One that came before the
                // answer (the daemon sends both as they come) is later than it, and kept.
                position = start
            }
        }
    }
}
