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
}
