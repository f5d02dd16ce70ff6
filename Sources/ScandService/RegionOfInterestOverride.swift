import Logging
import NIOConcurrencyHelpers
import ScandCore
import ScandLogging

/// The rect of interest set over the socket (`?ROI=`): it overrides the configuration's `roi`, through
/// reloads and, kept by `RegionOfInterestStore` in the state directory, through restarts. The one writer of
/// that file: changes are carried out one at a time in the order they were asked (each saved, then
/// applied), so the last one asked wins on disk and in the pipeline alike, and what STATUS shows is what a
/// restart uses.
final class RegionOfInterestOverride: Sendable {
    let store: RegionOfInterestStore?
    private let rect: NIOLockedValueBox<NormalizedRect?>
    private let changes = SerialChanges()

    /// Loads what was kept; a kept file that cannot be read is reported through `log` and ignored.
    init(store: RegionOfInterestStore?, log: Logger) {
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

    /// Keeps `new` and then `apply`s it, after every change asked before; a rect that cannot be kept is not
    /// applied either. `done` gets the failure, if any.
    func set(
        _ new: NormalizedRect, apply: @escaping @Sendable (NormalizedRect) async -> Void,
        done: @escaping @Sendable (RegionOfInterestStore.Failure?) -> Void
    ) {
        let store = self.store, rect = self.rect, changes = self.changes
        changes.enqueue {
            let failure = await changes.onDisk { () throws(RegionOfInterestStore.Failure) in try store?.save(new) }
            if failure == nil {
                rect.withLockedValue { $0 = new }
                await apply(new)
            }
            done(failure)
        }
    }
}
