import ArgumentParser
import Foundation
import Logging
import ScandCore
import ScandLogging
import ScandService

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
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // As `exit(withError:)`, with what the message echoes (an option's value) escaped: a command line
            // may carry barcode text, and nothing of it reaches the terminal raw.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let safe = message.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).escapingControlCharacters() }
                StandardStream.writeAll(code.isSuccess ? 1 : 2, safe.joined(separator: "\n") + "\n")
            }
            let scan = (arguments ?? Array(CommandLine.arguments.dropFirst())).first == ScanCommand.configuration.commandName
            Foundation.exit(scan && code == .validationFailure ? ScanCommand.usageStatus : code.rawValue)
        }
    }
}
