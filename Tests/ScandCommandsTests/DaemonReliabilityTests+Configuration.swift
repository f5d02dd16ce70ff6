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

    /// A FIFO or a device given as the configuration is refused at once by every command that reads one:
    /// opening a FIFO waits for a writer forever, and /dev/zero never ends.
    @Test func onlyARegularFileIsReadAsAConfiguration() throws {
        let fifo = dir + "/fifo.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try DaemonProcess(["run", "--config", fifo, "--socket", "none"])
        #expect(run.finish(seconds: 15) == 78, "scand run --config FIFO waits for a writer")
        #expect(
            run.stderr.contains { $0.contains("fifo.toml: cannot read the configuration file (it is a FIFO, not a regular file)") }, "\(run.stderr)")
        for command in ["web", "mqtt"] {
            let zero = try DaemonProcess([command, "--config", "/dev/zero"])
            #expect(zero.finish(seconds: 15) == 78, "scand \(command) --config /dev/zero")
            #expect(
                zero.stderr.contains { $0.contains("/dev/zero: cannot read the configuration file (it is a device, not a regular file)") },
                "\(zero.stderr)")
            let directory = try DaemonProcess([command, "--config", dir])
            #expect(directory.finish(seconds: 15) == 78)
            #expect(directory.stderr.contains { $0.contains("cannot read the configuration file (it is a directory)") }, "\(directory.stderr)")
        }
        let password = e2e.write("[mqtt]\nusername = \"till\"\npassword_file = \"\(dir)/no-password\"\n", "password.toml")
        let mqtt = try DaemonProcess(["mqtt", "--config", password, "--kiosk-id", "k"])
        #expect(mqtt.finish(seconds: 15) == 78)
        #expect(mqtt.stderr.contains { $0.contains("no-password: cannot read [mqtt] password_file (no such file or directory)") }, "\(mqtt.stderr)")
        // A regular file far larger than any configuration (a log, an image given by mistake) is not read whole.
        let huge = dir + "/huge.toml"
        try Data(repeating: UInt8(ascii: "#"), count: (1 << 20) + 1).write(to: URL(fileURLWithPath: huge))
        for command in ["run", "web", "mqtt"] {
            let big = try DaemonProcess([command, "--config", huge] + (command == "run" ? ["--socket", "none"] : []))
            #expect(big.finish(seconds: 15) == 78, "scand \(command) --config huge.toml")
            #expect(
                big.stderr.contains { $0.contains("huge.toml: cannot read the configuration file (1048577 bytes, larger than 1 MiB") },
                "\(big.stderr)")
        }
    }

    /// The web server's file goes through the daemon's table: TOML 1.0, line numbers, the same words.
    @Test func theWebConfigurationIsReadThroughTheSettingsTable() throws {
        let file = e2e.write("[web]\nhosts = [\n  \"kiosk.local\",\n  3,\n]\n", "web-bad.toml")
        let web = try DaemonProcess(["web", "--config", file])
        #expect(web.finish(seconds: 15) == 78)
        #expect(
            web.stderr.contains { $0.contains("web-bad.toml: line 2: hosts must be an array of strings, not an integer at position 2") },
            "\(web.stderr)")
    }

    @Test func everySubcommandsHelpExitsZero() throws {
        for command in [[], ["scan"], ["run"], ["watch"], ["controls"], ["web"], ["mqtt"], ["devices"], ["record"], ["encode"], ["synth"], ["bench"]]
        {
            let help = try ScandBinary.run(command + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE:"), "scand \(command.joined()) --help: \(help.status) \(help.stderr)")
        }
    }

    /// An install without scand-decoder (the process every read runs in): `scand run` and `scand scan` say so
    /// in one line and exit 72 before they open a camera or read a file. Where the package puts it,
    /// ../libexec/scand from scand's directory, it is found and reads.
    @Test func withoutTheDecoderExecutableRunAndScanSaySoInOneLine() throws {
        let bin = dir + "/install/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ScandBinary.path, toPath: bin + "/scand")
        let image = dir + "/libexec-code.png"
        let encode = try ScandBinary.run(["encode", "--format", "QRCode", "--text", "found in libexec", image])
        #expect(encode.status == 0, "\(encode.stderr)")
        let missing = "no decoder executable: scand-decoder is neither in \(bin) nor in \(bin)/../libexec/scand (install it with scand)"
        for arguments in [["scan", image], ["run", "--socket", "none", "--source", "replay:" + dir + "/none.rec"]] {
            let run = try ScandBinary.runTool(bin + "/scand", arguments)
            #expect(run.status == 72, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(missing), "\(run.stderr)")
        }
        let libexec = dir + "/install/libexec/scand"
        try FileManager.default.createDirectory(atPath: libexec, withIntermediateDirectories: true)
        // A link, not a copy: an executable just written may be open for writing in a process another test
        // is starting at that moment, and starting it would fail (ETXTBSY).
        try FileManager.default.createSymbolicLink(atPath: libexec + "/scand-decoder", withDestinationPath: ScandBinary.decoderPath)
        let scan = try ScandBinary.runTool(bin + "/scand", ["scan", image])
        #expect(scan.status == 0 && scan.stdout.contains(#""text":"found in libexec""#), "\(scan.stdout)\(scan.stderr)")
    }

    /// `scand bench --help` says what there is even where scand-bench is not built; running one cannot.
    @Test func benchHelpWorksWithoutTheBenchBinary() throws {
        let alone = dir + "/alone"
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ScandBinary.path, toPath: alone + "/scand")
        let help = try ScandBinary.runTool(alone + "/scand", ["bench", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        for bench in ["frames", "compare", "preview", "photos", "till", "journal", "mjpeg"] {
            #expect(help.stdout.contains("\n  \(bench) "), "\(bench) in: \(help.stdout)")
        }
        #expect(help.stdout.contains("swift build --product scand-bench"))
        let run = try ScandBinary.runTool(alone + "/scand", ["bench", "till"])
        #expect(run.status == 72 && run.stderr.contains("no scand-bench beside"), "\(run.stderr)")
    }
}
