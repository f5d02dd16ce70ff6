import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandProtocol
import ScandLogging
import ScandMQTT
import ServiceLifecycle

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
            Exit status: 0 on SIGTERM or SIGINT, 64 for a bad option value, 70 when its MQTT network loop hangs \
            (2 minutes without a turn: systemd starts it again), 78 for a wrong configuration.

            \(CommandLineSettings.helpParagraph(of: command))
            """
    )

    @Option(
        name: .long, help: ArgumentHelp("Configuration file with an [mqtt] table (default: /etc/scand/scand.toml if it exists).", valueName: "FILE"))
    var config: String?

    /// The settings options (--host, --port, --kiosk-id …): rows of the settings table's [mqtt], which the
    /// configuration file also goes through.
    @Argument(parsing: .allUnrecognized, help: .settingsOptions, completion: .settingsOptions(of: command))
    var options: [String] = []

    static let command = "scand mqtt"

    func validate() throws { _ = try CommandLineSettings.options(options, of: Self.command) }

    func run() async throws {
        let settings: MQTTSettings
        let kiosk: String
        let password: String?
        do throws(Problem) {
            let stateFile: ClientStateFile
            (settings, stateFile) = try resolvedSettings()
            if let id = settings.kioskID { kiosk = id } else { kiosk = try Self.hostKioskID() }
            if let file = settings.passwordFile { password = try Self.readPassword(file) } else { password = nil }
            // Only for a configuration that holds: a wrong one makes nothing.
            stateFile.prepare()
        } catch {
            Logger.standardError(error.description, .error)
            throw ExitCode(error.status)
        }
        var acknowledged: EventPosition?
        var held = false
        do {
            acknowledged = try PositionFile.read(settings.stateFile)
            held = acknowledged != nil
        } catch {
            // Never live only: what the broker may lack is sent again, at the cost of duplicates.
            Logger.standardError(
                "\(error.description); resuming from the oldest event the daemon's journal keeps (the broker may get some events twice)", .error)
            acknowledged = MQTTBridge.journalStart
        }
        let bridge = MQTTBridgeService(
            settings: settings, kioskID: kiosk, password: password, acknowledged: acknowledged, stateFileHeld: held, release: ScandVersion.string,
            stuckExitStatus: ExitStatus.software)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: bridge)], gracefulShutdownSignals: [.sigterm, .sigint], logger: .scand("mqtt", level: .warning)))
        do { try await group.run() } catch {
            Logger.standardError((error as? MQTTError)?.description ?? "\(error)", .error)
            throw ExitCode(78)
        }
    }

    typealias Problem = ClientConfiguration.Problem

    /// The file's [mqtt] table with the options over it, and the state file as `ClientStateFile` resolves it.
    func resolvedSettings() throws(Problem) -> (MQTTSettings, stateFile: ClientStateFile) {
        let configuration = try ClientConfiguration(config, options: options, of: Self.command)
        var settings = configuration.settings[section: MQTTSettings.self]
        settings.socketPath = configuration.socketPath(settings.socketPath)
        // systemd's StateDirectory= of scand-mqtt.service, root's /var/lib/scand-mqtt, or the user's own.
        let state = ClientStateFile.resolve(
            settings.stateFile, system: MQTTSettings.defaultStateFile, name: "scand-mqtt", environment: ProcessInfo.processInfo.environment,
            uid: getuid())
        settings.stateFile = state.path
        do { try settings.validate() } catch { throw configuration.problem(error.description, table: "mqtt") }
        return (settings, state)
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
