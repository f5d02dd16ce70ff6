import ArgumentParser

/// The `scand-bench` command line, which `scand bench` runs: its own executable because the comparison
/// links libzbar, which the daemon must not carry.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scand bench",
        abstract: "Measure scand against other readers.",
        subcommands: [
            AllBenches.self, PhotosBench.self, FramesBench.self, CompareBench.self, PreviewBench.self, JournalBench.self, MJPEGBench.self,
            TillBench.self
        ],
        defaultSubcommand: AllBenches.self
    )

    public init() {}
}
