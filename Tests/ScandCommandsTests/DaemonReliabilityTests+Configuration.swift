import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func configurationFilesAreReadAsWrittenOrRefusedWithTheirLine() throws {
        let sock = dir + "/group.sock"
        let group = e2e.write("[socket]\ngroup = \"scand-no-such-group\"\n", "group.toml")
        let noGroup = try ScandBinary.run(["run", "--config", group, "--socket", sock, "--device", dir + "/no-camera"])
        #expect(noGroup.status == 78)
        #expect(noGroup.stderr.contains("group.toml: line 2: group 'scand-no-such-group' does not exist"), "\(noGroup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sock), "no socket left behind")
        let crlf = e2e.write("[camera]\r\nsize = \"1280x720\"\r\nfsp = 30\r\n", "crlf.toml")
        let typo = try ScandBinary.run(["run", "--config", crlf, "--socket", "none"])
        #expect(typo.status == 78 && typo.stderr.contains("crlf.toml: line 3: unknown key 'fsp' in [camera]"), "\(typo.stderr)")
        let bom = e2e.write("\u{FEFF}[camera]\nfps = 15\n", "bom.toml")
        let marked = try ScandBinary.run(["run", "--config", bom, "--socket", "none"])
        #expect(marked.status == 78 && marked.stderr.contains("bom.toml: line 1: the file starts with a byte-order mark"), "\(marked.stderr)")
        let directory = try ScandBinary.run(["run", "--config", dir, "--socket", "none"])
        #expect(directory.status == 78 && directory.stderr.contains("cannot read the configuration file (it is a directory)"), "\(directory.stderr)")
    }

    /// The file and the options go through one table: the same value is refused in the same words, the
    /// file's with its line (exit status 78), the option's as a usage error (64).
    @Test func aValueTheFileRefusesTheCommandLineRefusesInTheSameWords() throws {
        for (toml, args, message) in [
            ("[camera]\nfps = 2000\n", ["--fps", "2000"], "must be 0…1000, got 2000"),
            (
                "[socket]\npath = \"scand.sock\"\n", ["--socket", "scand.sock"],
                "must be an absolute path (e.g. /run/scand/scand.sock) or none, got 'scand.sock'"
            )
        ] {
            let key = toml.split(separator: "\n")[1].prefix { $0 != " " }
            let file = try ScandBinary.run(["run", "--config", e2e.write(toml, "range.toml"), "--socket", "none"])
            #expect(file.status == 78 && file.stderr.contains("range.toml: line 2: \(key) \(message)"), "\(file.stderr)")
            let option = try ScandBinary.run(["run", "--socket", "none"] + args)
            #expect(option.status == 64 && option.stderr.contains("\(args[0]): \(message)"), "\(option.stderr)")
        }
        let help = try ScandBinary.run(["run", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--fps <N>") && help.stdout.contains("([camera] fps, default: 0)"), "\(help.stdout)")
    }
}
