import ArgumentParser
import Foundation
import Logging
import NIOCore
import ScandCore
import ScandLogging
import ScandWeb

/// `scand web`: the setup page and Prometheus metrics over HTTP, talking to the daemon only through its
/// socket (the daemon itself keeps no network access).
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the setup page (live preview, rect of interest, scans, status) and /metrics over HTTP.",
        discussion: """
            Talks to a running scand through its socket. Setting the rect of interest needs membership of the \
            daemon's admin group ([socket] admin_group). Exit status: 0 after SIGTERM or SIGINT, 64 for bad options, \
            71 when it cannot listen (the address is in use or not on this machine), 77 when it may not (a port below \
            1024), 78 for a wrong configuration file.

            \(CommandLineSettings.helpParagraph(of: command))
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Configuration file; its [web] table: listen, socket, hosts, allowed_origins, token (default: none is read; scand-web.service passes /etc/scand/web.toml).",
            valueName: "FILE"))
    var config: String?

    /// The settings options (--listen, --socket): rows of the settings table's [web], which the configuration
    /// file also goes through.
    @Argument(parsing: .allUnrecognized, help: .settingsOptions, completion: .settingsOptions(of: command))
    var options: [String] = []

    static let command = "scand web"

    func validate() throws { _ = try CommandLineSettings.options(options, of: Self.command) }

    func run() async throws {
        let settings: WebSettings
        do { settings = try resolvedSettings() } catch {
            Logger.standardError(error.description, .error)
            throw ExitCode(error.status)
        }
        LoggingSystem.bootstrap { _ in ScandLogHandler(prefix: "web") }
        let logger = Logger.scand("web")
        let socketPath = settings.socket, address = settings.listen
        do {
            try await WebApp.run(settings: settings, logger: logger) { url in
                Logger.standardError("web: serving \(url) for scand at \(socketPath)", .notice)
            }
        } catch let error as IOError {
            guard let (message, status) = Self.listenFailure(error.errnoCode, address) else { throw error }
            Logger.standardError(message, .error)
            throw ExitCode(status)
        }
    }

    /// The file's [web] table (only with --config: the unit names /etc/scand/web.toml) with the options over it.
    func resolvedSettings() throws(ClientConfiguration.Problem) -> WebSettings {
        let configuration = try ClientConfiguration(config, options: options, of: Self.command, defaultPath: nil)
        var settings = configuration.settings[section: WebSettings.self]
        // The page waits for a daemon that is not there yet: no answer is no reason not to serve it.
        settings.socket = configuration.socketPath(settings.socket)
        return settings
    }

    /// A listening socket the system refused, in one line that says what to do, and its exit status.
    static func listenFailure(_ code: Int32, _ address: ListenAddress) -> (String, Int32)? {
        let change = "choose another address with --listen HOST:PORT or [web] listen"
        switch code {
        case EADDRINUSE:
            let who = "another scand web or another server listens there"
            return ("cannot listen on \(address): the address is in use (\(who)); stop it, or \(change)", ExitStatus.osError)
        case EADDRNOTAVAIL:
            return ("cannot listen on \(address): no interface of this machine has that address; \(change)", ExitStatus.osError)
        case EACCES, EPERM:
            return ("cannot listen on \(address): permission denied (ports below 1024 need privilege); \(change)", ExitStatus.permission)
        default:
            return nil
        }
    }
}
