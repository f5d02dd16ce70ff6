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
/// answer read whole; and event streams read as a page's EventSource reads them. Our own, so that the tests need no
/// HTTP client library (Hummingbird's test client brings async-http-client and BoringSSL into every build).
struct WebTestClient: Sendable {
    let port: Int
    private let turns = OneAtATime()

    struct Response: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
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

    /// An event stream, as a page's EventSource opens it: `read` gets its events (comments and `retry:` left
    /// out); the connection closes when `read` returns.
    func events(_ path: String, _ read: (AsyncThrowingStream<StreamedEvent, any Error>) async throws -> Void) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
            head.headers.add(name: "Host", value: "localhost")
            head.headers.add(name: "Accept", value: "text/event-stream")
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))
            let (events, received) = AsyncThrowingStream.makeStream(of: StreamedEvent.self)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    var frames = EventStreamFrames()
                    do {
                        for try await part in inbound {
                            switch part {
                            case .head(let answer):
                                guard answer.status == .ok else { throw Refused(description: "GET \(path) answered \(answer.status.code)") }
                            case .body(let chunk): for event in frames.read(chunk) { received.yield(event) }
                            case .end: break
                            }
                        }
                        received.finish()
                    } catch {
                        received.finish(throwing: error)
                    }
                }
                try await read(events)
                tasks.cancelAll()
            }
        }
    }
}

/// One event of a stream: its type (`event:`), its data and its id, if it has one.
struct StreamedEvent: Equatable, Sendable {
    var type = "message"
    var data = ""
    var id: String?
}

/// A text/event-stream as a client reads it: an event ends at a blank line; only `event:`, `data:` (one line
/// each, as scand web sends them) and `id:` are read.
private struct EventStreamFrames {
    private var bytes: [UInt8] = []

    mutating func read(_ chunk: ByteBuffer) -> [StreamedEvent] {
        bytes += chunk.readableBytesView
        var events: [StreamedEvent] = []
        while let end = bytes.firstRange(of: Array("\n\n".utf8)) {
            let frame = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
            bytes.removeSubrange(..<end.upperBound)
            var event = StreamedEvent()
            var hasData = false
            for line in frame.split(separator: "\n") {
                if line.hasPrefix("event: ") { event.type = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") {
                    event.data = String(line.dropFirst(6))
                    hasData = true
                }
            }
            if hasData { events.append(event) }
        }
        return events
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
