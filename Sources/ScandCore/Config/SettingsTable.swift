/// The one settings table: ScandCore's rows (`Setting.core`) and those of every feature section registered
/// with it, each after the table it `follows`, else in order. The configuration file, each command's options and their `--help`, and the
/// settings reference all read it, so a setting's type, range and message are the same everywhere.
public struct SettingsTable: Sendable, Equatable {
    public let settings: [Setting]
    /// The feature sections registered, for the words at the head of their tables.
    private let sections: [any SettingsSection.Type]

    public init(registering sections: [any SettingsSection.Type]) {
        self.sections = sections
        var settings = Setting.core
        for section in sections {
            let after = section.follows.flatMap { name in settings.lastIndex { $0.section == name } }
            settings.insert(contentsOf: section.settings, at: after.map { $0 + 1 } ?? settings.endIndex)
        }
        self.settings = settings
    }

    /// ScandCore's tables alone (what needs no feature module: its tests, the camera's).
    public static let core = SettingsTable(registering: [])

    /// The tables of the file, in the table's order.
    public var tableNames: [String] { settings.reduce(into: []) { if !$0.contains($1.section) { $0.append($1.section) } } }

    /// The setting a command-line flag (without dashes) of `command` sets.
    public func named(flag: String, command: String = Setting.daemon) -> Setting? {
        settings.first { $0.flag == flag && $0.command == command }
    }

    /// The words at the head of table `name`, when its section has some.
    public func introduction(of name: String) -> String? {
        sections.first { $0.name == name }?.introduction
    }

    public static func == (a: SettingsTable, b: SettingsTable) -> Bool {
        a.settings.map { $0.section + "." + $0.key } == b.settings.map { $0.section + "." + $0.key }
    }
}
