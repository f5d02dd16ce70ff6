import CMosquitto
import Glibc
import NIOConcurrencyHelpers
import NIOPosix
import Synchronization

/// An MQTT client over libmosquitto: QoS 1 publishing with PUBACKs reported by message id, a last will,
/// TLS with CA and client certificates, and reconnection with backoff, all run by a loop of our own
/// (`MQTTLoop`) on a thread of its own. Events arrive on that thread through `handler`; keep it short.
// @unchecked: a C handle; libmosquitto locks its own state (threaded mode), ours is in a lock.
public final class MQTTConnection: @unchecked Sendable {
    /// What the C callbacks reach through their context pointer.
    final class Callbacks: Sendable {
        let handler: @Sendable (MQTTEvent) -> Void
        /// Connections accepted so far: the loop's backoff starts again after each. Counted in libmosquitto's
        /// connect callback, on the loop's thread.
        let connections = Atomic(0)
        init(_ handler: @escaping @Sendable (MQTTEvent) -> Void) { self.handler = handler }
    }

    public let options: MQTTOptions
    private let handle: OpaquePointer
    private let callbacks: Callbacks
    /// Locked: starting and stopping the C handle's loop thread are called from any thread and must not overlap.
    private let state = NIOLockedValueBox(State.idle)
    enum State { case idle, running, stopped }
    /// The loop's thread. libmosquitto's own (`mosquitto_loop_start`) ends for good on a TLS or protocol
    /// error (an OpenSSL "unexpected eof" from a broker killed, one malformed packet) and nothing notices.
    private let thread = NIOThreadPool(numberOfThreads: 1)
    /// 1 once `disconnect` asks the loop to end: it wakes the loop's wait between attempts.
    private let stopping = ConditionLock(value: 0)
    private let turns = LoopTurns()

    /// How long the loop may go without turning before `loopIsStuck`: a turn is at most a second of
    /// `mosquitto_loop`, a name resolved, or a wait between attempts (at most `reconnectDelayMax`).
    public var stuckAfter: Duration { .seconds(max(options.reconnectDelayMin, options.reconnectDelayMax) * 2 + 60) }

    /// The loop runs and has not turned for `stuckAfter` (or `limit`): it hangs, and only a new process
    /// gets the bridge going again.
    public func loopIsStuck(limit: Duration? = nil) -> Bool {
        guard state.withLockedValue({ $0 == .running }) else { return false }
        return turns.sinceLastTurn > (limit ?? stuckAfter)
    }

    private static let libraryReady: Bool = { mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue }()

    public init(_ options: MQTTOptions, handler: @escaping @Sendable (MQTTEvent) -> Void) throws(MQTTError) {
        guard Self.libraryReady else { throw MQTTError("libmosquitto did not initialise") }
        self.options = options
        callbacks = Callbacks(handler)
        let context = Unmanaged.passUnretained(callbacks).toOpaque()
        guard let mosq = mosquitto_new(options.clientID, options.cleanSession, context) else {
            throw MQTTError("cannot create an MQTT client (client id '\(options.clientID)')")
        }
        handle = mosq
        // Thrown from here, with every property set, the object is still deinitialised: deinit destroys the
        // handle (destroying it here too was a double free).
        try configure()
    }

    private func configure() throws(MQTTError) {
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311), "setting MQTT 3.1.1")
        mosquitto_connect_callback_set(handle) { _, context, rc in
            let event: MQTTEvent = rc == 0 ? .connected : .refused(String(cString: mosquitto_connack_string(rc)))
            let callbacks = Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue()
            if rc == 0 { callbacks.connections.add(1, ordering: .relaxed) }
            callbacks.handler(event)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, rc in
            let why = rc == 0 ? "disconnected" : String(cString: mosquitto_strerror(rc))
            Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue().handler(.disconnected(why))
        }
        mosquitto_publish_callback_set(handle) { _, context, mid in
            Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue().handler(.delivered(mid: mid))
        }
        mosquitto_log_callback_set(handle) { _, context, level, text in
            guard level & Int32(MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            // Its lines end in a newline, which the log would show escaped.
            var line = String(cString: text)
            while line.hasSuffix("\n") { line.removeLast() }
            Unmanaged<Callbacks>.fromOpaque(context!).takeUnretainedValue().handler(.problem(line))
        }
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "setting the username")
        }
        if let ca = options.caFile {
            try check(
                mosquitto_tls_set(handle, ca, nil, options.certFile, options.keyFile, nil),
                "setting up TLS (ca_file \(ca)\(options.certFile.map { ", cert_file \($0)" } ?? "")\(options.keyFile.map { ", key_file \($0)" } ?? ""))"
            )
        }
        if let will = options.will {
            let rc = will.payload.utf8CString.withUnsafeBufferPointer { p in
                mosquitto_will_set(handle, will.topic, Int32(p.count - 1), p.baseAddress, 1, will.retain)
            }
            try check(rc, "setting the last will on \(will.topic)")
        }
        // Sent and unacknowledged at once (MOSQ_OPT_SEND_MAXIMUM, applied to MQTT 3.1.1 too): the rest wait in
        // the client's queue, and a reconnection sends again at most this many.
        try check(mosquitto_int_option(handle, MOSQ_OPT_SEND_MAXIMUM, Int32(min(max(1, options.maxInFlight), 65535))), "setting max in flight")
        // Our loop runs on a thread libmosquitto did not start: it must lock its state and wake the loop's
        // select when another thread publishes.
        try check(mosquitto_threaded_set(handle, true), "setting threaded mode")
    }

    deinit {
        // Never loop_stop(force: true): it cancels libmosquitto's thread wherever it is, possibly inside Swift
        // code of a callback or inside malloc, and a cancelled thread there corrupts the heap.
        disconnect()
        mosquitto_destroy(handle)
    }

    /// Starts connecting on the loop's thread; `connected` (or `problem`s) follow. A broker that is not
    /// there yet is retried with backoff, as is one lost later, whatever ended the connection.
    public func start() throws(MQTTError) {
        let started: Result<Void, MQTTError> = state.withLockedValue { s in
            guard s == .idle else { return .failure(MQTTError("the MQTT connection was started already")) }
            let rc = mosquitto_connect_async(handle, options.host, Int32(options.port), Int32(options.keepalive))
            // A refused or unreachable broker is retried by the loop, and so is a name that does not resolve
            // (yet: at boot the network or DNS may come after the bridge); only an invalid argument is final.
            if rc == MOSQ_ERR_INVAL.rawValue {
                return .failure(MQTTError("cannot connect to \(options.host):\(options.port): \(Self.describe(rc))"))
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue { callbacks.handler(.problem("connecting to \(options.host):\(options.port): \(Self.describe(rc))")) }
            thread.start()
            turns.turned()
            let loop = MQTTLoop(handle: handle, options: options, callbacks: callbacks, stopping: stopping, turns: turns)
            // The loop holds the handle, not this object: deinit, which ends it, still comes.
            thread.submit { _ in loop.run() }
            s = .running
            return .success(())
        }
        try started.get()
    }

    /// Queues a message; returns its message id, which `delivered` reports once the broker has it (QoS 1).
    /// libmosquitto owns a QoS 1 message from here: it keeps it while disconnected and sends it (again, with
    /// DUP) after every reconnection until its PUBACK comes; do not publish it twice.
    @discardableResult
    public func publish(topic: String, payload: String, qos: Int32 = 1, retain: Bool = false) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let rc = payload.utf8CString.withUnsafeBufferPointer { p in
            mosquitto_publish(handle, &mid, topic, Int32(p.count - 1), p.baseAddress, qos, retain)
        }
        // While disconnected, 2.0.11 answers MOSQ_ERR_NO_CONN for a QoS 1 message it has queued all the same
        // (lib/actions.c queues it, then fails to write it) and sends it once connected: taken, not refused.
        if rc == MOSQ_ERR_NO_CONN.rawValue && qos > 0 { return mid }
        try check(rc, "publishing to \(topic)")
        return mid
    }

    /// Sends DISCONNECT (the broker does not publish the will) and waits for the loop to end once it is out.
    public func disconnect() {
        state.withLockedValue { s in
            guard s == .running else { return }
            stopping.lock()
            stopping.unlock(withValue: 1)
            mosquitto_disconnect(handle)
            try? thread.syncShutdownGracefully()
            s = .stopped
        }
    }

    private func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw MQTTError("\(what): \(Self.describe(rc))")
    }

    static func describe(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }
}
