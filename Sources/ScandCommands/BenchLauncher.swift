import ArgumentParser
import Foundation

/// `scand bench …`: the benchmarks are their own executable, `scand-bench`, built beside `scand` (they link
/// libzbar, which the daemon must not); this runs it in place of scand with the same arguments.
struct BenchLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure scand against other readers (runs scand-bench, built beside scand)."
    )

    @Argument(parsing: .captureForPassthrough, help: "Arguments for scand-bench (see scand bench --help).")
    var arguments: [String] = []

    func run() throws {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bench = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("scand-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else {
            printErr("no scand-bench beside \(exe) to run the benchmarks (`swift build --product scand-bench` builds it there)")
            throw ExitCode(1)
        }
        let argv = ([bench] + arguments).map { strdup($0) } + [nil]
        execv(bench, argv)
        printErr("cannot run \(bench): \(String(cString: strerror(errno)))")
        throw ExitCode(1)
    }
}
