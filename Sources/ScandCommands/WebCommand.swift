import ArgumentParser
import Foundation
import Logging
import ScandCore
import ScandService
import ScandWeb

/// `scand web`: the setup page and Prometheus metrics over HTTP, talking to the daemon only through its
/// socket (the daemon itself keeps no network access).
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the setup page (live preview, rect of interest, scans, status) and /metrics over HTTP.",
        discussion: """
            Talks to a running scand through its socket. Setting the rect of interest needs membership of the \
            daemon's admin group ([socket] admin_group). Exit status 78 for a wrong configuration file, 1 when it \
            cannot listen, 64 for bad options.
            """
    )

    @Option(name: .long, help: "Serve HTTP on HOST:PORT (default 127.0.0.1:8088; [::1]:8088 for IPv6).")
    var listen: String?

    @Option(name: .long, help: "The daemon's socket (default: as `scand watch`; /run/scand/scand.sock for root).")
    var socket: String?

    @Option(name: .long, help: "Configuration file; its [web] table: listen, socket, hosts, allowed_origins, token.")
    var config: String?

    func validate() throws {
        if let listen { do { _ = try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen: \(error.description)") } }
        if let socket, socket.isEmpty { throw ValidationError("--socket: must not be empty") }
    }

    func run() async throws {
        var settings = WebSettings(socket: defaultSocketPath())
        if let config {
            do throws(ConfigFileError) {
                let file = try ConfigFileError.load(config, over: ScandConfig())
                settings = file.web
                settings.socket = clientSocketPath(file.web.socket, file)
            } catch {
                OutputSinkLog.write(error.description.escapingControlCharacters())
                throw ExitCode(78)
            }
        }
        if let listen { settings.listen = try ListenAddress(parsing: listen) }
        if let socket { settings.socket = socket }
        LoggingSystem.bootstrap { _ in LineLogHandler(prefix: "web") }
        let logger = Logger(label: "scand-web")
        let server = WebServer(settings: settings, logger: logger)
        let socketPath = settings.socket
        try await server.run { url in
            OutputSinkLog.write("web: serving \(url) for scand at \(socketPath)", .notice)
        }
    }
}
