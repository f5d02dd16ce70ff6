import ArgumentParser
import Foundation
import ScandClient
import ScandCore
import ScandProtocol
import ScandService

/// `scand watch`: the command-line subscriber. Prints the daemon's events, one JSON object per line.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a running scand and print its events.",
        discussion: """
            Exit status: 0 when the daemon closes the connection, 64 when it refuses the request, 69 when no daemon is \
            running, 75 when it refuses the connection (too many clients: try again later), 77 without permission. \
            A refusal prints the daemon's reason.
            """
    )

    @Option(name: .long, help: "The daemon's socket (default: where `scand run` puts it for this user; /run/scand/scand.sock for root).")
    var socket: String = defaultSocketPath()

    @Option(name: .long, help: "Only these event classes, comma-separated (SCAN, LOST, UPDATE, DEVICE, …).")
    var classes: String?

    @Option(name: .long, help: "Only codes of these formats, comma-separated.")
    var formats: String?

    @Flag(name: .long, help: "Print one STATUS object and exit.")
    var status = false

    /// The WATCH the options ask for.
    func watch() throws -> ClientRequest.Watch {
        var watch = ClientRequest.Watch(enable: true)
        if let classes {
            let names = classes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            watch.classes = Set(
                try names.map { name in
                    guard let c = Event.Class(rawValue: name), Event.Class.watchable.contains(c) else {
                        throw ValidationError(
                            "--classes: unknown event class '\(name.prefix(32))' (known: \(Event.Class.watchable.map(\.rawValue).joined(separator: ", ")))"
                        )
                    }
                    return c
                })
        }
        if let formats {
            do { watch.formats = try BarcodeFormats.parse(formats) } catch { throw ValidationError(error.description) }
        }
        return watch
    }

    func run() async throws {
        let watch = try watch()
        do {
            if status {
                let client = DaemonClient(socketPath: socket)
                let answer = try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await client.run() }
                    defer { group.cancelAll() }
                    return try await client.request(.status)
                }
                Self.print(answer)
                return
            }
            let subscription = EventSubscription(socketPath: socket, watch: watch, reconnect: false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await subscription.run() }
                for try await element in subscription {
                    if case .event(let line) = element { Self.print(line) }
                }
            }
        } catch let error as DaemonError {
            OutputSinkLog.write(error.description.escapingControlCharacters())
            throw ExitCode(Self.exitCode(error))
        }
    }

    /// Unbuffered: a pipe reader sees each event at once. The daemon escapes control characters already;
    /// escaping again here means nothing a barcode holds reaches the terminal raw, whoever wrote the line.
    static func print(_ line: ReceivedEvent) {
        OutputSink.writeAll(1, line.line.escapingControlCharacters() + "\n")
    }

    /// sysexits: 64 a refused request or an unusable path, 69 no daemon, 75 a refused connection (try later),
    /// 77 no permission.
    static func exitCode(_ error: DaemonError) -> Int32 {
        switch error {
        case .unreachable(_, .permissionDenied): 77
        case .unreachable(_, .pathTooLong), .refusedRequest: 64
        case .refused: 75
        case .unreachable, .closed, .timeout, .protocolViolation: 69
        }
    }
}
