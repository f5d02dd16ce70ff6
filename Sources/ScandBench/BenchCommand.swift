import ArgumentParser
import Foundation
import ScandDecoding

/// The `scand-bench` command line, which `scand bench` runs: its own executable because the comparison
/// links libzbar, which the daemon must not carry.
public struct BenchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scand bench",
        abstract: "Measure scand against other readers.",
        subcommands: [
            AllBenches.self, PhotosBench.self, FramesBench.self, CompareBench.self, PreviewBench.self, JournalBench.self, MJPEGBench.self,
            TillBench.self, LocateBench.self, PackagingBench.self, SocketBench.self
        ],
        defaultSubcommand: AllBenches.self
    )

    public init() {}

    /// Parses, then runs the bench; every bench decodes in scand-decoder, so without it the figures would be
    /// of failures: one line and exit status 72, as `scand run` and `scand scan` (`--help` still answers).
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            // A help request parses as the parser's own help command: that one needs no decoder.
            let bench = configuration.subcommands.contains { $0 == type(of: command) }
            do { if bench { _ = try DecoderExecutable.path() } } catch {
                FileHandle.standardError.write(Data("scand bench: \(error.description)\n".utf8))
                throw ExitCode(72)
            }
            if var benchmark = command as? any AsyncParsableCommand {
                try await benchmark.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
