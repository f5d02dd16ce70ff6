import Foundation
import Logging
import ScandCore
import ScandFiles
import ScandLogging

/// The rect of interest set over the socket (`?ROI=`): it overrides the configuration's `roi`, through
/// reloads and, kept in the state directory, through restarts (until the file is removed). The one writer of
/// that file: changes are carried out one at a time in the order they were asked (each saved, then
/// applied), so the last one asked wins on disk and in the pipeline alike, and what STATUS shows is what a
/// restart uses. The file is one line, `x,y,w,h`, replaced whole (`AtomicFile`): a crash mid-write leaves the
/// old rect, never half a new one. An actor: the rect is its state; each change is a task that awaits the one
/// asked before it (`SerialChanges`).
package actor RegionOfInterestOverride {
    /// The kept rect's file; nil: no state directory, nothing is kept.
    package nonisolated let path: String?
    private var rect: NormalizedRect?
    /// The change asked last.
    private var last: Task<Failure?, Never>?

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The kept rect's file in the state directory `directory`.
    package static func path(in directory: String) -> String { (directory as NSString).appendingPathComponent("roi") }

    /// Loads what was kept; a kept file that cannot be read is reported through `log` and ignored.
    package init(directory: String?, log: Logger) {
        path = directory.map(Self.path(in:))
        var kept: NormalizedRect?
        if let path {
            do { kept = try Self.load(path) } catch { log("\(error); using the configuration's roi", .warning) }
            if let kept { log("rect of interest \(kept) from \(path) (set over the socket; it overrides the configuration's roi)", .notice) }
        }
        rect = kept
    }

    /// `config` with the override, if any.
    package func applied(to config: ScandConfig) -> ScandConfig {
        guard let r = rect else { return config }
        var c = config
        c.regionOfInterest = r
        return c
    }

    /// Keeps `new` and then `apply`s it, after every change asked before; a rect that cannot be kept is not
    /// applied either. Returns once it is done: the failure, if any.
    package func set(_ new: NormalizedRect, apply: @escaping @Sendable (NormalizedRect) async -> Void) async -> Failure? {
        let before = last, path = self.path
        let change = Task { () -> Failure? in
            _ = await before?.value
            let failure = await SerialChanges.onDisk { () throws(Failure) in if let path { try Self.save(new, to: path) } }
            if failure == nil {
                rect = new
                await apply(new)
            }
            return failure
        }
        last = change
        return await change.value
    }

    private static func save(_ rect: NormalizedRect, to path: String) throws(Failure) {
        do { try AtomicFile.replace(path, with: Array("\(rect)\n".utf8), creatingDirectory: true) } catch {
            throw Failure(description: "cannot keep the rect of interest in \(path): \(error.description)")
        }
    }

    /// The kept rect; nil when none was set. A file that does not hold one is an error naming it.
    private static func load(_ path: String) throws(Failure) -> NormalizedRect? {
        let data: [UInt8]
        // A kept setting is a line or a short table: 64 KiB is far beyond either.
        do { data = try BoundedFile.read(path, maxBytes: 64 << 10) } catch {
            if error.kind == .missing { return nil }
            throw Failure(description: "\(path): cannot read it (\(error.reason))")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do { return try NormalizedRect.parse(text) } catch {
            throw Failure(description: "\(path): \(error) (remove the file to use the configuration's roi)")
        }
    }
}
