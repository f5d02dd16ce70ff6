import ScandCore
import ScandEventLog
import ScandTracking

extension SettingsTable {
    /// The feature sections of `scand run`'s own tables, each declared in the module of what reads it.
    public static let daemonSections: [any SettingsSection.Type] = [TrackerSettings.self, ServiceSettings.self, JournalSettings.self]

    /// `scand run`'s tables: ScandCore's and `daemonSections` (what a reload compares).
    public static let daemon = SettingsTable(registering: daemonSections)
}
