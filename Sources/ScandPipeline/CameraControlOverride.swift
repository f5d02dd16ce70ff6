import Logging
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandLogging
import ScandProtocol

/// Camera controls set over the socket (`?CONTROLS=`, the setup page): set on the running camera at once,
/// then in force on top of the configuration's `[camera.controls]` through replugs and reloads, and, once
/// kept by `CameraControlStore` in the state directory, through restarts. Changes are carried out one at a
/// time in the order asked, as the rect of interest's are.
package final class CameraControlOverride: Sendable {
    let store: CameraControlStore?
    private struct State {
        /// In force on top of the configuration's.
        var set: [CameraControlSetting]
        /// Written to the state directory.
        var kept: [CameraControlSetting]
    }
    private let state: NIOLockedValueBox<State>
    private let changes = SerialChanges()

    /// Loads what was kept; a kept file that cannot be read is reported through `log` and ignored.
    package init(store: CameraControlStore?, log: Logger) {
        self.store = store
        var kept: [CameraControlSetting] = []
        if let store {
            do { kept = try store.load() } catch { log("\(error); using the configuration's [camera.controls]", .warning) }
            if !kept.isEmpty {
                let names = kept.map(\.name).joined(separator: ", ")
                log("camera controls \(names) from \(store.path) (set on the setup page; they override the configuration's)", .notice)
            }
        }
        state = NIOLockedValueBox(State(set: kept, kept: kept))
    }

    /// `config` with the controls set over the socket on top of its own.
    package func applied(to config: ScandConfig) -> ScandConfig {
        var c = config
        c.cameraControls = config.cameraControls.overridden(by: state.withLockedValue { $0.set })
        return c
    }

    /// CONTROLS for the camera's `controls` (none for a source without any).
    package func report(device: String, controls: [CameraControl]?) -> CameraControlsReport {
        state.withLockedValue { CameraControlsReport(device: device, controls: controls ?? [], set: $0.set, kept: $0.kept) }
    }

    /// Sets `change.settings` on `pipeline`'s camera, then (if it took them) keeps them in force with
    /// `adopt(all set so far)` and, when `change.keep`, in the state directory; after every change asked
    /// before. `done` gets CONTROLS, or an ERROR saying what was refused or could not be kept.
    package func change(
        _ change: CameraControlChange, on pipeline: @escaping @Sendable () -> LivePipeline,
        adopt: @escaping @Sendable ([CameraControlSetting]) async -> Void, done: @escaping @Sendable (Event) -> Void
    ) {
        let store = self.store, state = self.state, changes = self.changes
        changes.enqueue {
            let running = pipeline()
            let settings = change.settings.isEmpty ? nil : change.settings
            let controls: [CameraControl]
            do throws(CaptureError) {
                guard let c = try await running.cameraControls(set: settings) else {
                    return done(.error("\(running.device): a recording has no camera controls to keep"))
                }
                controls = c
            } catch {
                return done(.error(error.description))
            }
            let all = state.withLockedValue { s in
                s.set = s.set.overridden(by: change.settings)
                return s.set
            }
            if settings != nil { await adopt(all) }
            if change.keep {
                guard let store else {
                    return done(.error("the camera controls are set, not kept: this daemon has no state directory"))
                }
                let failure = await changes.onDisk { () throws(CameraControlStore.Failure) in try store.save(all) }
                if let failure { return done(.error("the camera controls are set, not kept: \(failure)")) }
                state.withLockedValue { $0.kept = all }
            }
            done(.cameraControls(self.report(device: running.device, controls: controls)))
        }
    }
}
