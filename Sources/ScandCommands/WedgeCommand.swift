import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandService
import ScandWedge
import ServiceLifecycle

/// `scand wedge`: the keyboard wedge. Types each SCAN of a running scand on a virtual keyboard, so any
/// application with a text field takes scans as it would from a USB hand scanner.
struct WedgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wedge",
        abstract: "Type each scan of a running scand on a virtual keyboard (/dev/uinput), as a USB hand scanner would.",
        discussion: """
            Subscribes to the daemon's SCANs and types each one's text on a uinput keyboard under the kiosk's layout \
            (us, uk, de, fr; dead keys composed), with a prefix, a suffix key (Enter, Tab or none) a replacement \
            for GS separators, and a GS1 Digital Link typed as scanned or as its GS1 element string. Control characters in a code are never typed (they could be shortcuts): they are \
            dropped and counted. A code with a character the layout cannot type is not typed at all, and logged. \
            The position of the last SCAN typed is kept in the state file; after a restart of the wedge or of the \
            daemon it resumes with `since`, typing nothing twice and skipping replayed scans older than \
            replay_max_age. Settings come from the [wedge] table of the configuration file; the options below \
            override it. Exit status: 0 on SIGTERM or SIGINT, 64 for bad options or when the daemon refuses the \
            subscription, 69 without a uinput device, 71 when uinput fails otherwise, 77 without permission on it, 78 for a wrong configuration.
            """
    )

    @Option(name: .long, help: "Configuration file with a [wedge] table (default: /etc/scand/scand.toml if it exists).")
    var config: String?

    @Option(name: .long, help: "The kiosk session's keyboard layout: us, uk, de or fr.")
    var layout: String?

    @Option(name: .long, help: "Typed before each code.")
    var prefix: String?

    @Option(name: .long, help: "The key after each code: enter, tab or none.")
    var suffix: String?

    @Option(name: .customLong("gs-replacement"), help: "Typed for each GS (FNC1) separator of a GS1 code (default: nothing).")
    var gsReplacement: String?

    @Option(name: .customLong("digital-link"), help: "A GS1 Digital Link typed as uri (as scanned) or element_string (GS1 element string).")
    var digitalLink: String?

    @Option(name: .customLong("key-delay-ms"), help: "Milliseconds after each key press and release.")
    var keyDelay: String?

    @Option(name: .long, help: "Only codes of these formats, comma-separated, as a ?WATCH names them.")
    var formats: String?

    @Option(name: .customLong("replay-max-age"), help: "Seconds: replayed scans older than this are not typed; 0: all.")
    var replayMaxAge: String?

    @Option(name: .long, help: "The daemon's socket.")
    var socket: String?

    @Option(name: .customLong("state-file"), help: "Where the position of the last SCAN typed is kept.")
    var stateFile: String?

    @Option(name: .long, help: "The uinput device.")
    var uinput: String = VirtualKeyboard.defaultPath

    @Flag(name: .customLong("dry-run"), help: "Print each code's key events and the text they type instead of typing them.")
    var dryRun = false

    struct Problem: Error, CustomStringConvertible {
        var description: String
        /// 64 for an option's value, 78 for the file.
        var status = ExitStatus.configuration
    }

    func run() async throws {
        let settings: WedgeSettings
        let stateFile: ClientStateFile
        do { (settings, stateFile) = try resolvedSettings() } catch {
            OutputSinkLog.write(error.description.escapingControlCharacters())
            throw ExitCode(error.status)
        }
        // Only for a configuration that holds: a wrong one makes nothing.
        stateFile.prepare()
        var typedUpTo: EventPosition?
        do { typedUpTo = try PositionFile.read(settings.stateFile) } catch {
            // Typing nothing rather than everything the journal keeps: the kiosk shows something else now.
            OutputSinkLog.write("\(error.description); typing from the next scan on", .error)
        }
        let sink: any KeySink
        if dryRun {
            sink = PrintingKeySink(layout: .named(settings.layout)) { OutputSink.writeAll(1, $0) }
        } else {
            do {
                sink = try VirtualKeyboard(path: uinput, name: settings.deviceName, keys: KeyboardLayout.named(settings.layout).keys)
            } catch {
                OutputSinkLog.write(error.description)
                throw ExitCode(Self.exitCode(error))
            }
        }
        LoggingSystem.bootstrap { _ in LineLogHandler(prefix: "wedge") }
        let logger = Logger(label: "scand-wedge")
        let service: WedgeService
        do { service = try WedgeService(settings: settings, typedUpTo: typedUpTo, sink: sink, logger: logger) } catch {
            OutputSinkLog.write(error.description)
            throw ExitCode(ExitStatus.configuration)
        }
        logger.notice(
            "\(dryRun ? "dry run: printing" : "typing on '\(settings.deviceName)'") the SCANs of scand at \(settings.socketPath), \(typedUpTo.map { "resuming after \($0.json)" } ?? "from the next one on"); state file \(settings.stateFile)"
        )
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do { try await group.run() } catch let stopped as WedgeService.Stopped {
            OutputSinkLog.write(stopped.description.escapingControlCharacters())
            throw ExitCode(ExitStatus.usage)
        }
    }

    /// sysexits: 69 no uinput (EX_UNAVAILABLE), 77 no permission (EX_NOPERM), 71 anything else (EX_OSERR).
    static func exitCode(_ failure: VirtualKeyboard.Failure) -> Int32 {
        switch failure.code {
        case ENOENT, ENODEV, ENXIO: 69
        case EACCES, EPERM: 77
        default: 71
        }
    }

    /// The file's [wedge] table, then the options, each through its row of `Setting.all`.
    func resolvedSettings() throws(Problem) -> (WedgeSettings, stateFile: ClientStateFile) {
        let configuration: ClientConfiguration
        do { configuration = try ClientConfiguration(config) } catch { throw Problem(description: error.description) }
        let path = configuration.path
        var file = configuration.file
        let options: [(flag: String, key: String, value: String?)] = [
            ("--layout", "layout", layout), ("--prefix", "prefix", prefix), ("--suffix", "suffix", suffix),
            ("--gs-replacement", "gs_replacement", gsReplacement), ("--digital-link", "digital_link", digitalLink),
            ("--key-delay-ms", "key_delay_ms", keyDelay),
            ("--formats", "formats", formats), ("--replay-max-age", "replay_max_age", replayMaxAge), ("--socket", "socket", socket),
            ("--state-file", "state_file", stateFile)
        ]
        for option in options {
            guard let value = option.value, let setting = Setting.all.first(where: { $0.section == "wedge" && $0.key == option.key }) else {
                continue
            }
            do throws(Setting.Problem) {
                try setting.apply(try SettingValue(commandLine: value, as: setting.kind), to: &file)
            } catch {
                throw Problem(description: "\(option.flag): \(error.description)", status: ExitStatus.usage)
            }
        }
        var settings = file.wedge
        settings.socketPath = configuration.socketPath(settings.socketPath)
        // systemd's StateDirectory= of scand-wedge.service, root's /var/lib/scand-wedge, or the user's own (a
        // `--dry-run` by hand): the packaged directory is root's, which a user cannot create.
        let state = ClientStateFile.resolve(
            settings.stateFile, system: WedgeSettings.defaultStateFile, name: "scand-wedge", environment: ProcessInfo.processInfo.environment,
            uid: getuid())
        settings.stateFile = state.path
        // A layout that cannot type the prefix or GS replacement: the file's fault, or without one the options'.
        do { _ = try settings.planner() } catch {
            throw Problem(
                description: (path.map { "\($0): [wedge] " } ?? "") + error.description,
                status: path == nil ? ExitStatus.usage : ExitStatus.configuration)
        }
        return (settings, state)
    }
}
