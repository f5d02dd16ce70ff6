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

    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public static func run(_ arguments: [String]) throws -> Result {
        try runTool(path, arguments)
    }

    public static func runTool(_ executable: String, _ arguments: [String]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    public static func temporaryDirectory() -> String {
        let d = NSTemporaryDirectory() + "scand-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }
}
