import ScandProtocol

/// The one loop of a client of the daemon's events (`scand watch`, `wedge`, `web` and `mqtt`): it runs the
/// subscription (connect, subscribe, `since` the last event, the backoff between attempts) beside its reader,
/// and hands the reader each line and each change of the connection in order, at the reader's pace, each
/// outage's cause once (`OutageReport`).
public enum SubscriptionLoop {
    public enum Step: Sendable, Equatable {
        /// A WATCH confirmed the subscription (its line follows as an `event`): `again` when one was made
        /// before, `afterOutage` when a loss was said since.
        case subscribed(again: Bool, afterOutage: Bool)
        /// A line of the daemon: the VERSION banner, the WATCH, the events, an ERROR.
        case event(ReceivedEvent)
        /// The subscription was lost or could not be made, and is tried again after the backoff (when it
        /// reconnects): `reason` is its cause in words, nil when this outage said it already.
        case lost(DaemonError, reason: String?)
    }

    /// Runs `subscription` (it must not be running yet) and hands each step to `take` until the subscription
    /// ends: the daemon closed it (when it does not reconnect; then it returns) or refused it (the
    /// `DaemonError` is thrown), or a graceful shutdown. What `take` throws ends the subscription and is thrown.
    public static func run(_ subscription: EventSubscription, _ take: (Step) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await subscription.run() }
            defer { group.cancelAll() }
            var report = OutageReport()
            for try await element in subscription {
                switch element {
                case .event(let line):
                    if line.eventClass == .watch { try await take(report.subscribed()) }
                    try await take(.event(line))
                case .lost(let error):
                    try await take(.lost(error, reason: report.lost(error)))
                }
            }
        }
    }
}
