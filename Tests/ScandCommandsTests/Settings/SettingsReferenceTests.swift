import Foundation
import ScandCommands
import Testing
@testable import ScandCore

/// config/scand.toml, config/web.toml and scand.toml(5)'s entries are what `SettingsReference` writes from the
/// settings table: a setting added, a default or a range changed, or words edited in one file only fails here.
/// `scripts/settings-reference` (this suite with SCAND_WRITE_SETTINGS_REFERENCE=1) writes them anew.
@Suite struct SettingsReferenceTests {
    static let root = #filePath.replacingOccurrences(of: "Tests/ScandCommandsTests/Settings/SettingsReferenceTests.swift", with: "")
    static let writing = ProcessInfo.processInfo.environment["SCAND_WRITE_SETTINGS_REFERENCE"] == "1"
    static let howTo = "run scripts/settings-reference to write it from the settings table"

    /// The file as it is, after writing `expected` to it when asked to.
    func file(_ path: String, expected: String) throws -> String {
        if Self.writing { try expected.write(toFile: Self.root + path, atomically: true, encoding: .utf8) }
        return try String(contentsOfFile: Self.root + path, encoding: .utf8)
    }

    @Test func everySettingHasWordsAndEveryWordsASetting() {
        for setting in SettingsTable.scand.settings {
            #expect(setting.documentation != nil, "[\(setting.section)] \(setting.key): add its words to Setting+Documentation.swift")
        }
        let names = Set(SettingsTable.scand.settings.map { $0.section + "." + $0.key })
        for key in Setting.documentation.keys { #expect(names.contains(key), "Setting+Documentation.swift: \(key) is no setting") }
    }

    @Test func theShippedConfigurationFilesAreWrittenFromTheTable() throws {
        let scand = SettingsReference(.scand).scandTOML, web = SettingsReference(.scand).webTOML
        #expect(try file("config/scand.toml", expected: scand) == scand, "config/scand.toml differs: \(Self.howTo)")
        #expect(try file("config/web.toml", expected: web) == web, "config/web.toml differs: \(Self.howTo)")
        // What is written is itself a configuration of the defaults.
        #expect(try ScandConfig().applying(toml: scand + web, table: .scand) == ScandConfig())
    }

    @Test func theManualsEntriesAreWrittenFromTheTable() throws {
        let path = "packaging/man/scand.toml.5"
        let current = try String(contentsOfFile: Self.root + path, encoding: .utf8)
        let expected = try #require(SettingsReference(.scand).manual(updating: current), "\(path) lacks a section's marker lines")
        #expect(try file(path, expected: expected) == expected, "\(path) differs: \(Self.howTo)")
        for section in SettingsReference(.scand).sections { #expect(expected.contains(".SS [\(section)]\n"), "\(path): no .SS [\(section)]") }
    }

    @Test func aChangedDefaultOrWordsChangeWhatIsWritten() {
        let entries = SettingsReference(.scand).manualEntries("camera")
        #expect(entries.contains(#".BR fps " (integer 0\-1000, 0; \-\-fps)""#))
        let fps = "\n# Frames per second, 0...1000; 0 = the camera's highest rate at that size; --fps N.\nfps = 0\n"
        #expect(SettingsReference(.scand).scandTOML.contains(fps))
        #expect(SettingsReference.roffLines(".dot first") == "\\&.dot first\n")
    }
}
