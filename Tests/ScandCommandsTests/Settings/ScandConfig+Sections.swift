import ScandCore
import ScandMQTT
import ScandWeb
import ScandWedge

/// The feature sections of a configuration, by name, for the tests of the whole table.
extension ScandConfig {
    var web: WebSettings {
        get { self[section: WebSettings.self] }
        set { self[section: WebSettings.self] = newValue }
    }
    var mqtt: MQTTSettings {
        get { self[section: MQTTSettings.self] }
        set { self[section: MQTTSettings.self] = newValue }
    }
    var wedge: WedgeSettings {
        get { self[section: WedgeSettings.self] }
        set { self[section: WedgeSettings.self] = newValue }
    }
}
