import Foundation
import ScandCore

/// The configuration of a command that runs beside the daemon as its client (`scand mqtt`, `scand wedge`,
/// `scand web`): `--config`, else /etc/scand/scand.toml when it exists (not for web, whose unit names
/// web.toml), else the defaults; then the command's settings options over it; the daemon's socket and the client's state file resolved as its packaged unit has them.
struct ClientConfiguration {
    static let defaultPath = "/etc/scand/scand.toml"

    /// The file read, if any.
    let path: String?
    /// The file's settings with the options over them.
    let settings: ScandConfig

    /// Why a command cannot start: its one line and exit status.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        /// 64 for an option's value, 78 for the file.
        var status = ExitStatus.configuration
    }

    /// `options`: the command's settings options, read (and checked) as `CommandLineSettings` reads them.
    init(_ config: String?, options arguments: [String], of command: String, defaultPath: String? = ClientConfiguration.defaultPath) throws(Problem) {
        let options: CommandLineSettings
        do { options = try CommandLineSettings(arguments, command: command, table: .scand) } catch {
            throw Problem(description: error.description, status: ExitStatus.usage)
        }
        path = config ?? defaultPath.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        let file: ScandConfig
        do { file = try path.map { path throws(ConfigFileError) in try ConfigFileError.load(path, over: ScandConfig()) } ?? ScandConfig() } catch {
            throw Problem(description: error.description)
        }
        // Checked above (and by the command's validate()), before the file: no value of a client's table
        // depends on another's, so none can fail over the file's.
        do { settings = try options.applied(to: file) } catch { throw Problem(description: error.description, status: ExitStatus.usage) }
    }

    /// The client's own socket setting, else where a daemon reading the same file listens, else (no file, or
    /// `[socket] path = "none"`) the first of the usual places where a daemon answers (`DaemonSocket`).
    func socketPath(_ own: String) -> String {
        guard own.isEmpty else { return own }
        return (path == nil ? nil : settings.socketPath) ?? DaemonSocket().waitingPath()
    }

    /// A problem found in the settings as a whole (a layout that cannot type the prefix): the file's fault,
    /// naming it and its table, or without a file the options'.
    func problem(_ message: String, table: String) -> Problem {
        Problem(description: (path.map { "\($0): [\(table)] " } ?? "") + message, status: path == nil ? ExitStatus.usage : ExitStatus.configuration)
    }
}
