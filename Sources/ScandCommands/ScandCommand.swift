import ArgumentParser
import Foundation
import Logging
import ScandCore
import ScandLogging
import ScandSocket

/// The `scand` command line. The executable's `main` only calls this; tests call the same runners.
public struct ScandCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scand",
        abstract: "Barcode scanning daemon: turns a webcam into a barcode scanner.",
        version: ScandVersion.string,
        subcommands: [
            ScanCommand.self, RunCommand.self, WatchCommand.self, ControlsCommand.self, RoiCommand.self, WebCommand.self, MQTTCommand.self,
            WedgeCommand.self,
            DevicesCommand.self,
            RecordCommand.self,
            EncodeCommand.self, SynthCommand.self, BenchLauncher.self
        ]
    )

    public init() {}
}

public enum ScandVersion {
    public static var string: String { VersionInfo.release }
}

extension ScandCommand {
    /// Parses the command line and runs the chosen subcommand, async or not. (Called from top-level code,
    /// `main()` resolves to the synchronous variant, which refuses async subcommands.)
    public static func runMain(_ arguments: [String]? = nil) async {
        let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
        let scan = arguments.first == ScanCommand.configuration.commandName
        // `-v` and `-V` as `--version`, as most tools take them (gpsd's -V).
        if arguments == ["-v"] || arguments == ["-V"] {
            StandardStream.writeAll(1, ScandVersion.string + "\n")
            Foundation.exit(0)
        }
        if let problem = UsageError.mosquittoHost(in: arguments) {
            Logger.standardError(problem, .error)
            Foundation.exit(ExitStatus.usage)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // A command line that cannot run: one line in scand's style, with what to type instead.
                let message = message(for: error)
                if !message.isEmpty { Logger.standardError(UsageError(arguments: arguments, message: message).line, .error) }
                Foundation.exit(scan ? ScanCommand.usageStatus : code.rawValue)
            }
            // As `exit(withError:)` (help, the version, or an error's text), with what the message echoes
            // escaped: a command line may carry barcode text, and nothing of it reaches the terminal raw.
            let message = fullMessage(for: error, columns: nil)
            if !message.isEmpty {
                if code.isSuccess {
                    let safe = message.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).escapingControlCharacters() }
                    StandardStream.writeAll(1, safe.joined(separator: "\n") + "\n")
                } else {
                    Logger.standardError(UsageError.sentence(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message), .error)
                }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
