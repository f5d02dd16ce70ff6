import FuzzSupport
import ScandCommands
import ScandConfigFile
import ScandCore

// The configuration file as `scand run --config` reads it (TOML through ConfigDocument, then every setting
// through the settings table, `SettingsTable.scand`). A refusal is one line naming its line; what is accepted, written again setting by
// setting as the file spells it (`tomlText`), reads back to the same values.

func seeds() -> [Fuzz.Seed] {
    // Each setting at its default in its table, and all of them in one file.
    let all = file(of: ScandConfig())
    let each = SettingsTable.scand.settings.enumerated().map { i, s in (name: "setting-\(i)", bytes: Array(text(of: [s], in: ScandConfig()).utf8)) }
    return [(name: "all", bytes: Array(all.utf8))] + each
}

private func text(of settings: [Setting], in config: ScandConfig) -> String {
    var out = ""
    for (section, group) in Dictionary(grouping: settings, by: \.section).sorted(by: { $0.key < $1.key }) {
        if !section.isEmpty { out += "[\(section)]\n" }
        for s in group { out += "\(s.key) = \(s.read(config).tomlText)\n" }
    }
    return out
}

private func file(of config: ScandConfig) -> String { text(of: SettingsTable.scand.settings, in: config) }

func test(_ input: [UInt8]) {
    let config: ScandConfig
    do { config = try ScandConfig().applying(file: input, table: .scand) } catch {
        Fuzz.requireOneLine(error.description)
        return
    }
    let written = file(of: config)
    do {
        let again = try ScandConfig().applying(toml: written, table: .scand)
        for s in SettingsTable.scand.settings {
            Fuzz.require(
                s.read(again) == s.read(config), "[\(s.section)] \(s.key) = \(s.read(config).tomlText) reads back as \(s.read(again).tomlText)")
        }
    } catch {
        Fuzz.fail("the accepted configuration, written again, is refused: \(error)\n\(written)")
    }
}

Fuzz.run(seeds: seeds, test: test)
