/// What a client says of its subscription's ups and downs: each cause of an outage once (a daemon that stays
/// away is one line, not one per attempt), and whether a subscription ends an outage that was said. Pure: the
/// `SubscriptionLoop` feeds it.
public struct OutageReport: Sendable, Equatable {
    /// The cause said last in this outage (`cause(of:)`); nil: none since the last subscription.
    private var said: String?
    private var subscribedBefore = false

    public init() {}

    /// The reason to say for a lost subscription, nil when this outage said it already.
    public mutating func lost(_ error: DaemonError) -> String? {
        let reason = error == .closed ? "scand closed the event subscription" : error.description
        let cause = Self.cause(of: error, reason)
        defer { said = cause }
        return cause == said ? nil : reason
    }

    /// What makes two failures one cause: a daemon that is not running is one, whether its socket is gone or
    /// still there with nothing listening (a daemon stopping closes its listener, then removes the file: the
    /// attempts between see each); any other failure is its own words.
    static func cause(of error: DaemonError, _ reason: String) -> String {
        if case .unreachable(_, .notRunning) = error { return "not running" }
        return reason
    }

    /// A confirmed subscription: what it is to the person reading the log.
    public mutating func subscribed() -> SubscriptionLoop.Step {
        defer {
            said = nil
            subscribedBefore = true
        }
        return .subscribed(again: subscribedBefore, afterOutage: said != nil)
    }
}
