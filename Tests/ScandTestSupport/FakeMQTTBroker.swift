import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A broker that misbehaves on purpose, on 127.0.0.1: a small MQTT 3.1.1 server speaking CONNECT/CONNACK,
/// PUBLISH/PUBACK, PINGREQ/PINGRESP and DISCONNECT, that may never acknowledge a PUBLISH and may drop the
/// link a while after each CONNACK. It records every PUBLISH with the connection it came on. A NIO server on
/// the shared event loops: packets framed by a `ByteToMessageDecoder`, the drop a scheduled task.
public final class FakeMQTTBroker: Sendable {
    public struct Publish: Sendable, Equatable {
        public var connection: Int
        public var topic: String
        public var payload: String
        public var dup: Bool
    }

    public let port: Int
    private let server: any Channel
    fileprivate struct State {
        var acknowledges: Bool
        var dropAfter: Double?
        /// Bytes sent right after the next CONNACKs (a malformed packet), one connection each.
        var afterConnack: [[UInt8]] = []
        var connections = 0
        var publishes: [Publish] = []
        var live: (any Channel)?
    }
    private let state: NIOLockedValueBox<State>

    public init(acknowledges: Bool, dropAfter: Double?) throws {
        let state = NIOLockedValueBox(State(acknowledges: acknowledges, dropAfter: dropAfter))
        self.state = state
        server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // A new link takes the place of the old one, as a broker does for a client id it already has.
                let (number, old) = state.withLockedValue { s in
                    defer { s.live = channel }
                    s.connections += 1
                    return (s.connections, s.live)
                }
                old?.close(promise: nil)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(MQTTPacketDecoder()), MQTTSession(connection: number, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = server.localAddress?.port ?? 0
    }

    /// Stops listening and breaks the link.
    public func stop() {
        server.close(promise: nil)
        dropConnection()
    }

    public var connections: Int { state.withLockedValue { $0.connections } }
    public var publishes: [Publish] { state.withLockedValue { $0.publishes } }

    /// From now on: PUBACK or not, and drop each link `dropAfter` seconds after its CONNACK (nil: never; a
    /// drop already due on the present link does not happen then).
    public func behave(acknowledges: Bool, dropAfter: Double?) {
        state.withLockedValue {
            $0.acknowledges = acknowledges
            $0.dropAfter = dropAfter
        }
    }

    /// Sends `bytes` right after the CONNACK of each of the next `times` connections.
    public func sendAfterConnack(_ bytes: [UInt8], times: Int = 1) {
        state.withLockedValue { $0.afterConnack += Array(repeating: bytes, count: times) }
    }

    /// Breaks the current link, as a broker restart does.
    public func dropConnection() {
        state.withLockedValue { $0.live }?.close(promise: nil)
    }

    /// One MQTT control packet: its type, the flags of its first byte and its body.
    fileprivate struct Packet {
        var type: UInt8
        var flags: UInt8
        var body: [UInt8]
    }

    fileprivate struct MalformedPacket: Error {}

    /// The fixed header's type and flags, the remaining length (at most four bytes of 7 bits), the body.
    fileprivate struct MQTTPacketDecoder: ByteToMessageDecoder {
        typealias InboundOut = Packet

        mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
            var rest = buffer
            guard let first: UInt8 = rest.readInteger() else { return .needMoreData }
            var length = 0
            var shift = 0
            while true {
                guard let byte: UInt8 = rest.readInteger() else { return .needMoreData }
                guard shift <= 21 else { throw MalformedPacket() }
                length |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            guard let body = rest.readBytes(length: length) else { return .needMoreData }
            buffer = rest
            context.fireChannelRead(wrapInboundOut(Packet(type: first >> 4, flags: first & 0x0F, body: body)))
            return .continue
        }
    }

    /// One link's answers: CONNACK (and the drop scheduled after it), PUBACK when acknowledging, PINGRESP.
    fileprivate final class MQTTSession: ChannelInboundHandler {
        typealias InboundIn = Packet
        typealias OutboundOut = ByteBuffer

        let connection: Int
        let state: NIOLockedValueBox<State>

        init(connection: Int, state: NIOLockedValueBox<State>) {
            self.connection = connection
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let packet = unwrapInboundIn(data)
            switch packet.type {
            case 1:  // CONNECT
                send([0x20, 0x02, 0x00, 0x00], context)
                if let extra = state.withLockedValue({ $0.afterConnack.isEmpty ? nil : $0.afterConnack.removeFirst() }) { send(extra, context) }
                if let after = state.withLockedValue({ $0.dropAfter }) {
                    let (channel, state) = (context.channel, state)
                    context.eventLoop.scheduleTask(in: .nanoseconds(Int64(after * 1e9))) {
                        if state.withLockedValue({ $0.dropAfter }) != nil { channel.close(promise: nil) }
                    }
                }
            case 3:  // PUBLISH
                guard let publish = Self.publish(packet, connection: connection) else {
                    context.close(promise: nil)
                    return
                }
                let acknowledges = state.withLockedValue { s in
                    s.publishes.append(publish.publish)
                    return s.acknowledges
                }
                if let id = publish.id, acknowledges { send([0x40, 0x02] + id, context) }
            case 12:  // PINGREQ
                send([0xD0, 0x00], context)
            case 14:  // DISCONNECT
                context.close(promise: nil)
            default:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let channel = context.channel
            state.withLockedValue { s in
                if let live = s.live, live === channel { s.live = nil }
            }
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func send(_ bytes: [UInt8], _ context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)), promise: nil)
        }

        /// A PUBLISH's topic, payload and DUP flag, and its packet id for QoS 1 and 2; nil when malformed.
        static func publish(_ packet: Packet, connection: Int) -> (publish: Publish, id: [UInt8]?)? {
            let body = packet.body
            let qos = (packet.flags >> 1) & 3
            guard body.count >= 2 else { return nil }
            var at = 2 + (Int(body[0]) << 8 | Int(body[1]))
            guard body.count >= at + (qos > 0 ? 2 : 0) else { return nil }
            let topic = String(decoding: body[2..<at], as: UTF8.self)
            var id: [UInt8]?
            if qos > 0 {
                id = Array(body[at..<at + 2])
                at += 2
            }
            let payload = String(decoding: body[at...], as: UTF8.self)
            return (Publish(connection: connection, topic: topic, payload: payload, dup: packet.flags & 0x08 != 0), qos == 1 ? id : nil)
        }
    }
}
