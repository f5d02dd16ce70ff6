import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol

/// `scand roi`: the running daemon's rect of interest, and setting it (`?ROI=`) from a shell, as the setup
/// page does. The daemon keeps what is set for restarts; setting is for its admin group.
struct RoiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roi",
        abstract: "Print the running daemon's rect of interest, or set it (x,y,w,h in 0…1 of the frame) or --reset it to the whole frame.",
        discussion: """
            Prints the rect as x,y,w,h, the form it is set in (and `scand scan --roi` takes). A rect set is kept \
            in the daemon's state directory for restarts, as one set on the setup page; setting needs membership \
            of the daemon's admin group ([socket] admin_group). Exit status: 0, 64 for bad options or a rect the \
            daemon refuses, 69 when no daemon answers, 75 when it is busy, 77 without permission (the socket's \
            group, or not in the admin group).
            """
    )

    @Argument(help: ArgumentHelp("The rect to set: x,y,w,h, each 0…1 of the frame (e.g. 0.25,0.25,0.5,0.5).", valueName: "x,y,w,h"))
    var rect: String?

    @Flag(name: .long, help: "Set the whole frame (0,0,1,1).")
    var reset = false

    @Flag(name: .long, help: "Print the daemon's ROI line (JSON) instead of x,y,w,h.")
    var json = false

    @Option(name: .long, help: DaemonSocket.optionHelp)
    var socket: String?

    /// The rect asked for; nil: only print the daemon's.
    func requested() throws -> NormalizedRect? {
        if reset {
            guard rect == nil else { throw ValidationError("--reset sets the whole frame: give no rect with it") }
            return .full
        }
        guard let rect else { return nil }
        do { return try NormalizedRect.parse(rect) } catch { throw ValidationError(error.description) }
    }

    func validate() throws {
        _ = try requested()
        if let socket, socket.isEmpty { throw ValidationError("--socket: must not be empty") }
    }

    func run() async throws {
        let request: ClientRequest = try requested().map { .setRegionOfInterest($0) } ?? .regionOfInterest
        do {
            let answer = try await DaemonClient.ask(request, socketPath: try socket ?? DaemonSocket().resolve())
            guard !json, case .regionOfInterest(let rect)? = answer.event else { return WatchCommand.print(answer.line) }
            WatchCommand.print(Self.text(rect))
        } catch let error as DaemonError {
            Logger.standardError(error.description, .error)
            throw ExitCode(ExitStatus.of(error))
        }
    }

    /// `0.25,0.25,0.5,0.5`, `0,0,1,1`: the rect as it is typed (the daemon answers 4 places at most).
    static func text(_ rect: NormalizedRect) -> String {
        [rect.x, rect.y, rect.width, rect.height].map { String(format: "%g", $0) }.joined(separator: ",")
    }
}
