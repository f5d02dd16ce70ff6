import CMosquitto
import Glibc
import NIOConcurrencyHelpers

/// The network loop of one `MQTTConnection`, on the connection's thread: `mosquitto_loop` over and over,
/// and after any error, a wait (doubling from `reconnectDelayMin` to `reconnectDelayMax` seconds, from the
/// first again after a connection was accepted) and a reconnection. libmosquitto's own loop
/// (`mosquitto_loop_forever`) returns for good on TLS and protocol errors, a name that does not resolve
/// and more; a bridge must keep trying whatever ended its connection.
struct MQTTLoop: @unchecked Sendable {  // the handle is libmosquitto's, locked by it in threaded mode
    let handle: OpaquePointer
    let options: MQTTOptions
    let callbacks: MQTTConnection.Callbacks
    let stopping: ConditionLock<Int>
    /// When the loop last turned: a watchdog's view of a loop that hangs or is gone.
    let turns: LoopTurns

    /// Errors on which `mosquitto_loop_forever` ends its thread (libmosquitto 2.0.11, lib/loop.c).
    static let fatalToLibmosquitto = Set(
        [
            MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS, MOSQ_ERR_PAYLOAD_SIZE,
            MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED, MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY
        ].map(\.rawValue))

    func run() {
        let first = Double(max(1, options.reconnectDelayMin))
        let most = max(first, Double(options.reconnectDelayMax))
        var delay = first
        var connectionsSeen = 0
        while true {
            turns.turned()
            errno = 0
            let rc = mosquitto_loop(handle, 1000, 1)
            if stopping.value == 1 {
                finish(rc)
                return
            }
            guard rc != MOSQ_ERR_SUCCESS.rawValue else { continue }
            let why = rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
            // Said where libmosquitto's own loop would have stopped for good (its log said why already).
            if Self.fatalToLibmosquitto.contains(rc) || (rc == MOSQ_ERR_ERRNO.rawValue && errno == EPROTO) {
                callbacks.handler(.problem("the connection to \(options.host):\(options.port) ended (\(why)); connecting again, with backoff"))
            }
            let connections = callbacks.connections.load(ordering: .relaxed)
            if connections != connectionsSeen {
                connectionsSeen = connections
                delay = first
            }
            if stopping.lock(whenValue: 1, timeoutSeconds: delay) {
                stopping.unlock()
                return
            }
            delay = min(delay * 2, most)
            // Fails while the broker is away (refused, not resolved): the next turn waits and tries again.
            _ = mosquitto_reconnect_async(handle)
        }
    }

    /// After `disconnect`: lets the DISCONNECT out (the socket closes once it is written), for 2 s at most.
    private func finish(_ rc: Int32) {
        var rc = rc
        for _ in 0..<20 where rc == MOSQ_ERR_SUCCESS.rawValue {
            rc = mosquitto_loop(handle, 100, 1)
        }
    }
}
