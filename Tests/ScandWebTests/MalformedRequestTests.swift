import Foundation
import NIOCore
import ScandTestSupport
import Testing

@testable import ScandWeb

/// HTTP requests that do not parse (issue 31's item 2), against the real server on loopback, from clients
/// that keep their side of the connection open: each is answered 400 and its connection closed by the
/// server, first or later on a kept-alive connection, and however many come they leave the places free for
/// the clients after them (256 of them locked everyone out of the page and /metrics).
@Suite(.serialized, .timeLimit(.minutes(2))) struct MalformedRequestTests {
    /// A head the decoder refuses, for each way of being wrong, by what is wrong with it.
    static let malformed: [(what: String, head: String)] = [
        ("a control byte in a header", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\u{1}b\r\n\r\n"),
        ("a bad method", "G@T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("a bad version", "GET / HTTP/1.x\r\nHost: 127.0.0.1\r\n\r\n"),
        ("a space in a header name", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX Note: 1\r\n\r\n"),
        (
            "Content-Length with Transfer-Encoding",
            "POST /api/roi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        ("a bad Content-Length", "POST /api/roi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4x\r\n\r\nabcd")
    ]

    /// Connections the server holds (each one a place of `WebServerLimits.maxConnections`).
    static func held(_ metrics: WebMetrics) -> Double? { WebRoutesTests.sample(metrics.text(), "scand_web_connections") }

    /// No connection is held but perhaps the test client's last one, which the server may not have closed yet.
    static func noneHeld(_ metrics: WebMetrics) -> Bool { (held(metrics) ?? 99) <= 1 }

    /// `text` is one 400 that closes the connection, after whatever came before it.
    static func endsWith400(_ text: String) -> Bool {
        guard let answer = text.range(of: "HTTP/1.1 400 ") else { return false }
        return text[answer.lowerBound...].lowercased().contains("connection: close\r\n")
    }

    @Test func aFirstRequestThatDoesNotParseIsAnswered400AndClosed() async throws {
        let metrics = WebMetrics()
        try await ServerLimitsTests.withServer(limits: WebServerLimits(), metrics: metrics) { port in
            var clients: [(what: String, connection: RawHTTPConnection)] = []
            for (what, head) in Self.malformed {
                let connection = try await RawHTTPConnection.open(port: port, keepingItsSide: true)
                try await connection.send(head)
                clients.append((what, connection))
            }
            for (what, connection) in clients {
                // At once: well before the 10 s a head has to come in.
                #expect(await Eventually.check(seconds: 5) { connection.closed }, "\(what): \(connection.text)")
                #expect(connection.text.hasPrefix("HTTP/1.1 400 ") && Self.endsWith400(connection.text), "\(what): \(connection.text)")
            }
            // The server closes them whole, though the clients keep their side: no place stays taken.
            #expect(await Eventually.check(seconds: 10) { Self.noneHeld(metrics) }, "\(metrics.text())")
            for (_, connection) in clients { await connection.close() }
        }
    }

    @Test func aLaterRequestThatDoesNotParseIsAnswered400AfterTheResponsesBeforeIt() async throws {
        let metrics = WebMetrics()
        // The idle timeout (30 s) must not be what frees the places.
        try await ServerLimitsTests.withServer(limits: WebServerLimits(), metrics: metrics) { port in
            var clients: [RawHTTPConnection] = []
            for (what, head) in Self.malformed {
                // The second request of a kept-alive connection, once the first is answered.
                let kept = try await RawHTTPConnection.open(port: port, keepingItsSide: true)
                try await kept.send(ServerLimitsTests.page)
                #expect(await Eventually.check { kept.text.contains("</html>") }, "\(what): \(kept.text.prefix(200))")
                try await kept.send(head)
                // Pipelined behind a request: its answer comes whole, then the 400.
                let pipelined = try await RawHTTPConnection.open(port: port, keepingItsSide: true)
                try await pipelined.send(ServerLimitsTests.page + head)
                for connection in [kept, pipelined] {
                    #expect(await Eventually.check(seconds: 5) { connection.closed }, "\(what): \(connection.text.suffix(200))")
                    let text = connection.text
                    #expect(text.hasPrefix("HTTP/1.1 200 ") && Self.endsWith400(text), "\(what): \(text.suffix(200))")
                    #expect(text.range(of: "</html>").map { $0.upperBound <= text.range(of: "HTTP/1.1 400 ")!.lowerBound } ?? false)
                }
                clients += [kept, pipelined]
            }
            #expect(await Eventually.check(seconds: 10) { Self.noneHeld(metrics) }, "\(metrics.text())")
            for connection in clients { await connection.close() }
        }
    }

    /// The decoder skips line breaks before a request line: an end of head seen in them is no head, and the
    /// clock runs on.
    @Test func lineBreaksAloneAreNoHeadAndAreAnswered408() async throws {
        let metrics = WebMetrics()
        try await ServerLimitsTests.withServer(limits: ServerLimitsTests.limits { $0.headerTimeout = .milliseconds(500) }, metrics: metrics) {
            port in
            let connection = try await RawHTTPConnection.open(port: port, keepingItsSide: true)
            try await connection.send("\r\n\r\n")
            #expect(await Eventually.check(seconds: 5) { connection.closed }, "\(connection.text)")
            #expect(connection.text.hasPrefix("HTTP/1.1 408 "), "\(connection.text)")
            #expect(await Eventually.check(seconds: 10) { Self.noneHeld(metrics) }, "\(metrics.text())")
            await connection.close()
        }
    }

    @Test func moreMalformedConnectionsThanTheServerServesDoNotLockOutAScrape() async throws {
        let metrics = WebMetrics()
        try await ServerLimitsTests.withServer(limits: ServerLimitsTests.limits { $0.maxConnections = 8 }, metrics: metrics) { port in
            var bad: [RawHTTPConnection] = []
            for i in 0..<24 {
                let connection = try await RawHTTPConnection.open(port: port, keepingItsSide: true)
                try? await connection.send(Self.malformed[i % Self.malformed.count].head)
                bad.append(connection)
            }
            // Each is answered: 400, or 503 while every place was taken.
            #expect(await Eventually.check(seconds: 10) { bad.allSatisfy(\.closed) })
            #expect(bad.allSatisfy { $0.text.hasPrefix("HTTP/1.1 400 ") || $0.text.hasPrefix("HTTP/1.1 503 ") })
            #expect(await Eventually.check(seconds: 10) { Self.noneHeld(metrics) }, "\(metrics.text())")
            let scrape = try await RawHTTPConnection.open(port: port)
            try await scrape.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(await Eventually.check(seconds: 10) { scrape.closed })
            #expect(scrape.text.hasPrefix("HTTP/1.1 200 ") && scrape.text.contains("scand_web_daemon_up 0"), "\(scrape.text)")
            for connection in bad { await connection.close() }
        }
    }
}
