import ScandProtocol

/// One `?WATCH` on one connection, read at the reader's pace: each line is handed to the reader and the
/// next is read only once it returns, so a reader that waits stops reading the socket (the daemon then
/// drops it once its queue for it is full, and its journal keeps the rest). `EventSubscription` and the
/// MQTT bridge are built on it.
public enum DaemonWatch {
    /// Connects, takes the VERSION banner, sends the WATCH and hands every line to `body`, the banner and the
    /// WATCH's confirmation first, until the daemon closes the connection. The banner and the confirmation
    /// must come within `timeout`; an ERROR instead of the confirmation is `.refusedRequest`.
    public static func session(
        path: String, watch: ClientRequest.Watch, timeout: Duration, _ body: (ReceivedEvent) async throws -> Void
    ) async throws {
        let lines = try await DaemonConnection.connect(path: path, timeout: timeout)
        try await lines.executeThenClose { inbound, outbound in
            var reader = DaemonLineReader(lines: inbound.makeAsyncIterator(), channel: lines.channel)
            try await body(try await reader.banner(within: timeout))
            try await DaemonConnection.write(.watch(watch), to: outbound)
            var confirmed = false
            // The WATCH is answered within the timeout; events come when they come.
            while let line = try await reader.next(within: confirmed ? nil : timeout) {
                if !confirmed {
                    if let message = line.errorMessage { throw DaemonError.refusedRequest(message) }
                    confirmed = line.eventClass == .watch
                }
                try await body(line)
            }
        }
    }
}
