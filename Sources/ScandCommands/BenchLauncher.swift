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

    /// What `scand bench --help` says when scand-bench is not there to say it.
    static let help = """
        USAGE: scand bench [all|frames|compare|preview|photos|packaging|till|journal|mjpeg|locate|socket] [OPTIONS]

        Measure scand against other readers; with no benchmark named, runs them all and prints their tables.
          frames    decoded and dropped frames per second of the live pipeline at several frame sizes
          compare   scand, zxing-cpp's defaults and libzbar on the same generated camera frames
          preview   what the setup page's live preview costs the daemon
          photos    real photos (../shared/testdata: zxing-cpp's samples, quagga2's), with zbarimg and zxing-cpp's defaults
          packaging generated packaging photos: crumpled bars, quiet zones cut by the photo's edge (with photos' readers)
          till      held items at a kiosk camera: SCANs per item, duplicates, misreads, frames to the first SCAN
          journal   the event journal's append and replay rates
          mjpeg     MJPEG natively (libjpeg-turbo, grey) against libv4lconvert converting every frame
          locate    the linear localizer on the real photos: candidates, answers its bands read, reads where there is no code
          socket    the socket's event fan-out of a scand executable (or an older build's): CPU per 1,000 events to 1-64 clients
        """

    func run() throws {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bench = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("scand-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else {
            // Help needs no benchmark: say what there is and how to get it built.
            if arguments.contains(where: { ["-h", "--help", "help"].contains($0) }) {
                print(Self.help + "\n\n(scand-bench, which runs them, is not built beside \(exe): `swift build --product scand-bench` builds it.)")
                return
            }
            printErr("no scand-bench beside \(exe) to run the benchmarks (`swift build --product scand-bench` builds it there)")
            throw ExitCode(ExitStatus.missingFile)
        }
        let argv = ([bench] + arguments).map { strdup($0) } + [nil]
        execv(bench, argv)
        printErr("cannot run \(bench): \(String(cString: strerror(errno)))")
        throw ExitCode(ExitStatus.osError)
    }
}
