import NIOCore
import ScandCore
import ScandProtocol
import ServiceLifecycle

/// A subscription to the daemon's events (`?WATCH=`), as an `AsyncSequence` read at its reader's pace; `run`
/// (a service) keeps it: it connects, takes the VERSION banner, sends the WATCH, and passes on every line.
/// Past `bufferLimit` lines not taken the socket is not read until half are. With `reconnect`, it connects
/// again after the `Backoff`'s wait and asks `since` the last journaled event passed on (before any, the
/// `"since"` of the daemon's answer to the first WATCH), so nothing the journal kept is missed or repeated;
/// without, the sequence ends when the daemon closes the connection, and throws the `DaemonError` that
/// ended it otherwise.
public final class EventSubscription: Service, AsyncSequence, Sendable {
    public enum Element: Sendable, Equatable {
        /// A line of the daemon: the VERSION banner, the WATCH that confirms the subscription, the events.
        case event(ReceivedEvent)
        /// The connection was lost or could not be made: tried again after the backoff's wait.
        case lost(DaemonError)
    }

    public typealias Lines = NIOThrowingAsyncSequenceProducer<
        Element, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Demand
    >

    public let socketPath: String
    public let watch: ClientRequest.Watch
    let reconnect: Bool
    let backoff: Backoff
    let timeout: Duration
    private let lines: Lines
    private let source: Lines.Source
    private let demand = Demand()

    /// - Parameter bufferLimit: lines read ahead of the reader, at most.
    public init(
        socketPath: String, watch: ClientRequest.Watch, reconnect: Bool, backoff: Backoff = Backoff(), timeout: Duration = .seconds(5),
        bufferLimit: Int = 1024
    ) {
        self.socketPath = socketPath
        self.watch = watch
        self.reconnect = reconnect
        self.backoff = backoff
        self.timeout = timeout
        let limit = Swift.max(1, bufferLimit)
        // Finished on deinit too: a subscription made but never run (a command that failed first) ends quietly.
        let made = Lines.makeSequence(
            backPressureStrategy: .init(lowWatermark: Swift.max(1, limit / 2), highWatermark: limit), finishOnDeinit: true, delegate: demand)
        (lines, source) = (made.sequence, made.source)
    }

    /// One reader only (NIO's producer sequence allows one iterator).
    public func makeAsyncIterator() -> Lines.AsyncIterator { lines.makeAsyncIterator() }

    /// The reader is gone: nothing more to read for.
    struct ReaderGone: Error {}

    public func run() async {
        let ended: DaemonError? = await cancelWhenGracefulShutdown { [self] in
            var backoff = self.backoff
            var since = watch.since
            while !Task.isCancelled {
                let problem: DaemonError
                do {
                    try await session(since: &since) { backoff.reset() }
                    guard reconnect else { return nil }
                    problem = .closed
                } catch is ReaderGone {
                    return nil
                } catch {
                    problem = error as? DaemonError ?? .closed
                    // A refused request stays refused: asking again would be refused again.
                    guard reconnect, !Self.isFinal(problem) else { return problem }
                }
                // Stopping (Ctrl-C, a graceful shutdown) ends the connection from this side: no loss to report.
                if Task.isCancelled { return nil }
                guard await pass(.lost(problem)) else { return nil }
                try? await Task.sleep(for: backoff.next())
            }
            return nil
        }
        if let ended { source.finish(ended) } else { source.finish() }
    }

    static func isFinal(_ error: DaemonError) -> Bool {
        if case .refusedRequest = error { true } else { false }
    }

    /// Hands `element` to the reader, then waits while the reader has `bufferLimit` lines to take; false once
    /// the reader has gone.
    private func pass(_ element: Element) async -> Bool {
        switch source.yield(element) {
        case .produceMore: return true
        case .stopProducing:
            await demand.untilAsked()
            return true
        case .dropped: return false
        }
    }

    /// One connection: the banner, the WATCH (since the last journaled event passed on), then every line.
    /// The banner and the WATCH's confirmation must come within `timeout`; an ERROR instead of the
    /// confirmation is `.refusedRequest`.
    private func session(since: inout EventPosition?, subscribed: () -> Void) async throws {
        var request = watch
        request.since = since ?? watch.since
        var position = since
        defer { since = position }
        let connection = try await DaemonConnection.connect(path: socketPath, timeout: timeout)
        try await connection.executeThenClose { inbound, outbound in
            var reader = DaemonLineReader(lines: inbound.makeAsyncIterator(), channel: connection.channel)
            guard await pass(.event(try await reader.banner(within: timeout))) else { throw ReaderGone() }
            try await DaemonConnection.write(.watch(request), to: outbound)
            var confirmed = false
            // The WATCH is answered within the timeout; events come when they come.
            while let line = try await reader.next(within: confirmed ? nil : timeout) {
                if !confirmed {
                    if let message = line.errorMessage { throw DaemonError.refusedRequest(message) }
                    confirmed = line.eventClass == .watch
                    if confirmed { subscribed() }
                }
                guard await pass(.event(line)) else { throw ReaderGone() }
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
}

extension EventSubscription {
    /// The reader's demand, for `run` to wait on: NIO's producer asks for more once the reader has taken
    /// enough, or says the reader has gone; a cancelled `run` stops waiting too. An ask that comes while
    /// nobody waits is kept (one is enough) for the next wait.
    public final class Demand: NIOAsyncSequenceProducerDelegate {
        private let asks: AsyncStream<Void>
        private let ask: AsyncStream<Void>.Continuation

        init() { (asks, ask) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1)) }

        public func produceMore() { ask.yield() }
        public func didTerminate() { ask.yield() }

        /// One waiter at a time (`run`'s task); returns at once when the task is cancelled.
        func untilAsked() async {
            var next = asks.makeAsyncIterator()
            _ = await next.next()
        }
    }
}
