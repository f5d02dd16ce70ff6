import ArgumentParser
import ScandCore

extension CommandLineSettings {
    /// A command's settings options (`--fps`, `--host`, `--layout` …) for its `validate()`, each value checked
    /// by its row of the settings table as the file's would be. A bad one is one line naming the flag and a
    /// usage error (64), before any file is read, as `UsageError` writes it (with a "did you mean").
    static func options(_ arguments: [String], of command: String) throws -> CommandLineSettings {
        do { return try CommandLineSettings(arguments, command: command, table: .scand) } catch {
            throw ValidationError(error.description)
        }
    }

    /// A command's SETTINGS paragraph of `--help`: its options from the table.
    static func helpParagraph(of command: String) -> String {
        "SETTINGS (each overrides its key in the configuration file):\n" + help(command: command, in: .scand)
    }
}

extension ArgumentHelp {
    /// The help of a command's settings options argument: they are listed in its discussion, from the table.
    static let settingsOptions = ArgumentHelp("Settings options, listed above under SETTINGS.", valueName: "setting")
}

extension CompletionKind {
    /// The flags of `command`'s settings options.
    static func settingsOptions(of command: String) -> CompletionKind { .list(CommandLineSettings.flags(of: command, in: .scand)) }
}
