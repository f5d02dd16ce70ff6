import Foundation
import ScandTestSupport
import Testing

/// Issue 32, 5: `scand roi` reads and sets the running daemon's rect of interest from a shell (it took a
/// raw socket write), against the real daemon; what it sets is kept for a restart.
@Suite struct RoiEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    @Test func printsSetsKeepsAndResetsTheRectOfInterest() throws {
        let sock = dir + "/roi.sock", state = dir + "/state"
        func start() throws -> DaemonProcess {
            let daemon = try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera", "--state-directory", state])
            #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) }, "\(daemon.stderr)")
            return daemon
        }
        func roi(_ arguments: [String]) throws -> ScandBinary.Result { try ScandBinary.run(["roi", "--socket", sock] + arguments) }
        var daemon = try start()

        let first = try roi([])
        #expect(first.status == 0 && first.stdout == "0,0,1,1\n", "\(first.stdout)\(first.stderr)")
        let set = try roi(["0.25,0.1,0.5,0.8"])
        #expect(set.status == 0 && set.stdout == "0.25,0.1,0.5,0.8\n", "the rect the daemon took: \(set.stdout)\(set.stderr)")
        #expect(try roi([]).stdout == "0.25,0.1,0.5,0.8\n")
        let json = try roi(["--json"])
        #expect(json.stdout == #"{"class":"ROI","roi":[0.25,0.1,0.5,0.8]}"# + "\n", "\(json.stdout)")
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("set the rect of interest to") } }, "the daemon logs who set it")

        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        daemon = try start()
        #expect(try roi([]).stdout == "0.25,0.1,0.5,0.8\n", "kept for the restart")
        let reset = try roi(["--reset"])
        #expect(reset.status == 0 && reset.stdout == "0,0,1,1\n", "\(reset.stdout)\(reset.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)

        let gone = try roi([])
        #expect(gone.status == 69 && gone.stderr.contains("scand is not running"), "\(gone.stderr)")
    }

    @Test func aBadRectIsRefusedBeforeTheDaemonIsAsked() throws {
        for bad in ["0.5,0.5,0.9,0.1", "1,2,3", "a,b,c,d"] {
            let r = try ScandBinary.run(["roi", "--socket", dir + "/none.sock", bad])
            #expect(r.status == 64, "\(bad): \(r.stderr)")
            #expect(r.stderr.hasPrefix("scand: rect of interest: ") && r.stderr.split(separator: "\n").count == 1, "\(bad): \(r.stderr)")
        }
        let both = try ScandBinary.run(["roi", "--socket", dir + "/none.sock", "--reset", "0,0,1,1"])
        #expect(both.status == 64 && both.stderr.contains("--reset"), "\(both.stderr)")
    }
}
