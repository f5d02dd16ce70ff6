import ArgumentParser

/// The `scand` command line. The executable's `main` only calls this; tests call the same runners.
public struct ScandCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "scand",
        abstract: "Barcode scanning daemon: turns a webcam into a barcode scanner.",
        version: ScandVersion.string,
        subcommands: [ScanCommand.self, EncodeCommand.self, BenchCommand.self]
    )

    public init() {}
}

public enum ScandVersion {
    public static let string = "0.1.0"
}
