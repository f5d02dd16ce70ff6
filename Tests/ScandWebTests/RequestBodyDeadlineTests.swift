import Foundation
import Hummingbird
import Logging
import NIOCore
import ScandClient
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandWeb

/// Issue 48, 2: 256 connections that sent a whole `POST /api/roi` head and then a body byte every 25 s held
/// every place of `scand web` (503 for everyone), with `[web] token` set too (401, but the connection kept).
@Suite(.serialized, .timeLimit(.minutes(2))) struct RequestBodyDeadlineTests {
    static func withServer(
        token: String = "", limits: WebServerLimits, metrics: WebMetrics = WebMetrics(), _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        let socket = Contract.temporarySocket()
        let daemon = DaemonClient(socketPath: socket)
        let router = WebApp.router(daemon: daemon, hub: PageHub(), metrics: metrics, token: token)
        let app = WebApp.application(
            router: router, daemon: daemon, scrapes: daemon, metrics: metrics, listen: ListenAddress(host: "127.0.0.1", port: 0),
            logger: Logger(label: "test"), limits: limits)
        try await app.serving { client in try await body(client.port) }
    }

    static let slowHead =
        "POST /api/roi HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Scand-Request: 1\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n"

    /// Sends a body byte every 100 ms until the server closes the connection, for 10 s at most.
    static func trickle(_ connection: RawHTTPConnection) async {
        for _ in 0..<100 where !connection.closed {
            try? await connection.send(" ")
            _ = await Eventually.check(seconds: 0.1) { connection.closed }
        }
    }

    @Test func aBodyThatTricklesIsAnswered408AtItsDeadline() async throws {
        let limits = ServerLimitsTests.limits { $0.bodyTimeout = .milliseconds(500) }
        try await Self.withServer(limits: limits) { port in
            let slow = try await RawHTTPConnection.open(port: port, sending: Self.slowHead)
            let stopped = try await RawHTTPConnection.open(port: port, sending: Self.slowHead + "{")
            let started = ContinuousClock.now
            await Self.trickle(slow)
            #expect(await Eventually.check(seconds: 5) { slow.closed && stopped.closed })
            #expect(ContinuousClock.now - started < .seconds(5), "the idle timeout, not the body's deadline")
            #expect(slow.text.hasPrefix("HTTP/1.1 408 "), "\(slow.text)")
            #expect(stopped.text.hasPrefix("HTTP/1.1 408 "), "\(stopped.text)")
        }
    }

    @Test func aRequestAnsweredBeforeItsBodyEndsIsClosedOnceAnswered() async throws {
        let token = "s3cret-token-for-the-test"
        try await Self.withServer(token: token, limits: WebServerLimits()) { port in
            let unauthorized = try await RawHTTPConnection.open(port: port, sending: Self.slowHead + "{")
            #expect(await Eventually.check(seconds: 5) { unauthorized.closed }, "\(unauthorized.text)")
            #expect(unauthorized.text.hasPrefix("HTTP/1.1 401 "), "\(unauthorized.text)")
        }
    }

    /// A pipelined request whose body is still coming is not cut off by the answer to the one before it.
    @Test func theAnswerToAnEarlierPipelinedRequestLeavesTheNextOneItsDeadline() async throws {
        try await Self.withServer(limits: ServerLimitsTests.limits { $0.bodyTimeout = .milliseconds(500) }) { port in
            let pipelined = try await RawHTTPConnection.open(port: port, sending: ServerLimitsTests.page + Self.slowHead + "{")
            #expect(await Eventually.check(seconds: 5) { pipelined.closed }, "\(pipelined.text.suffix(200))")
            #expect(pipelined.text.hasPrefix("HTTP/1.1 200 ") && pipelined.text.contains("HTTP/1.1 408 "), "\(pipelined.text.suffix(300))")
        }
    }

    /// The adversarial run's case, scaled to 8 places: slow bodies in every place, then a scrape.
    @Test func slowBodiesInEveryPlaceAreGoneByTheirDeadline() async throws {
        let limits = ServerLimitsTests.limits {
            $0.maxConnections = 8
            $0.bodyTimeout = .seconds(1)
        }
        let metrics = WebMetrics()
        try await Self.withServer(limits: limits, metrics: metrics) { port in
            var slow: [RawHTTPConnection] = []
            for _ in 0..<8 { slow.append(try await RawHTTPConnection.open(port: port, sending: Self.slowHead + "{")) }
            let started = ContinuousClock.now
            // Every place is held by a slow body.
            #expect(await Eventually.check(seconds: 5) { WebRoutesTests.sample(metrics.text(), "scand_web_connections") == 8 })
            var scraped = ""
            #expect(
                await Eventually.check(seconds: 10, poll: .milliseconds(100)) {
                    guard let scrape = try? await RawHTTPConnection.open(port: port) else { return false }
                    try? await scrape.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    _ = await Eventually.check(seconds: 5) { scrape.closed }
                    scraped = scrape.text
                    return scraped.hasPrefix("HTTP/1.1 200 ")
                }, "\(scraped.prefix(200))")
            #expect(ContinuousClock.now - started < .seconds(5))
            // The scrape gets in once the first place is free; the others' 408s follow within moments (a loaded
            // machine spreads them out).
            #expect(await Eventually.check(seconds: 5) { slow.allSatisfy(\.closed) })
            #expect(slow.allSatisfy { $0.text.hasPrefix("HTTP/1.1 408 ") }, "\(slow.map { $0.text.prefix(12) })")
            for connection in slow { await connection.close() }
        }
    }
}
