import Foundation
import NIOConcurrencyHelpers

/// A broker that misbehaves on purpose, on 127.0.0.1: a small MQTT 3.1.1 server speaking CONNECT/CONNACK,
/// PUBLISH/PUBACK, PINGREQ/PINGRESP and DISCONNECT, that may never acknowledge a PUBLISH and may drop the
/// link a while after each CONNACK. It records every PUBLISH with the connection it came on.
public final class FakeMQTTBroker: Sendable {
    public struct Publish: Sendable, Equatable {
        public var connection: Int
        public var topic: String
        public var payload: String
        public var dup: Bool
    }

    public let port: Int
    private let listener: Int32
    private struct State {
        var acknowledges: Bool
        var dropAfter: Double?
        var connections = 0
        public var publishes: [Publish] = []
        var live: Int32?
    }
    private let state: NIOLockedValueBox<State>

    public init(acknowledges: Bool, dropAfter: Double?) throws {
        state = NIOLockedValueBox(State(acknowledges: acknowledges, dropAfter: dropAfter))
        port = try MosquittoBroker.freePort()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot listen on 127.0.0.1:\(port)"])
        }
        listener = fd
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Stops listening and breaks the link (its threads hold the broker until then).
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        dropConnection()
    }

    public var connections: Int { state.withLockedValue { $0.connections } }
    public var publishes: [Publish] { state.withLockedValue { $0.publishes } }

    /// From now on: PUBACK or not, and drop each link `dropAfter` seconds after its CONNACK (nil: never).
    public func behave(acknowledges: Bool, dropAfter: Double?) {
        state.withLockedValue {
            $0.acknowledges = acknowledges
            $0.dropAfter = dropAfter
        }
    }

    /// Breaks the current link, as a broker restart does.
    public func dropConnection() {
        state.withLockedValue { s in
            if let fd = s.live { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptConnections() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            let number = state.withLockedValue { s in
                if let old = s.live { shutdown(old, Int32(SHUT_RDWR)) }
                s.live = fd
                s.connections += 1
                return s.connections
            }
            Thread.detachNewThread { [self] in serve(fd, number) }
        }
    }

    private func serve(_ fd: Int32, _ number: Int) {
        defer {
            state.withLockedValue { if $0.live == fd { $0.live = nil } }
            close(fd)
        }
        var connackedAt: Date?
        while true {
            // Wake up at least every 50 ms to drop the link on time.
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 50)
            let dropAfter = state.withLockedValue { $0.dropAfter }
            if let at = connackedAt, let dropAfter, Date().timeIntervalSince(at) >= dropAfter { return }
            if ready == 0 { continue }
            guard let (type, flags, body) = readPacket(fd) else { return }
            switch type {
            case 1:  // CONNECT
                guard Self.send(fd, [0x20, 0x02, 0x00, 0x00]) else { return }
                connackedAt = Date()
            case 3:  // PUBLISH
                let qos = (flags >> 1) & 3
                guard body.count >= 2 else { return }
                let topicLength = Int(body[0]) << 8 | Int(body[1])
                var at = 2 + topicLength
                guard body.count >= at + (qos > 0 ? 2 : 0) else { return }
                let topic = String(decoding: body[2..<at], as: UTF8.self)
                var id: [UInt8] = []
                if qos > 0 {
                    id = Array(body[at..<at + 2])
                    at += 2
                }
                let payload = String(decoding: body[at...], as: UTF8.self)
                let acknowledges = state.withLockedValue { s in
                    s.publishes.append(Publish(connection: number, topic: topic, payload: payload, dup: flags & 0x08 != 0))
                    return s.acknowledges
                }
                if qos == 1 && acknowledges { guard Self.send(fd, [0x40, 0x02] + id) else { return } }
            case 12:  // PINGREQ
                guard Self.send(fd, [0xD0, 0x00]) else { return }
            case 14:  // DISCONNECT
                return
            default:
                break
            }
        }
    }

    /// One packet: its type, the flags of its first byte and its body; nil when the link ends.
    private func readPacket(_ fd: Int32) -> (UInt8, UInt8, [UInt8])? {
        guard let first = Self.read(fd, 1)?.first else { return nil }
        var length = 0
        var shift = 0
        while true {
            guard let byte = Self.read(fd, 1)?.first, shift <= 21 else { return nil }
            length |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        guard let body = Self.read(fd, length) else { return nil }
        return (first >> 4, first & 0x0F, body)
    }

    private static func read(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes[got...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
