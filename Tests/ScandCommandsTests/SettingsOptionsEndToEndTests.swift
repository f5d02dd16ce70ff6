import Foundation
import ScandTestSupport
import Testing

/// Every command's settings options go through the settings table (issue 33, 2; issue 32, 5): a bad value is
/// one line naming the flag and exit status 64, before the configuration file is read; the same value in the
/// file is 78 with the file's line; a flag overrides the file's key.
@Suite struct SettingsOptionsEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    func write(_ text: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A bad option value beside a wrong (or missing) configuration file: the option is refused first, in
    /// one line (mqtt and wedge read the file first and exited 78 for it).
    @Test func aBadOptionValueIsOneLineAndSixtyFourBeforeTheFileIsRead() throws {
        let wrong = try write("[camera]\nfps = \"fast\"\n", "wrong.toml")
        let cases: [([String], String)] = [
            (["run", "--fps", "2000"], "--fps: must be 0…1000, got 2000"),
            (["web", "--listen", "bogus"], "--listen: must be HOST:PORT"),
            (["web", "--socket", "scand.sock"], "--socket: must be an absolute path"),
            (["mqtt", "--host", ""], "--host: must be a host name or address, got ''"),
            (["mqtt", "--port", "70000"], "--port: must be 0…65535, got 70000"),
            (["mqtt", "--kiosk-id", "a/b"], "--kiosk-id: must be 1…64 letters"),
            (["mqtt", "--state-file", "position.json"], "--state-file: must be an absolute path"),
            (["wedge", "--dry-run", "--layout", "xx"], "--layout: must be \"us\", \"uk\", \"de\" or \"fr\", not \"xx\""),
            (["wedge", "--dry-run", "--key-delay-ms", "-5"], "--key-delay-ms: must be 0…1000, got -5"),
            (["wedge", "--dry-run", "--socket", "./scand.sock"], "--socket: must be an absolute path")
        ]
        for (arguments, message) in cases {
            for config in [wrong, dir + "/missing.toml"] {
                let r = try ScandBinary.run(arguments + ["--config", config])
                let lines = r.stderr.split(separator: "\n")
                #expect(r.status == 64, "scand \(arguments.joined(separator: " ")): \(r.stderr)")
                #expect(lines.count == 1 && lines[0].contains(message) && !r.stderr.contains(config), "\(arguments): \(r.stderr)")
                #expect(r.stdout.isEmpty)
            }
        }
        let unknown = try ScandBinary.run(["mqtt", "--fps", "5"])
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown option '--fps'"), "\(unknown.stderr)")
    }

    /// The same values in each command's table of the file: 78, naming the file, its line and the key.
    @Test func aBadFileValueIsSeventyEight() throws {
        let cases: [(String, String, String)] = [
            ("run", "[camera]\nfps = 2000\n", "line 2: fps must be 0…1000, got 2000"),
            ("web", "[web]\nlisten = \"bogus\"\n", "line 2: listen must be HOST:PORT"),
            ("mqtt", "[mqtt]\nport = 70000\n", "line 2: port must be 0…65535, got 70000"),
            ("wedge", "[wedge]\nkey_delay_ms = -5\n", "line 2: key_delay_ms must be 0…1000, got -5")
        ]
        for (command, toml, message) in cases {
            let config = try write(toml, command + ".toml")
            let r = try ScandBinary.run([command, "--config", config] + (command == "wedge" ? ["--dry-run"] : []))
            #expect(r.status == 78, "scand \(command): \(r.stderr)")
            #expect(r.stderr.contains(config + ": " + message), "scand \(command): \(r.stderr)")
        }
    }

    /// Each command started with a file that sets a key and an option that sets it otherwise: what the command
    /// says it uses, or does, is the option's.
    @Test func aFlagOverridesTheFile() throws {
        let file = dir + "/file", flag = dir + "/flag"
        let runConfig = try write("[socket]\npath = \"\(file).sock\"\n", "run.toml")
        let run = try SpawnedProcess(ScandBinary.path, ["run", "--config", runConfig, "--source", "demo", "--socket", flag + ".sock"])
        #expect(run.wait { FileManager.default.fileExists(atPath: flag + ".sock") }, "\(run.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: file + ".sock"))
        run.signal(SIGTERM)
        #expect(run.finish() == 0)

        let webConfig = try write("[web]\nlisten = \"127.0.0.1:0\"\nsocket = \"\(file).sock\"\n", "web.toml")
        let web = try SpawnedProcess(ScandBinary.path, ["web", "--config", webConfig, "--socket", flag + ".sock"])
        #expect(web.wait { web.stderrText.contains("for scand at \(flag).sock") }, "\(web.stderrText)")
        web.signal(SIGTERM)
        #expect(web.finish() == 0)

        let mqttConfig = try write(
            "[mqtt]\nhost = \"127.0.0.1\"\nport = 1\nkiosk_id = \"file-kiosk\"\ntopic_prefix = \"file\"\nstate_file = \"\(file).json\"\n", "mqtt.toml"
        )
        let mqtt = try SpawnedProcess(
            ScandBinary.path,
            [
                "mqtt", "--config", mqttConfig, "--socket", flag + ".sock", "--kiosk-id", "flag-kiosk", "--topic-prefix=flag", "--state-file",
                flag + ".json"
            ])
        #expect(
            mqtt.wait { mqtt.stderrText.contains("under flag/flag-kiosk/") && mqtt.stderrText.contains("state file \(flag).json") },
            "\(mqtt.stderrText)")
        mqtt.signal(SIGTERM)
        #expect(mqtt.finish() == 0)

        // The wedge subscribes at the option's socket (its signal handlers are in place once it has).
        let daemon = try FakeDaemon(path: dir + "/wedge-flag.sock")
        let wedgeConfig = try write("[wedge]\nsocket = \"\(file).sock\"\nstate_file = \"\(file).json\"\n", "wedge.toml")
        let wedge = try SpawnedProcess(
            ScandBinary.path, ["wedge", "--dry-run", "--config", wedgeConfig, "--socket", daemon.path, "--state-file", flag + ".json"])
        #expect(wedge.wait { daemon.requests.count == 1 }, "\(wedge.stderrText)")
        #expect(wedge.stderrText.contains("state file \(flag).json"), "\(wedge.stderrText)")
        wedge.signal(SIGTERM)
        #expect(wedge.finish() == 0)
    }
}
