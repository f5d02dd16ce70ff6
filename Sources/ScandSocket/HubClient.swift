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

    enum Delivery {
        /// Posted, or not for this client.
        case done
        /// Not keeping up, with this many items waiting.
        case slow(waiting: Int)
        /// A live line for the channel at once: the writer has nothing waiting (`Subscriber.writeLive`).
        case direct
    }

    /// Posts a published event if the client takes it, or says to write it at once.
    mutating func deliver(_ published: PublishedEvent) -> Delivery {
        if replay != nil, published.seq != nil {
            if lagged && published.journaled { return .done }
            switch subscriber.post(.live(published)) {
            case .taken, .gone: return .done
            case .full(let waiting), .lost(let waiting):
                guard published.journaled else { return .slow(waiting: waiting) }
                lagged = true
                return .done
            }
        }
        guard watch?.accepts(published.event) ?? false else { return .done }
        if subscriber.isIdle { return .direct }
        switch subscriber.post(.line(published.line)) {
        case .taken, .gone: return .done
        case .full(let waiting), .lost(let waiting): return .slow(waiting: waiting)
        }
    }
}
