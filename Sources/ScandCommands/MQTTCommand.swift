import ArgumentParser
import Foundation
import ScandClient
import ScandCore
import ScandMQTT
import ScandService
import ServiceLifecycle
import Logging

/// `scand mqtt`: the bridge from the daemon's socket to an MQTT broker.
struct MQTTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mqtt",
        abstract: "Publish a running scand's events to an MQTT broker, losing none.",
        discussion: """
            Subscribes to the daemon's socket and publishes its events at QoS 1 to scand/<kiosk-id>/events/<class> \
            (SCAN only unless [mqtt] classes names more; the prefix is [mqtt] topic_prefix), with a retained \
            scand/<kiosk-id>/status ({"state":"online"}, and {"state":"offline"} as the last will). \
            The last event the broker acknowledged is kept in the state file; after a broker outage, a crash or a \
            daemon restart the bridge resumes from it with `since` (a scand whose events carry boot and seq). \
            Without a state file it publishes everything the daemon's journal keeps first ([mqtt] start = "all"), \
            or starts with the next event (start = "now"); a state file it cannot read is an error in the log, \
            and the bridge resumes from the journal's oldest event. Without a state_file setting, the state file is \
            position.json in $STATE_DIRECTORY (the packaged unit's), else /var/lib/scand-mqtt for root, else \
            ~/.local/state/scand-mqtt ($XDG_STATE_HOME) for a user who runs it by hand. \
            Settings come from the [mqtt] table of the configuration file; the options below override it. \
            Exit status: 0 on SIGTERM or SIGINT, 78 for a wrong configuration.
            """
    )

    @Option(name: .long, help: "Configuration file with an [mqtt] table (default: /etc/scand/scand.toml if it exists).")
    var config: String?

    @Option(name: .long, help: "The broker's host name or address.")
    var host: String?

    @Option(name: .long, help: "The broker's port (default 1883, or 8883 with TLS).")
    var port: Int?

    @Option(name: .customLong("kiosk-id"), help: "This kiosk's level in the topics (default: the host name).")
    var kioskID: String?

    @Option(name: .long, help: "The daemon's socket.")
    var socket: String?

    @Option(name: .customLong("state-file"), help: "Where the last acknowledged position is kept.")
    var stateFile: String?

    @Option(name: .long, help: "The event classes published, comma-separated (SCAN, UPDATE, LOST, DEVICE, STATS, JOURNAL, or all).")
    var classes: String?

    @Option(name: .long, help: "Only codes of these formats, comma-separated, as a ?WATCH names them.")
    var formats: String?

    @Option(name: .customLong("topic-prefix"), help: "The topics' first levels (default: scand).")
    var topicPrefix: String?

    /// The options that set a row of the settings table, checked and applied by it.
    var tableOptions: [(flag: String, key: String, value: String?)] {
        [("--classes", "classes", classes), ("--formats", "formats", formats), ("--topic-prefix", "topic_prefix", topicPrefix)]
    }

    /// Wrong options are usage errors (64), as for every command; a wrong file is 78.
    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be 1…65535") }
        if let kioskID, !MQTTSettings.isValidKioskID(kioskID) {
            throw ValidationError("--kiosk-id must be 1…64 letters, digits, '.', '_' or '-' (it is one level of the topics)")
        }
        var scratch = ScandConfig()
        do throws(Problem) { try apply(tableOptions, to: &scratch) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let settings: MQTTSettings
        let kiosk: String
        let password: String?
        do {
            let stateFile: ClientStateFile
            (settings, stateFile) = try resolvedSettings()
            kiosk = try settings.kioskID ?? Self.hostKioskID()
            password = try settings.passwordFile.map(Self.readPassword)
            // Only for a configuration that holds: a wrong one makes nothing.
            stateFile.prepare()
        } catch {
            OutputSinkLog.write("\(error)")
            throw ExitCode(78)
        }
        var acknowledged: EventPosition?
        var held = false
        do {
            acknowledged = try PositionFile.read(settings.stateFile)
            held = acknowledged != nil
        } catch {
            // Never live only: what the broker may lack is sent again, at the cost of duplicates.
            OutputSinkLog.write(
                "\(error.description); resuming from the oldest event the daemon's journal keeps (the broker may get some events twice)", .error)
            acknowledged = MQTTBridge.journalStart
        }
        let bridge = MQTTBridgeService(settings: settings, kioskID: kiosk, password: password, acknowledged: acknowledged, stateFileHeld: held)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: bridge)], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "scand-mqtt")))
        do { try await group.run() } catch {
            OutputSinkLog.write((error as? MQTTError)?.description ?? "\(error)")
            throw ExitCode(78)
        }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The settings, with the state file as `stateFile` resolved it.
    func resolvedSettings() throws(Problem) -> (MQTTSettings, stateFile: ClientStateFile) {
        let configuration: ClientConfiguration
        do { configuration = try ClientConfiguration(config) } catch { throw Problem(description: error.description) }
        let path = configuration.path
        var file = configuration.file
        try apply(tableOptions, to: &file)  // checked by validate()
        var settings = file.mqtt
        settings.socketPath = configuration.socketPath(settings.socketPath)
        if let host { settings.host = host }
        if let port { settings.port = port }  // checked by validate()
        if let kioskID { settings.kioskID = kioskID }
        if let socket { settings.socketPath = socket }
        if let stateFile { settings.stateFile = stateFile }
        // systemd's StateDirectory= of scand-mqtt.service, root's /var/lib/scand-mqtt, or the user's own.
        let state = ClientStateFile.resolve(
            settings.stateFile, system: MQTTSettings.defaultStateFile, name: "scand-mqtt", environment: ProcessInfo.processInfo.environment,
            uid: getuid())
        settings.stateFile = state.path
        do { try settings.validate() } catch { throw Problem(description: (path.map { "\($0): [mqtt] " } ?? "") + error.description) }
        return (settings, state)
    }

    /// Options through their rows of `Setting.all`, as the file's values go.
    func apply(_ options: [(flag: String, key: String, value: String?)], to config: inout ScandConfig) throws(Problem) {
        for option in options {
            guard let value = option.value, let setting = Setting.all.first(where: { $0.section == "mqtt" && $0.key == option.key }) else {
                continue
            }
            do throws(Setting.Problem) {
                try setting.apply(try SettingValue(commandLine: value, as: setting.kind), to: &config)
            } catch {
                throw Problem(description: "\(option.flag): \(error.description)")
            }
        }
    }

    /// The host name, when it can be a topic level.
    static func hostKioskID() throws(Problem) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard MQTTSettings.isValidKioskID(name) else {
            throw Problem(description: "the host name '\(name)' cannot be a topic level: set kiosk_id in [mqtt]")
        }
        return name
    }

    /// The first line of the password file.
    static func readPassword(_ path: String) throws(Problem) -> String {
        let data: [UInt8]
        do { data = try ConfigFileError.contents(of: path, what: "[mqtt] password_file") } catch { throw Problem(description: error.description) }
        let text = String(decoding: data, as: UTF8.self)
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
