import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol

/// `scand controls`: the running daemon's camera controls, and setting them live (`--set`), kept for
/// restarts with `--keep`: what the setup page does, for a shell or a fleet's configuration tool. Setting is
/// for the admin group, as on the page.
struct ControlsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "List the running daemon's camera controls, or set them live (--set) and keep them for restarts (--keep).",
        discussion: """
            Values are integers, true or false, or a menu item's name or index, as in [camera.controls]; --set is \
            repeatable and applied in order (automatic modes off first). Kept controls are written to the daemon's \
            state directory (camera-controls.toml) and override the configuration's. Exit status: 0, 64 when the \
            daemon refuses (a value the camera does not take) or bad options, 69 when no daemon answers, 75 when \
            it is busy, 77 without permission (the socket's group, or not in the admin group).
            """
    )

    @Option(name: .long, help: DaemonSocket.optionHelp)
    var socket: String?

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Set a control now: NAME=VALUE (repeatable).", valueName: "NAME=VALUE"))
    var set: [String] = []

    @Flag(name: .long, help: "Keep the controls set so far (with --set's) in the daemon's state directory, for restarts.")
    var keep = false

    @Flag(name: .long, help: "Print the daemon's CONTROLS line (JSON) instead of a list.")
    var json = false

    /// `--set`s as settings: `true`/`false`, an integer, else a menu item's name.
    func settings() throws -> [CameraControlSetting] {
        try set.map { item in
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw ValidationError("--set takes NAME=VALUE, e.g. --set focus_absolute=250 (got '\(item.prefix(64))')")
            }
            let name = item[..<eq].trimmingCharacters(in: .whitespaces), text = item[item.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { throw ValidationError("--set \(name)= needs a value") }
            let value: CameraControlValue =
                switch text {
                case "true": .boolean(true)
                case "false": .boolean(false)
                default: Int(text).map { .integer($0) } ?? .text(text)
                }
            return CameraControlSetting(name: name, value: value)
        }
    }

    func validate() throws {
        let s = try settings()
        if s.count > CameraControlChange.maxSettings { throw ValidationError("at most \(CameraControlChange.maxSettings) --set at once") }
    }

    func run() async throws {
        let settings = try settings()
        let request: ClientRequest =
            settings.isEmpty && !keep ? .cameraControls : .setCameraControls(CameraControlChange(settings: settings, keep: keep))
        do {
            let answer = try await DaemonClient.ask(request, socketPath: try socket ?? DaemonSocket().resolve())
            guard !json, case .cameraControls(let report)? = answer.event else { return WatchCommand.print(answer.line) }
            // Line by line: each escaped on its own (a driver's names are data), the newlines kept.
            for line in Self.lines(report) { WatchCommand.print(line) }
        } catch let error as DaemonError {
            Logger.standardError(error.description, .error)
            throw ExitCode(ExitStatus.of(error))
        }
    }

    /// The controls as `scand devices --controls` lists them, then what was set and kept.
    static func lines(_ report: CameraControlsReport) -> [String] {
        var lines = ["\(report.device)" + (report.controls.isEmpty ? ": no camera controls" : " ([camera.controls] name = value):")]
        lines += report.controls.map { "  " + DevicesCommand.line(for: $0) }
        func list(_ settings: [CameraControlSetting]) -> String { settings.map { "\($0.name) = \($0.value)" }.joined(separator: ", ") }
        if !report.set.isEmpty { lines.append("set live: \(list(report.set))") }
        if !report.kept.isEmpty { lines.append("kept for restarts: \(list(report.kept))") }
        return lines
    }
}
