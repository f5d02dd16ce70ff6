import Logging
import ScandCapture
import ScandCore
import ScandLogging
import ScandProtocol

/// Camera controls set over the socket (`?CONTROLS=`, the setup page): set on the running camera at once,
/// then in force on top of the configuration's `[camera.controls]` through replugs and reloads, and, once
/// kept by `CameraControlStore` in the state directory, through restarts. Changes are carried out one at a
/// time in the order asked, as the rect of interest's are (`SerialChanges`). An actor: what is set and kept is
/// its state.
package actor CameraControlOverride {
    nonisolated let store: CameraControlStore?
    /// In force on top of the configuration's.
    private var set: [CameraControlSetting]
    /// Written to the state directory.
    private var kept: [CameraControlSetting]
    /// The change asked last.
    private var last: Task<Event, Never>?

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
        self.set = kept
        self.kept = kept
    }

    /// `config` with the controls set over the socket on top of its own.
    package func applied(to config: ScandConfig) -> ScandConfig {
        var c = config
        c.cameraControls = config.cameraControls.overridden(by: set)
        return c
    }

    /// CONTROLS for the camera's `controls` (none for a source without any).
    package func report(device: String, controls: [CameraControl]?) -> CameraControlsReport {
        CameraControlsReport(device: device, controls: controls ?? [], set: set, kept: kept)
    }

    /// Sets `change.settings` on `pipeline`'s camera, then (if it took them) keeps them in force with
    /// `adopt(all set so far)` and, when `change.keep`, in the state directory; after every change asked
    /// before. Returns CONTROLS once done, or an ERROR saying what was refused or could not be kept.
    package func change(
        _ change: CameraControlChange, on pipeline: @escaping @Sendable () async -> LivePipeline,
        adopt: @escaping @Sendable ([CameraControlSetting]) async -> Void
    ) async -> Event {
        let before = last, store = self.store
        let task = Task { () -> Event in
            _ = await before?.value
            let running = await pipeline()
            let settings = change.settings.isEmpty ? nil : change.settings
            let controls: [CameraControl]
            do throws(CaptureError) {
                guard let c = try await running.cameraControls(set: settings) else {
                    return .error("\(running.device): a recording has no camera controls to keep")
                }
                controls = c
            } catch {
                return .error(error.description)
            }
            set = set.overridden(by: change.settings)
            let all = set
            if settings != nil { await adopt(all) }
            if change.keep {
                guard let store else {
                    return .error("the camera controls are set, not kept: this daemon has no state directory")
                }
                let failure = await SerialChanges.onDisk { () throws(CameraControlStore.Failure) in try store.save(all) }
                if let failure { return .error("the camera controls are set, not kept: \(failure)") }
                kept = all
            }
            return .cameraControls(report(device: running.device, controls: controls))
        }
        last = task
        return await task.value
    }
}
