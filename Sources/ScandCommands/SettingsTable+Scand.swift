import ScandCore
import ScandMQTT
import ScandWeb
import ScandWedge

extension SettingsTable {
    /// scand's one table: `scand run`'s own rows and each feature module's section, registered here where the
    /// commands are put together. Every command reads the whole file through it (each takes its own table
    /// and checks the rest).
    public static let scand = SettingsTable(registering: [WebSettings.self, MQTTSettings.self, WedgeSettings.self])
}
