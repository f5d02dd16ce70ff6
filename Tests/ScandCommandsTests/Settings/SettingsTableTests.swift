import ScandCommands
import ScandConfigFile
import ScandMQTT
import ScandTracking
import ScandWedge
import Testing
@testable import ScandCore

/// The table of settings serves the file and the command line alike. These tests iterate `SettingsTable.scand.settings`,
/// so a new setting is covered by adding it there (or they fail, saying which values they lack).
@Suite struct SettingsTableTests {
    typealias Outcome = Result<ScandConfig, Refusal>

    struct Refusal: Error, Equatable {
        /// The message after the setting's name: the same on both sides.
        var predicate: String
    }

    static let missingGroup = "scand-no-such-group"
    static func groupExists(_ name: String) -> Bool { name != missingGroup }

    /// `[section] key = value` as a file, or the refusal, checked to be one line naming the key.
    static func fromFile(_ s: Setting, _ v: SettingValue) -> Outcome {
        do {
            return .success(
                try ScandConfig().applying(toml: "# a comment\n[\(s.section)]\n\(s.key) = \(v.tomlText)\n", table: .scand, groupExists: groupExists))
        } catch {
            #expect(error.line == 3 && error.message.hasPrefix(s.key + " ") && !error.message.contains("\n"), "\(error)")
            return .failure(Refusal(predicate: String(error.message.dropFirst(s.key.count + 1))))
        }
    }

    /// `--flag value` on the command line of the setting's command (nil for what it cannot say), or the
    /// refusal, checked the same way.
    static func fromCommandLine(_ s: Setting, _ v: SettingValue) -> Outcome? {
        guard let flag = s.commandLineName else { return nil }
        let args: [String]
        switch v {
        case .boolean(true): args = [flag]
        case .boolean(false): return nil  // a flag only switches on; false is the default
        default: args = [flag, v.commandLineText]
        }
        do {
            return .success(try CommandLineSettings(args, command: s.command, table: .scand).applied(to: ScandConfig(), groupExists: groupExists))
        } catch {
            #expect(error.description.hasPrefix(flag + ": ") && !error.description.contains("\n"), "\(error)")
            return .failure(Refusal(predicate: String(error.description.dropFirst(flag.count + 2))))
        }
    }

    /// Values of each kind to try, and for a setting with bounds, each bound and just past it.
    static func candidates(_ s: Setting) -> [SettingValue] {
        var values: [SettingValue]
        switch s.kind {
        case .text:
            values = [
                "/dev/video2", "video2", "", "640x480", "1280X720", "15x15", "8192x8192", "big", "none",
                "/tmp/scand-settings.sock", "scand.sock", "/" + String(repeating: "s", count: 120), "kiosk", missingGroup,
                "127.0.0.1:9000", "/tmp/\u{1}x", "MJPG", "0123456789abcdef0123456789abcdef", "all", "now", "de", "element_string"
            ].map { .text($0) }
        case .integer: values = [-1, 0, 1, 15].map { .integer($0) }
        case .number: values = [-1, 0, 0.25, 0.57, 2, 4000].map { .number($0) }
        case .boolean: values = [.boolean(true), .boolean(false)]
        case .texts:
            values = [
                ["qr"], ["qr", "EAN-13"], ["all"], [], ["bogus"], ["ITF=5"], ["ITF=5", "EAN-8=1"], ["ITF=0"], ["ITF"], ["a b"], ["kiosk-7.local"],
                ["http://localhost:3000"]
            ]
            .map { .texts($0) }
        case .numbers:
            values = [[0.1, 0.2, 0.5, 0.5], [0, 0, 1, 1], [0.5, 0.5, 0.9, 0.1], [0.5], [], [14], [6, 14], [13], [14.5], [82]].map { .numbers($0) }
        }
        switch s.bounds {
        case .integers(let r)?: values += [r.lowerBound - 1, r.lowerBound, r.upperBound, r.upperBound + 1].map { .integer($0) }
        case .seconds(let r)?: values += [r.lowerBound - 0.001, r.lowerBound, r.upperBound, r.upperBound + 0.001].map { .number($0) }
        case .choices(let c)?: values += (c + [c.max()! + 1, -90]).map { .integer($0) }
        case nil: break
        }
        return values
    }

    @Test func everyValueIsAcceptedOrRefusedAlikeByTheFileAndTheCommandLine() {
        for setting in SettingsTable.scand.settings {
            var accepted = 0, changed = 0, refused = 0
            for value in Self.candidates(setting) {
                let file = Self.fromFile(setting, value)
                if let commandLine = Self.fromCommandLine(setting, value) {
                    #expect(file == commandLine, "\(setting.key) = \(value.tomlText)")
                }
                switch file {
                case .success(let c):
                    accepted += 1
                    if c != ScandConfig() { changed += 1 }
                    #expect(setting.read(c) == value || value.kind != .number || setting.bounds == nil, "\(setting.key) reads back")
                case .failure(let r):
                    refused += 1
                    #expect(
                        r.predicate.hasPrefix("must ") || r.predicate.hasPrefix("'") || r.predicate.hasPrefix("lists "),
                        "\(setting.key) \(r.predicate)")
                }
            }
            #expect(accepted > 0 && changed > 0, "no candidate value changes \(setting.key): add one to candidates(_:)")
            #expect(refused > 0 || setting.kind == .boolean, "no candidate value is refused for \(setting.key): add one to candidates(_:)")
        }
    }

    @Test func boundsAreEnforcedAtTheirEdgesOnBothSides() {
        for setting in SettingsTable.scand.settings {
            let inside: [SettingValue], outside: [SettingValue]
            switch setting.bounds {
            case .integers(let r)?:
                (inside, outside) = ([r.lowerBound, r.upperBound].map { .integer($0) }, [r.lowerBound - 1, r.upperBound + 1].map { .integer($0) })
            case .seconds(let r)?:
                (inside, outside) = (
                    [r.lowerBound, r.upperBound].map { .number($0) }, [r.lowerBound - 0.001, r.upperBound + 0.001].map { .number($0) }
                )
            case .choices(let c)?: (inside, outside) = (c.map { .integer($0) }, [.integer(c.max()! + 1)])
            case nil: continue
            }
            for v in inside {
                #expect((try? Self.fromFile(setting, v).get()) != nil, "\(setting.key) = \(v.tomlText) is within bounds")
            }
            for v in outside {
                guard case .failure(let r) = Self.fromFile(setting, v) else { Issue.record("\(setting.key) = \(v.tomlText) passed"); continue }
                #expect(r.predicate.hasPrefix("must be ") && r.predicate.hasSuffix("got \(v.commandLineText)"), "\(r.predicate)")
                if let cli = Self.fromCommandLine(setting, v) { #expect(cli == .failure(r)) }
            }
        }
    }

    /// A configuration unlike the defaults in every setting, written out through `read` as a file and as a
    /// command line, comes back the same from both.
    @Test func everySettingRoundTripsThroughTheFileAndTheCommandLine() throws {
        var custom = ScandConfig()
        for setting in SettingsTable.scand.settings {
            let value = Self.candidates(setting).first { v in
                guard case .success(let c) = Self.fromFile(setting, v) else { return false }
                return setting.read(c) != setting.read(ScandConfig())
            }
            try setting.apply(
                #require(value, "a value other than the default for \(setting.key)"), to: &custom, context: .init(groupExists: Self.groupExists))
        }
        for setting in SettingsTable.scand.settings { #expect(setting.read(custom) != setting.read(ScandConfig()), "\(setting.key)") }

        let sections = SettingsTable.scand.settings.reduce(into: [String]()) { if !$0.contains($1.section) { $0.append($1.section) } }
        func file(_ settings: [Setting]) -> String {
            sections.map { section in
                "[\(section)]\n" + settings.filter { $0.section == section }.map { "\($0.key) = \($0.read(custom).tomlText)\n" }.joined()
            }.joined()
        }
        #expect(try ScandConfig().applying(toml: file(SettingsTable.scand.settings), table: .scand, groupExists: Self.groupExists) == custom)

        // Each command's options over the settings no option sets: every command's flags reach their own table.
        var fromOptions = try ScandConfig().applying(
            toml: file(SettingsTable.scand.settings.filter { $0.flag == nil }), table: .scand, groupExists: Self.groupExists)
        for command in Set(SettingsTable.scand.settings.map(\.command)) {
            let args = SettingsTable.scand.settings.filter { $0.command == command }.flatMap { s -> [String] in
                guard let flag = s.commandLineName else { return [] }
                let v = s.read(custom)
                return v == .boolean(true) ? [flag] : ["\(flag)=\(v.commandLineText)"]
            }
            fromOptions = try CommandLineSettings(args, command: command, table: .scand).applied(to: fromOptions)
        }
        #expect(fromOptions == custom)
    }

    @Test func theFileRefusesAValueOfTheWrongTypeWithTheKindItWants() {
        for setting in SettingsTable.scand.settings {
            let (literal, given) = setting.kind == .text ? ("1", "an integer") : ("\"1\"", "a string")
            #expect { try ScandConfig().applying(toml: "[\(setting.section)]\n\(setting.key) = \(literal)", table: .scand) } throws: { e in
                (e as! ScandConfig.Problem).message == "\(setting.key) must be \(setting.kind.expected), not \(given)"
            }
        }
    }

    @Test func theCommandLineReadsFlagsAsArgumentParserDid() throws {
        let c = try CommandLineSettings(
            [
                "--fps=15", "--confirm", "ITF=5", "--mirror", "--confirm", "EAN-8=1", "--size", "640x480", "--size", "320x240"
            ], table: .scand
        )
        .applied(to: ScandConfig())
        #expect(c.framesPerSecond == 15 && c.transform.mirrored && (c.width, c.height) == (320, 240))
        let confirmations = c[section: TrackerSettings.self].confirmations
        #expect(confirmations[.itf] == 5 && confirmations[.ean8] == 1 && confirmations[.codabar] == 3)
        #expect(try CommandLineSettings(["--socket", "none"], table: .scand).applied(to: ScandConfig()).socketPath == nil)
        #expect(
            try CommandLineSettings(["--fps", "0"], table: .scand).applied(to: ScandConfig().applying(toml: "[camera]\nfps = 30", table: .scand))
                .framesPerSecond == nil)
        for (args, message) in [
            (["--fps", "0x"], "--fps: must be an integer, got '0x'"), (["--fps", "1001"], "--fps: must be 0…1000, got 1001"),
            (["--fsp", "3"], "unknown option '--fsp'"), (["--fps"], "--fps: needs a value (N)"),
            (["--mirror=yes"], "--mirror: takes no value, got 'yes'"), (["15"], "unexpected argument '15'"),
            (["--socket", "./scand.sock"], "--socket: must be an absolute path (e.g. /run/scand/scand.sock) or none, got './scand.sock'"),
            (["--queue-limit", "5"], "unknown option '--queue-limit'"), (["--host", "broker"], "unknown option '--host'")
        ] {
            #expect(throws: CommandLineSettings.Problem(message)) { try CommandLineSettings(args, table: .scand) }
        }
    }

    /// A flag names a setting of its own command: `--socket` is the daemon's [socket] path for `scand run`, the
    /// client's own socket for the others; `--formats` the formats decoded, published or typed.
    @Test func aFlagSetsTheSettingOfItsCommand() throws {
        let socket = "/tmp/scand-flag.sock", qr = try BarcodeFormats.parse("qr")
        let run = try CommandLineSettings(["--socket", socket, "--formats", "qr"], table: .scand).applied(to: ScandConfig())
        #expect(run.socketPath == socket && run.formats == qr && run.mqtt == MQTTSettings() && run.wedge == WedgeSettings())
        let mqtt = try CommandLineSettings(["--socket", socket, "--formats", "qr", "--port", "8884"], command: "scand mqtt", table: .scand).applied(
            to: ScandConfig())
        #expect(mqtt.mqtt.socketPath == socket && mqtt.mqtt.formats == qr && mqtt.mqtt.port == 8884)
        #expect(mqtt.socketPath == ScandConfig().socketPath && mqtt.formats == ScandConfig().formats && mqtt.wedge == WedgeSettings())
        let wedge = try CommandLineSettings(["--socket=" + socket, "--layout", "de"], command: "scand wedge", table: .scand).applied(
            to: ScandConfig())
        #expect(wedge.wedge.socketPath == socket && wedge.wedge.layout == .de && wedge.mqtt == MQTTSettings())
        let web = try CommandLineSettings(["--socket", socket, "--listen", "127.0.0.1:9000"], command: "scand web", table: .scand).applied(
            to: ScandConfig())
        #expect(web.web.socket == socket && web.web.listen.description == "127.0.0.1:9000" && web.socketPath == ScandConfig().socketPath)
        for (command, args, message) in [
            ("scand mqtt", ["--host", ""], "--host: must be a host name or address, got ''"),
            ("scand mqtt", ["--port", "70000"], "--port: must be 0…65535, got 70000"),
            ("scand mqtt", ["--fps", "5"], "unknown option '--fps'"),
            ("scand wedge", ["--key-delay-ms", "-5"], "--key-delay-ms: must be 0…1000, got -5"),
            (
                "scand wedge", ["--state-file", "position.json"],
                "--state-file: must be an absolute path (e.g. /var/lib/scand-wedge/position.json), got 'position.json'"
            ),
            ("scand web", ["--host", "x"], "unknown option '--host'")
        ] {
            #expect(throws: CommandLineSettings.Problem(message)) { try CommandLineSettings(args, command: command, table: .scand) }
        }
    }

    @Test func helpListsEveryFlagOfItsCommandWithItsFileKeyAndDefault() {
        for command in Set(SettingsTable.scand.settings.map(\.command)) {
            let help = CommandLineSettings.help(command: command, in: .scand)
            let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // as wrapped
            for setting in SettingsTable.scand.settings {
                guard let flag = setting.commandLineName else { continue }
                // Another command's flag of the same name (--socket) is listed; its key is not.
                let listed = help.contains("\n  \(flag) ") || help.hasPrefix("  \(flag) ") || help.contains("\n  \(flag)\n")
                #expect(listed || setting.command != command, "\(command): \(flag)")
                let shown = setting.defaultText.isEmpty ? "\"\"" : setting.defaultText
                #expect(words.contains("[\(setting.section)] \(setting.key), default: \(shown))") == (setting.command == command), "\(flag)")
            }
            #expect(help.split(separator: "\n").allSatisfy { $0.count < 80 }, "\(command)")
        }
        #expect(CommandLineSettings.help(in: .scand).contains("default: 1280x720"))
    }

    /// config/scand.toml (config/web.toml for `[web]`, which scand-web.service reads) documents every
    /// setting the table has, set to its real default, with its range in the comment above it; scand.toml(5),
    /// scand(8) and the synopsis of docs/daemon.md name each.
    @Test func theDocumentationNamesEverySettingWithItsDefaultAndRange() throws {
        let root = #filePath.replacingOccurrences(of: "Tests/ScandCommandsTests/Settings/SettingsTableTests.swift", with: "")
        func read(_ path: String) throws -> String { try String(contentsOfFile: root + path, encoding: .utf8) }
        let shipped = try read("config/scand.toml"), web = try read("config/web.toml"), manual = try read("packaging/man/scand.toml.5")
        let daemonManual = try read("packaging/man/scand.8"), readme = try read("docs/daemon.md")
        for setting in SettingsTable.scand.settings {
            let file = setting.section == "web" ? web : shipped
            let section = file.components(separatedBy: "\n[\(setting.section)]\n").dropFirst().first?.components(separatedBy: "\n[").first ?? ""
            let lines = section.split(separator: "\n", omittingEmptySubsequences: false)
            guard let at = lines.firstIndex(where: { $0.hasPrefix("\(setting.key) = ") }) else {
                Issue.record("config: [\(setting.section)] \(setting.key) is not documented")
                continue
            }
            let defaultValue = setting.read(ScandConfig())
            let documented = try? ScandConfig().applying(toml: "[\(setting.section)]\n\(lines[at])", table: .scand)
            #expect(
                documented.map(setting.read) == defaultValue,
                "config: [\(setting.section)] \(lines[at]) should be set to its default \(defaultValue.tomlText)")
            // The comment lines just above the key state its range.
            let comment = lines[..<at].reversed().prefix { $0.hasPrefix("#") }.reversed().joined(separator: " ")
            let range: String?
            switch setting.bounds {
            case .integers(let r)?: range = "\(r.lowerBound)...\(r.upperBound)"
            case .seconds(let r)?: range = "\(SettingValue.shortest(r.lowerBound))...\(SettingValue.shortest(r.upperBound))"
            case .choices(let c)?: range = c.map(String.init).dropLast().joined(separator: ", ") + " or \(c.last!)"
            case nil: range = nil
            }
            if let range { #expect(comment.contains(range), "config: [\(setting.section)] \(setting.key)'s comment should state \(range)") }
            #expect(manual.contains(".BR \(setting.key) "), "scand.toml.5: \(setting.key)")
            guard let flag = setting.commandLineName, setting.command == Setting.daemon else { continue }
            #expect(readme.contains("[\(flag)"), "docs/daemon.md synopsis: \(flag)")
            #expect(daemonManual.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "scand.8: \(flag)")
        }
    }
}
