import CLibFuzzer
import Foundation

/// What every fuzz target shares: its seed corpus written on request, a broken property turned into a crash
/// (libFuzzer saves the input that made it), and a scratch file for the readers that take a path.
public enum Fuzz {
    /// A seed: a file name in the corpus and its bytes.
    public typealias Seed = (name: String, bytes: [UInt8])

    /// The target's main: with `SCAND_FUZZ_SEEDS=<dir>` in the environment, writes `seeds()` into that
    /// directory and exits (scripts/fuzz makes each corpus this way, from the project's own encoders); else
    /// hands the command line over to libFuzzer, which calls `test` with each input.
    public static func run(seeds: () -> [Seed], test: @escaping ([UInt8]) -> Void) -> Never {
        if let dir = ProcessInfo.processInfo.environment["SCAND_FUZZ_SEEDS"] {
            write(seeds(), to: dir)
            exit(0)
        }
        target = test
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }

    /// The test `testOneInput` calls (a C callback takes no context). Set once, before the driver starts.
    nonisolated(unsafe) static var target: (([UInt8]) -> Void)?

    private static func write(_ seeds: [Seed], to dir: String) {
        do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            fail("cannot make \(dir): \(error)")
        }
        for seed in seeds where !FileManager.default.createFile(atPath: dir + "/" + seed.name, contents: Data(seed.bytes)) {
            fail("cannot write the seed \(dir)/\(seed.name)")
        }
    }

    /// Ends the run as a crash unless `condition` holds: a property of the parser that the input broke.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail("property broken: \(message())") }
    }

    /// A refusal's text: one line, short, as every error scand gives for bad input.
    public static func requireOneLine(_ text: String, limit: Int = 1000) {
        require(!text.contains("\n") && !text.contains("\r") && text.utf8.count <= limit, "not one short line: \(text.debugDescription)")
    }

    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        abort()
    }

    /// libFuzzer's input as an array (an empty input may come without a pointer).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The path of this process's scratch file, holding `bytes`, for readers that open a path (a recording,
    /// an image): one file per process in TMPDIR, rewritten for each input.
    public static func file(holding bytes: [UInt8], suffix: String) -> String {
        let path = NSTemporaryDirectory() + "/scand-fuzz-\(getpid())" + suffix
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { fail("cannot write \(path)") }
        return path
    }
}

extension Fuzz {
    /// Ends the run as a crash once the process's peak resident memory passes `mebibytes`: an input of a few
    /// kilobytes made the reader commit that much (the peak only grows, so the input that raised it is the
    /// one saved).
    public static func requirePeakMemory(below mebibytes: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peak = usage.ru_maxrss / 1024  // KiB on Linux
        require(peak < mebibytes, "the peak resident memory reached \(peak) MiB, more than \(mebibytes) MiB")
    }
}

/// The driver's callback, under the name libFuzzer's own main (linked in too, though the Swift main runs)
/// refers to.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Fuzz.target?(Fuzz.bytes(data, size))
    return 0
}
