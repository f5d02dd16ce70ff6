import NIOConcurrencyHelpers
import ScandCore

/// The rect of interest set over the socket (`?ROI=`): it overrides the configuration's `roi`, through
/// reloads and, kept by `RegionOfInterestStore` in the state directory, through restarts.
final class RegionOfInterestOverride: Sendable {
    let store: RegionOfInterestStore?
    private let rect: NIOLockedValueBox<NormalizedRect?>

    /// Loads what was kept; a kept file that cannot be read is reported through `log` and ignored.
    init(store: RegionOfInterestStore?, log: (String, LogLevel) -> Void) {
        self.store = store
        var kept: NormalizedRect?
        if let store {
            do { kept = try store.load() } catch { log("\(error); using the configuration's roi", .warning) }
            if let kept { log("rect of interest \(kept) from \(store.path) (set over the socket; it overrides the configuration's roi)", .notice) }
        }
        rect = NIOLockedValueBox(kept)
    }

    /// `config` with the override, if any.
    func applied(to config: ScandConfig) -> ScandConfig {
        guard let r = rect.withLockedValue({ $0 }) else { return config }
        var c = config
        c.regionOfInterest = r
        return c
    }

    /// Keeps `new` (first on disk, so that a rect that cannot be kept is not applied either).
    func set(_ new: NormalizedRect) throws(RegionOfInterestStore.Failure) {
        try store?.save(new)
        rect.withLockedValue { $0 = new }
    }
}
