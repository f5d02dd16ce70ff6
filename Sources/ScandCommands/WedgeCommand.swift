import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandProtocol
import ScandLogging
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

            \(CommandLineSettings.helpParagraph(of: command))
            """
    )

    @Option(
        name: .long, help: ArgumentHelp("Configuration file with a [wedge] table (default: /etc/scand/scand.toml if it exists).", valueName: "FILE"))
    var config: String?

    /// The settings options (--layout, --prefix, --suffix …): rows of the settings table's [wedge], which the
    /// configuration file also goes through.
    @Argument(parsing: .allUnrecognized, help: .settingsOptions, completion: .settingsOptions(of: command))
    var options: [String] = []

    static let command = "scand wedge"

    @Option(name: .long, help: ArgumentHelp("The uinput device.", valueName: "DEVICE"))
    var uinput: String = VirtualKeyboard.defaultPath

    @Flag(name: .customLong("dry-run"), help: "Print each code's key events and the text they type instead of typing them.")
    var dryRun = false

    typealias Problem = ClientConfiguration.Problem

    func validate() throws { _ = try CommandLineSettings.options(options, of: Self.command) }

    func run() async throws {
        let settings: WedgeSettings
        let stateFile: ClientStateFile
        do { (settings, stateFile) = try resolvedSettings() } catch {
            Logger.standardError(error.description, .error)
            throw ExitCode(error.status)
        }
        // Only for a configuration that holds: a wrong one makes nothing.
        stateFile.prepare()
        var typedUpTo: EventPosition?
        do { typedUpTo = try PositionFile.read(settings.stateFile) } catch {
            // Typing nothing rather than everything the journal keeps: the kiosk shows something else now.
            Logger.standardError("\(error.description); typing from the next scan on", .error)
        }
        let sink: any KeySink
        if dryRun {
            sink = PrintingKeySink(layout: .named(settings.layout)) { StandardStream.writeAll(1, $0) }
        } else {
            do {
                sink = try VirtualKeyboard(path: uinput, name: settings.deviceName, keys: KeyboardLayout.named(settings.layout).keys)
            } catch {
                Logger.standardError(error.description, .error)
                throw ExitCode(Self.exitCode(error))
            }
        }
        LoggingSystem.bootstrap { _ in ScandLogHandler(prefix: "wedge") }
        let logger = Logger.scand("wedge")
        let service: WedgeService
        do { service = try WedgeService(settings: settings, typedUpTo: typedUpTo, sink: sink, logger: logger) } catch {
            Logger.standardError(error.description, .error)
            throw ExitCode(ExitStatus.configuration)
        }
        logger.notice(
            "\(dryRun ? "dry run: printing" : "typing on '\(settings.deviceName)'") the SCANs of scand at \(settings.socketPath), \(typedUpTo.map { "resuming after \($0.json)" } ?? "from the next one on"); state file \(settings.stateFile)"
        )
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do { try await group.run() } catch let error as DaemonError {
            Logger.standardError(error.description, .error)
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

    /// The file's [wedge] table with the options over it, and the state file as `ClientStateFile` resolves it.
    func resolvedSettings() throws(Problem) -> (WedgeSettings, stateFile: ClientStateFile) {
        let configuration = try ClientConfiguration(config, options: options, of: Self.command)
        var settings = configuration.settings[section: WedgeSettings.self]
        settings.socketPath = configuration.socketPath(settings.socketPath)
        // systemd's StateDirectory= of scand-wedge.service, root's /var/lib/scand-wedge, or the user's own (a
        // `--dry-run` by hand): the packaged directory is root's, which a user cannot create.
        let state = ClientStateFile.resolve(
            settings.stateFile, system: WedgeSettings.defaultStateFile, name: "scand-wedge", environment: ProcessInfo.processInfo.environment,
            uid: getuid())
        settings.stateFile = state.path
        // A layout that cannot type the prefix or GS replacement.
        do { _ = try settings.planner() } catch { throw configuration.problem(error.description, table: "wedge") }
        return (settings, state)
    }
}
