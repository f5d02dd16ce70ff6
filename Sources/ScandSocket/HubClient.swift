import ScandEventLog
import ScandProtocol

/// One subscriber as the hub keeps it, under its lock: what it watches, and the replay its numbered events go
/// to, if any.
struct HubClient {
    let subscriber: Subscriber
    var watch: ClientRequest.Watch?
    /// The replay running, by its id (`ReplayRequest.id`).
    var replay: Int?
    /// Some numbered events were left out while the replay's outbox was full: the journal has them, and the
    /// replay reads it again for them (`EventHub.replayCaughtUp`).
    var lagged = false

    /// Posts a published event if the client takes it; returns the items waiting when the client is slow.
    mutating func deliver(_ published: PublishedEvent) -> Int? {
        if replay != nil, published.seq != nil {
            if lagged && published.journaled { return nil }
            switch subscriber.post(.live(published)) {
            case .taken, .gone: return nil
            case .full(let waiting), .lost(let waiting):
                guard published.journaled else { return waiting }
                lagged = true
                return nil
            }
        }
        guard watch?.accepts(published.event) ?? false else { return nil }
        switch subscriber.post(.line(published.line)) {
        case .taken, .gone: return nil
        case .full(let waiting), .lost(let waiting): return waiting
        }
    }
}
