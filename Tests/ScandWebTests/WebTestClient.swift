import Foundation
import HTTPTypes
import Logging
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A test's client of scand web's app, served whole (server, services) on a loopback port: each request on a
/// connection of its own, one request at a time (as a page's requests on one keep-alive connection), the
/// answer read whole; and /ws pages that read the server's messages. Our own, so that the tests need no
/// HTTP client library (Hummingbird's test client brings async-http-client and BoringSSL into every build).
struct WebTestClient: Sendable {
    let port: Int
    private let turns = OneAtATime()

    struct Response: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    enum Message: Equatable, Sendable {
        case text(String)
        case binary(ByteBuffer)
    }

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Serves `app` (bound where it says: the tests' bind 127.0.0.1, port 0) until `test` returns, then shuts it
    /// down.
    static func serving<App: ApplicationProtocol, Value: Sendable>(
        _ app: App, _ test: @Sendable (WebTestClient) async throws -> Value
    ) async throws -> Value {
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        let served = PortReporting(base: app, port: port)
        let group = ServiceGroup(configuration: .init(services: [served], logger: app.logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let outcome: Result<Value, any Error>
            if let bound = await ports.first(where: { _ in true }) {
                do { outcome = .success(try await test(WebTestClient(port: bound))) } catch { outcome = .failure(error) }
            } else {
                outcome = .failure(Refused(description: "the server did not start"))
            }
            // Shut down, and wait for it: connections closed, services ended.
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try outcome.get()
        }
    }

    /// One request; `check` gets the whole answer.
    func execute<Value: Sendable>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ check: (Response) async throws -> Value
    ) async throws -> Value {
        let port = port
        let response = try await turns.run { try await Self.exchange(port: port, uri: uri, method: method, headers: headers, body: body) }
        return try await check(response)
    }

    private static func exchange(port: Int, uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> Response
    {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
        // The test's own Host fields if it has any (two of them, say), else a browser's on this machine.
        if !headers.contains(where: { $0.name.canonicalName == "host" }) { head.headers.add(name: "Host", value: "localhost") }
        for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        // Always a length, 0 without a body: else NIO sends the request chunked, and a server that answers and
        // closes before it reads the last chunk resets the connection, which can lose its answer.
        head.headers.replaceOrAdd(name: "Content-Length", value: String(body?.readableBytes ?? 0))
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(.head(head))
            if let body { try await outbound.write(.body(.byteBuffer(body))) }
            try await outbound.write(.end(nil))
            var status: HTTPResponse.Status?
            var fields = HTTPFields()
            var received = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let answer):
                    status = HTTPResponse.Status(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase)
                    for (name, value) in answer.headers { if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) } }
                case .body(var chunk): received.writeBuffer(&chunk)
                case .end:
                    guard let status else { throw Refused(description: "an answer without a head") }
                    return Response(status: status, headers: fields, body: received)
                }
            }
            throw Refused(
                description:
                    "the server closed the connection before its answer to \(method) \(uri) ended (\(status.map { "\($0.code)" } ?? "no head"), "
                    + "\(received.readableBytes) bytes of body)")
        }
    }

    /// A page on /ws: `read` gets the server's messages; the page closes (a close frame, then the connection)
    /// when it returns.
    func ws(_ path: String, _ read: (AsyncThrowingStream<Message, any Error>) async throws -> Void) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
        try await channel.executeThenClose { inbound, outbound in
            let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            try await outbound.write(
                ByteBuffer(
                    string: "GET \(path) HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n"))
            let (messages, received) = AsyncThrowingStream.makeStream(of: Message.self)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    var frames = WebSocketFrames()
                    do {
                        for try await chunk in inbound {
                            for message in try frames.read(chunk) { received.yield(message) }
                            if frames.closed { break }
                        }
                        received.finish()
                    } catch {
                        received.finish(throwing: error)
                    }
                }
                try await read(messages)
                // A client's close frame: masked, no payload.
                try? await outbound.write(ByteBuffer(bytes: [0x88, 0x80, 1, 2, 3, 4]))
                tasks.cancelAll()
            }
        }
    }
}

/// The server's side of a WebSocket as a client reads it: the 101 answer, then unmasked frames.
private struct WebSocketFrames {
    private var buffer = ByteBuffer()
    private var upgraded = false
    private var fragments: (opcode: UInt8, payload: ByteBuffer)?
    private(set) var closed = false

    mutating func read(_ chunk: ByteBuffer) throws -> [WebTestClient.Message] {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
        if !upgraded {
            let view = buffer.readableBytesView
            guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else { return [] }
            let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
            guard head.hasPrefix("HTTP/1.1 101") else {
                throw WebTestClient.Refused(description: "no upgrade: \(head.prefix { $0 != "\r" })")
            }
            buffer.moveReaderIndex(forwardBy: end.upperBound - view.startIndex)
            upgraded = true
        }
        var messages: [WebTestClient.Message] = []
        while let (fin, opcode, payload) = nextFrame() {
            switch opcode {
            case 0x8: closed = true
            case 0x9, 0xA: continue  // a ping the test need not answer in its few seconds, or a pong
            case 0x0:
                guard var partial = fragments else { throw WebTestClient.Refused(description: "a continuation frame first") }
                var payload = payload
                partial.payload.writeBuffer(&payload)
                fragments = partial
            default: fragments = (opcode, payload)
            }
            if fin, let (opcode, payload) = fragments {
                fragments = nil
                messages.append(opcode == 0x1 ? .text(String(buffer: payload)) : .binary(payload))
            }
        }
        return messages
    }

    private mutating func nextFrame() -> (fin: Bool, opcode: UInt8, payload: ByteBuffer)? {
        var peek = buffer
        guard let first = peek.readInteger(as: UInt8.self), let second = peek.readInteger(as: UInt8.self) else { return nil }
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let long = peek.readInteger(as: UInt16.self) else { return nil }
            length = Int(long)
        } else if length == 127 {
            guard let long = peek.readInteger(as: UInt64.self), long < 1 << 30 else { return nil }
            length = Int(long)
        }
        guard let payload = peek.readSlice(length: length) else { return nil }
        buffer = peek
        return (first & 0x80 != 0, first & 0x0F, payload)
    }
}

/// The app, but telling the port it is served on.
private struct PortReporting<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder
    let base: Base
    let port: AsyncStream<Int>.Continuation

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let bound = channel.localAddress?.port { port.yield(bound) }
        port.finish()
    }
}

/// Requests in the order they were made, each after the one before has its answer.
private actor OneAtATime {
    private var last: Task<Void, Never>?

    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let before = last
        let task = Task {
            await before?.value
            return try await work()
        }
        last = Task { _ = try? await task.value }
        return try await task.value
    }
}

extension ApplicationProtocol {
    /// `test` with this app served on loopback (WebTestClient.serving).
    func serving<Value: Sendable>(_ test: @Sendable (WebTestClient) async throws -> Value) async throws -> Value {
        try await WebTestClient.serving(self, test)
    }
}
