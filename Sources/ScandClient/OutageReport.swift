/// What a client says of its subscription's ups and downs: each cause of an outage once (a daemon that stays
/// away is one line, not one per attempt), and whether a subscription ends an outage that was said. Pure: the
/// `SubscriptionLoop` feeds it.
public struct OutageReport: Sendable, Equatable {
    /// The cause said last in this outage; nil: none since the last subscription.
    private var said: String?
    private var subscribedBefore = false

    public init() {}

    /// The reason to say for a lost subscription, nil when this outage said it already.
    public mutating func lost(_ error: DaemonError) -> String? {
        let reason = error == .closed ? "scand closed the event subscription" : error.description
        defer { said = reason }
        return reason == said ? nil : reason
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
