import Dispatch
import Foundation
import ScandCore
import ScandService
import Synchronization

/// The bridge's side of the daemon's socket: connects (retrying while no daemon answers), sends one WATCH
/// request and hands every line to `post`, on a thread of its own (reads block). While paused it stops
/// reading, so the daemon's queue for it fills and the daemon drops it; the journal keeps the rest.
final class DaemonSubscription: Sendable {
    enum Report: Sendable {
        case connected
        case line(String)
        case closed
        case log(String, LogLevel)
    }

    let path: String
    private let post: @Sendable (Report) -> Void
    private let paused = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)

    init(path: String, post: @escaping @Sendable (Report) -> Void) {
        self.path = path
        self.post = post
    }

    /// Starts a new subscription with `request` (the previous one has reported `closed`).
    func start(request: String) {
        resume()
        Thread.detachNewThread { [self] in run(request: request) }
    }

    func pause() { paused.withLock { $0 = true } }

    func resume() {
        paused.withLock { $0 = false }
        wake.signal()
    }

    private func waitWhilePaused() {
        while paused.withLock({ $0 }) { wake.wait() }
    }

    private func run(request: String) {
        var delay = 0.25
        var reported: String?
        while true {
            let client: UnixLineClient
            do { client = try UnixLineClient(path: path) } catch {
                // Once per outage, not once per attempt.
                if reported != error.description {
                    post(.log("\(error.description); retrying", .warning))
                    reported = error.description
                }
                Thread.sleep(forTimeInterval: delay)
                delay = min(delay * 2, 5)
                continue
            }
            guard client.send(request + "\n") else {
                client.close()
                Thread.sleep(forTimeInterval: delay)
                continue
            }
            post(.log("subscribed to scand at \(path): \(request)", .info))
            post(.connected)
            while let line = client.readLine() {
                post(.line(line))
                waitWhilePaused()
            }
            client.close()
            post(.closed)
            return
        }
    }
}
