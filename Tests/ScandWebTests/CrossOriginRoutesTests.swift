import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ScandClient
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandWeb

/// `[web] allowed_origins` and `[web] token` at the routes, through `WebTestClient` (the app served on loopback) against a
/// daemon socket the test serves.
@Suite struct CrossOriginRoutesTests {
    static let page = "http://localhost:3000"
    static let token = "0123456789abcdef0123456789abcdef"

    static func app(socket: String, token: String = "") -> some ApplicationProtocol {
        let daemon = DaemonClient(socketPath: socket)
        let metrics = WebMetrics()
        let router = WebApp.router(
            daemon: daemon, hub: PageHub(), metrics: metrics, hosts: ["kiosk.local"], allowedOrigins: [page], token: token)
        return WebApp.application(
            router: router, daemon: daemon, metrics: metrics, listen: ListenAddress(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
    }

    static let marker: HTTPFields = [HTTPField.Name("X-Scand-Request")!: "1", .contentType: "application/json", .origin: page]

    @Test func anAllowedOriginReadsWithCORSAnswersAndNothingElse() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path).serving { client in
            try await client.execute(uri: "/api/status", method: .get, headers: [.origin: Self.page]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == Self.page)
                #expect(response.headers[.accessControlAllowCredentials] == "true")
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            // The setup page itself: no CORS headers, but Vary all the same.
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.headers[values: .vary].contains("Origin"))
            }
            let preflight: HTTPFields = [.origin: Self.page, .accessControlRequestMethod: "GET", .accessControlRequestHeaders: "last-event-id"]
            try await client.execute(uri: "/events", method: .options, headers: preflight) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == Self.page)
                #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD")
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Last-Event-ID") == true)
            }
            // The rect of interest stays the setup page's: no preflight, no POST, whatever headers.
            var roiPreflight = preflight
            roiPreflight[.accessControlRequestMethod] = "POST"
            for (uri, headers) in [("/api/roi", roiPreflight), ("/events", roiPreflight)] {
                try await client.execute(uri: uri, method: .options, headers: headers) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(response.headers[.accessControlAllowOrigin] == nil)
                }
            }
            try await client.execute(uri: "/api/roi", method: .post, headers: Self.marker, body: ByteBuffer(string: #"{"x":0,"y":0,"w":1,"h":1}"#)) {
                response in
                #expect(response.status == .forbidden)
                #expect(WebRoutesTests.message(response)?.contains("may only read") == true)
            }
            for uri in ["/", "/metrics"] {
                try await client.execute(uri: uri, method: .get, headers: [.origin: Self.page]) { #expect($0.status == .forbidden, "\(uri)") }
            }
            // Another origin, even one port away: refused, and told how to allow it.
            try await client.execute(uri: "/api/status", method: .get, headers: [.origin: "http://localhost:3001"]) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(WebRoutesTests.message(response)?.contains("allowed_origins") == true)
            }
            try await client.execute(
                uri: "/events", method: .options, headers: [.origin: "http://localhost:3001", .accessControlRequestMethod: "GET"]
            ) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = WebRoutesTests.body(response)
                #expect(text.contains(#"scand_web_requests_refused_total{reason="origin"} 7"#), "\(text)")
            }
        }
        #expect(try daemon.requests.map { try ClientRequest.parse($0) }.filter { $0 != .metrics } == [.status, .status])
    }

    @Test func withATokenEveryRequestCarriesItAndTheSetupPageGetsItAsACookie() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path, token: Self.token).serving { client in
            for uri in ["/", "/api/status", "/metrics", "/events", "/app.js"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(uri)")
                    #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="scand web""#)
                    #expect(WebRoutesTests.message(response)?.contains("Authorization: Bearer") == true)
                    #expect(!WebRoutesTests.body(response).contains(Self.token))
                }
            }
            try await client.execute(uri: "/api/status", method: .get, headers: [.authorization: "Bearer nope"]) { response in
                #expect(response.status == .unauthorized)
                #expect(WebRoutesTests.message(response) == "wrong token")
            }
            for headers in [[.authorization: "Bearer \(Self.token)"], [.cookie: "scand_token=\(Self.token)"]] as [HTTPFields] {
                try await client.execute(uri: "/api/status", method: .get, headers: headers) { #expect($0.status == .ok) }
            }
            try await client.execute(uri: "/api/status?token=\(Self.token)", method: .get) { #expect($0.status == .ok) }
            // Nothing that changes anything by a link: the query does not count on a POST.
            var roi = Self.marker
            roi[.origin] = nil
            try await client.execute(
                uri: "/api/roi?token=\(Self.token)", method: .post, headers: roi, body: ByteBuffer(string: #"{"x":0,"y":0,"w":1,"h":1}"#)
            ) {
                #expect($0.status == .unauthorized)
            }
            roi[.cookie] = "scand_token=\(Self.token)"
            try await client.execute(uri: "/api/roi", method: .post, headers: roi, body: ByteBuffer(string: #"{"x":0,"y":0,"w":1,"h":1}"#)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/?token=\(Self.token)", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/")
                #expect(response.headers[.setCookie] == "scand_token=\(Self.token); Path=/; HttpOnly; SameSite=Strict")
            }
            // A preflight carries no credentials: answered without the token; the request itself needs it,
            // and its 401 is readable by the allowed page.
            try await client.execute(uri: "/events", method: .options, headers: [.origin: Self.page, .accessControlRequestMethod: "GET"]) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/api/status", method: .get, headers: [.origin: Self.page]) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.accessControlAllowOrigin] == Self.page)
            }
        }
    }

    @Test func aMalformedEventStreamRequestIsRefusedWithItsReason() async throws {
        try await Self.app(socket: Contract.temporarySocket()).serving { client in
            for (uri, reason) in [
                ("/events?classes=SCAN,FLY", "classes: unknown or unserved event class 'FLY'"), ("/events?formats=nope", "formats: "),
                ("/events?lastEventId=42", "lastEventId must be an event's id, BOOT:SEQ")
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(WebRoutesTests.message(response)?.hasPrefix(reason) == true, "\(WebRoutesTests.body(response))")
                }
            }
            try await client.execute(uri: "/events", method: .get, headers: [EventStreamRoute.lastEventID: "x:1"]) {
                #expect($0.status == .badRequest)
            }
        }
    }
}
