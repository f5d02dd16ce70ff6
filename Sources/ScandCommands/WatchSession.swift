import Logging
import NIOConcurrencyHelpers
import ScandClient
import ScandLogging
import ScandProtocol
import ScandService

/// One run of `scand watch`'s subscription: each element through the `WatchPrinter`, its actions carried
/// out in order (an `--exec` command runs to its end before the next scan is taken: the subscription's
/// bounded buffer is the queue, and past it the socket is not read until the daemon drops the connection;
/// the subscription is then made again `since` the last scan passed on, so a slow command loses nothing the
/// journal keeps). Ends after `--count` scans; throws `NothingCame` after
/// `idleLimit` without a scan, `DaemonWentAway` when the daemon closes the connection and there is no
/// reconnecting.
struct WatchSession<C: Clock<Duration>> {
    let subscription: EventSubscription
    var printer: WatchPrinter
    let hook: ScanHook?
    let idleLimit: Duration?
    let clock: C

    /// `idleLimit` counts the time spent waiting for a scan: from a scan's arrival, and not while its
    /// `--exec` command runs (the scan came; others may be queued behind it).
    func run() async throws {
        let idle = NIOLockedValueBox(IdleClock(since: clock.now))
        try await withThrowingTaskGroup(of: Bool.self) { group in
            // The subscription's own task ends after the sequence is finished: not the session's end.
            group.addTask {
                await subscription.run()
                return false
            }
            group.addTask { [printer] in
                var printer = printer
                for try await element in subscription {
                    if case .event(let line) = element, line.eventClass == .scan, line.code != nil {
                        idle.withLockedValue { $0.since = clock.now }
                    }
                    for action in printer.take(element) {
                        switch action {
                        case .print(let text):
                            StandardStream.writeAll(1, text + "\n")
                        case .warn(let message):
                            Logger.standardError(message, .warning)
                        case .run(let code, let line):
                            guard let hook else { continue }
                            idle.withLockedValue { $0.busy = true }
                            let outcome = await hook.run(for: code, line: line)
                            idle.withLockedValue { $0 = IdleClock(since: clock.now) }
                            let what = "--exec for SCAN \(code.id)" + (line.position.map { " (seq \($0.seq))" } ?? "")
                            Logger.standardError("\(what) \(outcome)", outcome == .exited(0) ? .info : .warning)
                        case .finished:
                            throw Finished()
                        }
                    }
                }
                // The sequence ends without an error only when the daemon closed and there is no reconnecting.
                throw WatchSessionError.DaemonWentAway()
            }
            if let idleLimit {
                group.addTask {
                    while true {
                        let (since, busy) = idle.withLockedValue { ($0.since, $0.busy) }
                        // A command running: looked at again a limit later (its end restarts the count).
                        let deadline = busy ? clock.now.advanced(by: idleLimit) : since.advanced(by: idleLimit)
                        if !busy && clock.now >= deadline { throw WatchSessionError.NothingCame() }
                        try await clock.sleep(until: deadline, tolerance: nil)
                    }
                }
            }
            defer { group.cancelAll() }
            do {
                while let ended = try await group.next(), !ended {}
            } catch is Finished {}
        }
    }

    /// Since when the session has been waiting for a scan, and whether an `--exec` command is running.
    private struct IdleClock {
        var since: C.Instant
        var busy = false
    }

    private struct Finished: Error {}
}

/// How a `WatchSession` ends other than after `--count` scans.
enum WatchSessionError {
    struct NothingCame: Error {}

    struct DaemonWentAway: Error, CustomStringConvertible {
        var description: String {
            "scand closed the connection (it stopped or restarted); `scand watch --reconnect` waits for it and resumes"
        }
    }
}
