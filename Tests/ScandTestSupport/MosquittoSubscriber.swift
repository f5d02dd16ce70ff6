import Foundation

/// `mosquitto_sub` with a persistent session (`-c`, QoS 1): it reconnects by itself when the broker comes
/// back, and the broker keeps what was published for it meanwhile. Collects `topic payload` lines.
public final class MosquittoSubscriber {
    private let process: SpawnedProcess

    public init(port: Int, clientID: String, topic: String) throws {
        process = try SpawnedProcess(
            "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-c", "-i", clientID, "-t", topic, "-v"])
    }

    public var lines: [String] { process.stdout }

    public func stop() {
        process.signal(SIGKILL)
        process.wait()
    }

    /// Publishes `probeTopic` (which the subscription must match) with mosquitto_pub until it comes back:
    /// from then on the subscription is in place. False if it never does.
    public func awaitSubscribed(port: Int, probeTopic: String, seconds: Double = 30) -> Bool {
        var unpublished = false
        let back = Eventually.wait(seconds: seconds) {
            guard
                let pub = try? SpawnedProcess(
                    "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", probeTopic, "-m", "probe"])
            else {
                unpublished = true
                return true
            }
            pub.finish()
            return wait(seconds: 1, until: { $0.contains("\(probeTopic) probe") })
        }
        return back && !unpublished
    }

    /// Waits until `condition` holds on the lines received so far, up to `seconds`.
    @discardableResult
    public func wait(seconds: Double = 30, until condition: ([String]) -> Bool) -> Bool {
        Eventually.wait(seconds: seconds) { condition(lines) }
    }
}
