import Foundation
import ScandTestSupport
import Testing

/// Issue 32, 5: one exit status per kind of error across commands, as scand(8)'s EXIT STATUS lists them
/// (BSD sysexits; `scand scan` as zbarimg). A bad value was 64 for run, mqtt and watch and 78 for wedge.
@Suite struct ExitStatusEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    /// Every command with a bad option value: 64 (EX_USAGE), before anything is opened; scan 1, as zbarimg.
    @Test func aBadOptionValueIsSixtyFourForEveryCommand() throws {
        let socket = dir + "/none.sock"
        let cases: [([String], Int32)] = [
            (["scan", "--formats", "bogus", "x.png"], 1),
            (["run", "--fps", "bogus"], 64),
            (["watch", "--socket", socket, "--count", "0"], 64),
            (["controls", "--socket", socket, "--set", "nothing"], 64),
            (["roi", "--socket", socket, "2,2,2,2"], 64),
            (["web", "--socket", socket, "--listen", "bogus"], 64),
            (["mqtt", "--socket", socket, "--port", "70000"], 64),
            (["mqtt", "--socket", socket, "--host", ""], 64),
            (["wedge", "--socket", socket, "--layout", "xx", "--dry-run"], 64),
            (["wedge", "--socket", socket, "--key-delay-ms", "-5", "--dry-run"], 64),
            (["wedge", "--socket", socket, "--layout", "us", "--prefix", "\u{20AC}", "--dry-run"], 64),
            (["devices", "--bogus"], 64),
            (["record", "--frames", "0", dir + "/out.rec"], 64),
            (["encode", "--format", "bogus", "--text", "x", dir + "/out.png"], 64),
            (["synth", "--code", "bogus", dir + "/out.rec"], 64)
        ]
        for (arguments, expected) in cases {
            let r = try ScandBinary.run(arguments)
            #expect(r.status == expected, "scand \(arguments.joined(separator: " ")): \(r.stderr)")
            #expect(r.stdout.isEmpty, "scand \(arguments.joined(separator: " ")): \(r.stdout)")
        }
    }

    /// A wrong configuration file is 78 (EX_CONFIG) for every command that reads one; the units do not
    /// restart for it.
    @Test func aWrongConfigurationFileIsSeventyEight() throws {
        let config = dir + "/wrong.toml"
        try "[camera]\nfps = \"fast\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        for command in ["run", "web", "mqtt", "wedge"] {
            let r = try ScandBinary.run([command, "--config", config] + (command == "wedge" ? ["--dry-run"] : []))
            #expect(r.status == 78, "scand \(command): \(r.stderr)")
            #expect(r.stderr.contains(config), "scand \(command) names the file: \(r.stderr)")
        }
    }

    /// An output that cannot be written is 74 (EX_IOERR) for the commands that write files, in one line
    /// naming it (it was 1, with encode's and synth's errors as the parser's).
    @Test func anOutputThatCannotBeWrittenIsSeventyFour() throws {
        for arguments in [
            ["encode", "--format", "qr", "--text", "x", dir + "/missing/x.png"], ["synth", "--code", "QRCode:x@0.5,0.5", dir + "/missing/x.rec"]
        ] {
            let r = try ScandBinary.run(arguments)
            #expect(r.status == 74, "scand \(arguments[0]): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(dir + "/missing/x."), "\(r.stderr)")
        }
    }

    /// No daemon is 69 (EX_UNAVAILABLE) for the clients that ask once.
    @Test func noDaemonIsSixtyNine() throws {
        for command in [["watch", "--status"], ["controls"], ["roi"]] {
            let r = try ScandBinary.run(command + ["--socket", dir + "/none.sock"])
            #expect(r.status == 69, "scand \(command): \(r.stderr)")
        }
    }

    /// A replay that cannot be read is no input (66); one that is not a recording is bad data (65).
    @Test func aReplayThatCannotBeReadOrPlayed() throws {
        let missing = try ScandBinary.run(["run", "--socket", "none", "--source", "replay:" + dir + "/missing.rec"])
        #expect(missing.status == 66, "\(missing.stderr)")
        let garbage = dir + "/garbage.rec"
        FileManager.default.createFile(atPath: garbage, contents: Data("not a recording".utf8))
        let bad = try ScandBinary.run(["run", "--socket", "none", "--source", "replay:" + garbage])
        #expect(bad.status == 65, "\(bad.stderr)")
    }
}
