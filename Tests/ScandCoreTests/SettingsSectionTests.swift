import ScandConfigFile
import Testing

@testable import ScandCore

/// A feature module's table, as ScandWeb, ScandMQTT and ScandWedge declare theirs: ScandCore knows nothing of it
/// until it is registered with a `SettingsTable`.
private struct ChimeSettings: SettingsSection {
    var volume = 3
    var tune = "ding"

    static let name = "chime"
    static let introduction: String? = "A chime on each scan."
    static let settings: [Setting] = [
        .integer(in: Self.self, "volume", flag: "volume", 0...10, help: "How loud.", words: "How loud, 0...10.", \.volume),
        .text(
            in: Self.self, "tune", flag: "tune", help: "Which tune.", words: nil, { $0.tune },
            { s, v throws(Setting.Problem) in
                guard ["ding", "dong"].contains(v) else { throw Setting.Problem("must be ding or dong, got '\(v)'") }
                s.tune = v
            })
    ]
}

@Suite struct SettingsSectionTests {
    static let table = SettingsTable(registering: [ChimeSettings.self])

    @Test func aRegisteredSectionIsReadFromTheFileAndItsCommandsOptions() throws {
        let file = try ScandConfig().applying(toml: "[camera]\nfps = 15\n[chime]\nvolume = 7\n", table: Self.table)
        #expect(file[section: ChimeSettings.self] == ChimeSettings(volume: 7, tune: "ding") && file.framesPerSecond == 15)
        let options = try CommandLineSettings(["--tune", "dong"], command: "scand chime", table: Self.table)
        #expect(try options.applied(to: file)[section: ChimeSettings.self] == ChimeSettings(volume: 7, tune: "dong"))
        // Its checks are the table's, in its words, on both sides.
        #expect { try ScandConfig().applying(toml: "[chime]\nvolume = 11\n", table: Self.table) } throws: { e in
            "\(e)" == "line 2: volume must be 0…10, got 11"
        }
        #expect(throws: CommandLineSettings.Problem("--tune: must be ding or dong, got 'dang'")) {
            try CommandLineSettings(["--tune", "dang"], command: "scand chime", table: Self.table)
        }
        // The daemon's own options are not the section's command's.
        #expect(throws: CommandLineSettings.Problem("unknown option '--volume'")) {
            try CommandLineSettings(["--volume", "1"], table: Self.table)
        }
    }

    @Test func aTableUnregisteredIsAnUnknownTable() {
        #expect { try ScandConfig().applying(toml: "[chime]\nvolume = 7\n", table: .core) } throws: { e in
            "\(e)".hasPrefix("line 1: unknown table [chime]")
        }
    }

    @Test func aSectionNeverSetEqualsItsDefaultSetExplicitly() {
        var set = ScandConfig()
        set[section: ChimeSettings.self] = ChimeSettings()
        #expect(set == ScandConfig() && ScandConfig() == set)
        set[section: ChimeSettings.self].volume = 4
        #expect(set != ScandConfig() && ScandConfig() != set)
    }

    @Test func theReferenceWritesARegisteredSectionWithItsWords() {
        let reference = SettingsReference(Self.table).scandTOML
        let chime = "[chime]\n# A chime on each scan.\n# How loud, 0...10; --volume N.\nvolume = 3\n# Which tune; --tune TEXT.\ntune = \"ding\"\n"
        #expect(reference.contains(chime))
    }
}
