import ScandCore
import ScandMQTT
import ScandService
import ScandWeb
import ScandWedge

extension SettingsTable {
    /// scand's one table: `scand run`'s (`daemon`) and the other commands' feature sections, registered here where
    /// the commands are put together. Every command reads the whole file through it (each takes its own table
    /// and checks the rest).
    public static let scand = SettingsTable(registering: daemonSections + [WebSettings.self, MQTTSettings.self, WedgeSettings.self])
}
