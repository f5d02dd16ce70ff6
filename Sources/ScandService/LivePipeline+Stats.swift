import ScandCore
import ScandProtocol

extension LivePipeline {
    /// A STATS event with the counters.
    public func statsEvent() -> Event {
        .stats(device: device, counters: counters)
    }
}
