import Foundation

/// Runs the real `scand` executable built beside the test bundle.
public enum ScandBinary {
    public static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("scand").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("scand").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "scand"
    }

    /// scand-decoder, built beside `scand`, which starts it to decode: it goes where `scand` goes.
    public static var decoderPath: String {
        URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("scand-decoder").path
    }

    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public static func run(_ arguments: [String]) throws -> Result {
        try runTool(path, arguments)
    }

    /// Runs `executable` to its end (posix_spawn with SIGTERM unblocked, as `SpawnedProcess`), its output
    /// as written.
    public static func runTool(_ executable: String, _ arguments: [String]) throws -> Result {
        let p = try SpawnedProcess(executable, arguments)
        let status = p.run()
        return Result(status: status, stdout: p.stdoutText, stderr: p.stderrText)
    }

    public static func temporaryDirectory() -> String {
        TestFiles.directory("scand-e2e")
    }
}
