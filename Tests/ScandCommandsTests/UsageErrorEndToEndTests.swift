import Foundation
import ScandTestSupport
import Testing

/// A command line that cannot run, as a newcomer types it: one line in scand's style on stderr (`scand: …`,
/// no ArgumentParser usage block), its exit status, and what to type instead (issue 46, items 3, 8 and 9).
@Suite struct UsageErrorEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    @Test(arguments: [
        (
            ["mqtt", "-h", "broker.example"], 64,
            "-h is help in every scand command, not the broker's host as in mosquitto_sub: use --host broker.example"
        ),
        (["scna", "x.png"], 64, "unknown command 'scna'; did you mean 'scand scan'?"),
        (["run", "--raw"], 64, "unknown option '--raw'; did you mean 'scand watch --raw' or 'scand scan --raw'?"),
        (["run", "/dev/video0"], 64, "unexpected argument '/dev/video0'; did you mean '--device /dev/video0'?"),
        (["scan", "--raww", "x.png"], 1, "unknown option '--raww'; did you mean '--raw'?"),
        (["watch", "--count"], 64, "missing value for '--count <N>' (see scand watch --help)"),
        (["scan", "--formats", "qrcodez", "x.png"], 1, "--formats: lists an unknown barcode format 'qrcodez'; did you mean QRCode?"),
        (["run", "--formats", "qrcodez"], 64, "--formats: lists an unknown barcode format 'qrcodez'; did you mean QRCode?"),
        (
            ["roi", "25,25,50,50"], 64,
            "rect of interest: x,y,w,h are fractions of the frame, 0…1, not percent: for 25,25,50,50 percent write 0.25,0.25,0.5,0.5"
        )
    ])
    func aMistakeIsOneLineSayingWhatToTypeInstead(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let r = try ScandBinary.run(arguments)
        #expect(r.status == status, "scand \(arguments.joined(separator: " ")): \(r.stderr)")
        #expect(r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("scand: "), "one line: \(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// Both commands that take --formats say the same, with the spellings the examples use.
    @Test func anUnknownFormatListsTheSpellingsTheExamplesUse() throws {
        for arguments in [["scan", "--formats", "nope", "x.png"], ["run", "--formats", "nope"], ["watch", "--formats", "nope"]] {
            let r = try ScandBinary.run(arguments)
            #expect(r.stderr.contains("--formats: lists an unknown barcode format 'nope' (known: Aztec"), "\(r.stderr)")
            #expect(r.stderr.contains("so ean13 is EAN-13; also qr,"), "\(r.stderr)")
        }
    }

    @Test func minusVAndMinusCapitalVPrintTheVersion() throws {
        let long = try ScandBinary.run(["--version"])
        for flag in ["-v", "-V"] {
            let r = try ScandBinary.run([flag])
            #expect(r.status == 0 && r.stdout == long.stdout && !r.stdout.isEmpty, "\(flag): \(r.stdout)\(r.stderr)")
        }
    }

    /// `--help` still works for mqtt, and `-h` alone is help there as everywhere.
    @Test func mqttHelpIsStillHelp() throws {
        for flag in ["-h", "--help"] {
            let r = try ScandBinary.run(["mqtt", flag])
            #expect(r.status == 0 && r.stdout.contains("OVERVIEW: Publish"), "\(flag): \(r.stderr)")
        }
    }

    /// No camera: status 69 (EX_UNAVAILABLE) and the demo source named; --json still prints the empty list.
    @Test func devicesWithoutACameraSaysSoAndPointsAtTheDemo() throws {
        let empty = dir + "/dev"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let text = try ScandBinary.run(["devices", "--dev-root", empty])
        #expect(text.status == 69 && text.stdout.isEmpty, "\(text.stdout)\(text.stderr)")
        #expect(text.stderr.contains("no video devices under \(empty)/video*") && text.stderr.contains("scand run --source demo"), "\(text.stderr)")
        let json = try ScandBinary.run(["devices", "--json", "--dev-root", empty])
        #expect(json.status == 69 && json.stdout == #"{"class":"DEVICES","devices":[]}"# + "\n", "\(json.stdout)")
    }
}
