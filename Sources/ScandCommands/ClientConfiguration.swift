import Foundation
import ScandCore

/// The configuration file of a command that runs beside the daemon as its client (`scand mqtt`, `scand
/// wedge`): `--config`, else /etc/scand/scand.toml when it exists, else the defaults; the daemon's socket and
/// the client's state file resolved as its packaged unit has them.
struct ClientConfiguration {
    static let defaultPath = "/etc/scand/scand.toml"

    /// The file read, if any.
    let path: String?
    let file: ScandConfig

    init(_ config: String?) throws(ConfigFileError) {
        path = config ?? (FileManager.default.fileExists(atPath: Self.defaultPath) ? Self.defaultPath : nil)
        file = try path.map { path throws(ConfigFileError) in try ConfigFileError.load(path, over: ScandConfig()) } ?? ScandConfig()
    }

    /// The client's own socket setting, else where a daemon reading the same file listens, else (no file, or
    /// `[socket] path = "none"`) the first of the usual places where a daemon answers (`DaemonSocket`).
    func socketPath(_ own: String) -> String {
        guard own.isEmpty else { return own }
        return (path == nil ? nil : file.socketPath) ?? DaemonSocket().waitingPath()
    }
}
