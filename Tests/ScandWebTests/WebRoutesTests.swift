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

/// The routes against a daemon socket the test serves (`FakeDaemon`), through `WebTestClient` (the app served on loopback).
@Suite struct WebRoutesTests {
    static func app(socket: String) -> some ApplicationProtocol {
        let daemon = DaemonClient(socketPath: socket)
        let metrics = WebMetrics()
        let router = WebApp.router(daemon: daemon, hub: PageHub(), metrics: metrics, hosts: ["kiosk.local"])
        return WebApp.application(
            router: router, daemon: daemon, metrics: metrics, listen: ListenAddress(host: "127.0.0.1", port: 0), logger: Logger(label: "test"))
    }

    static func body(_ response: WebTestClient.Response) -> String { String(buffer: response.body) }

    static func message(_ response: WebTestClient.Response) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(body(response).utf8))) as? [String: Any])?["message"] as? String
    }

    /// The value of the sample `name` (without labels) in a Prometheus exposition.
    static func sample(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    @Test func pageAndAssetsAreServedFromTheBinaryWithNoURLAtAll() async throws {
        try await Self.app(socket: Contract.temporarySocket()).serving { client in
            for (path, type, marker) in [
                ("/", "text/html", "<svg id=\"overlay\""), ("/app.js", "text/javascript", "/api/roi"),
                ("/style.css", "text/css", "#roi")
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                    #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
                    #expect(Self.body(response).contains(marker), "\(path)")
                    // A kiosk has no internet: nothing the page loads or names is elsewhere.
                    #expect(!Self.body(response).lowercased().contains("http"), "\(path) names a URL")
                }
            }
        }
    }

    @Test func statusAndSnapshotAreTheDaemonsAnswers() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path).serving { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(Self.body(response) == Contract.status + "\n")
            }
            for _ in 0..<3 {
                try await client.execute(uri: "/api/snapshot", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(Self.body(response) == Contract.snapshot + "\n")
                }
            }
        }
        #expect(try daemon.requests.map { try ClientRequest.parse($0) } == [.status, .snapshot, .snapshot, .snapshot])
    }

    @Test func aDaemonWithoutAFrameOrDownIsUnavailableWithItsReason() async throws {
        let path = Contract.temporarySocket()
        try await Self.app(socket: path).serving { client in
            try await client.execute(uri: "/api/status", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(Self.message(response)?.hasPrefix("scand is not running: no socket at \(path)") == true)
                #expect(Self.body(response).split(separator: "\n").count == 1)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.sample(Self.body(response), "scand_web_daemon_up") == 0, "\(Self.body(response))")
                #expect(!Self.body(response).contains("scand_frames_captured_total"))
            }
        }
        let daemon = try FakeDaemon(path: path) { _ in .error("no frame to show: the camera is waiting for /dev/video0") }
        defer { daemon.stop() }
        try await Self.app(socket: path).serving { client in
            try await client.execute(uri: "/api/snapshot", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(Self.message(response) == "no frame to show: the camera is waiting for /dev/video0")
            }
        }
    }

    @Test func theRectOfInterestNeedsTheMarkerHeaderAValidRectAndTheDaemonsConsent() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        let marker: HTTPFields = [HTTPField.Name("X-Scand-Request")!: "1", .contentType: "application/json"]
        try await Self.app(socket: daemon.path).serving { client in
            // A cross-site form can post, but not set a header: refused before the daemon is asked.
            try await client.execute(uri: "/api/roi", method: .post, body: ByteBuffer(string: #"{"x":0.1,"y":0.2,"w":0.5,"h":0.6}"#)) { response in
                #expect(response.status == .forbidden)
                #expect(Self.message(response)?.contains("X-Scand-Request: 1") == true)
            }
            for bad in [
                #"{"x":0.1,"y":0.2,"w":0.5}"#, #"{"x":0.6,"y":0.2,"w":0.5,"h":0.6}"#, #"{"x":"0.1","y":0.2,"w":0.5,"h":0.6}"#,
                "x=0.1", #"{"x":0.1,"y":0.2,"w":0,"h":0.6}"#, #"{"x":0.1,"y":0.2,"w":0.5,"h":0.6,"z":1}"#
            ] {
                try await client.execute(uri: "/api/roi", method: .post, headers: marker, body: ByteBuffer(string: bad)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(Self.message(response)?.isEmpty == false, "\(bad)")
                }
            }
            #expect(daemon.requests.isEmpty)
            try await client.execute(uri: "/api/roi", method: .post, headers: marker, body: ByteBuffer(string: #"{"x":0.1,"y":0.2,"w":0.5,"h":0.6}"#))
            { response in
                #expect(response.status == .ok)
                #expect(Self.body(response) == #"{"class":"ROI","roi":[0.1,0.2,0.5,0.6]}"# + "\n")
            }
            #expect(
                try daemon.requests.map { try ClientRequest.parse($0) } == [
                    .setRegionOfInterest(try NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.6))
                ])
        }
        let refusing = try FakeDaemon(path: Contract.temporarySocket()) { _ in Contract.refusal }
        defer { refusing.stop() }
        try await Self.app(socket: refusing.path).serving { client in
            try await client.execute(uri: "/api/roi", method: .post, headers: marker, body: ByteBuffer(string: #"{"x":0,"y":0,"w":1,"h":1}"#)) {
                response in
                #expect(response.status == .forbidden)
                #expect(Self.message(response) == "changing settings needs membership of group 'scand-admin' (uid 1000 is not a member)")
            }
        }
    }

    @Test func cameraControlsAreListedAndSetWithTheMarkerHeaderAndAValidChange() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        let marker: HTTPFields = [HTTPField.Name("X-Scand-Request")!: "1", .contentType: "application/json"]
        let change = #"{"set":[{"name":"brightness","value":140}],"keep":true}"#
        try await Self.app(socket: daemon.path).serving { client in
            try await client.execute(uri: "/api/controls", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Self.body(response) == Event.cameraControls(Contract.controls).line + "\n")
            }
            try await client.execute(uri: "/api/controls", method: .post, body: ByteBuffer(string: change)) { response in
                #expect(response.status == .forbidden)
                #expect(Self.message(response)?.contains("X-Scand-Request: 1") == true)
            }
            for bad in [#"{"set":[{"name":"brightness"}]}"#, "{}", #"{"keep":1}"#, "brightness=140", "{\"keep\":true}\n?STATUS;"] {
                try await client.execute(uri: "/api/controls", method: .post, headers: marker, body: ByteBuffer(string: bad)) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(Self.message(response)?.isEmpty == false, "\(bad)")
                }
            }
            try await client.execute(uri: "/api/controls", method: .post, headers: marker, body: ByteBuffer(string: change)) { response in
                #expect(response.status == .ok)
                #expect(Self.body(response).contains(#""kept":[{"name":"brightness","value":140}]"#), "\(Self.body(response))")
            }
            let asked = try daemon.requests.map { try ClientRequest.parse($0) }
            #expect(
                asked == [
                    .cameraControls, .setCameraControls(CameraControlChange(settings: [.init(name: "brightness", value: .integer(140))], keep: true))
                ])
        }
        // The daemon's refusal (not an admin, a value the camera does not take) comes with its message.
        let refusing = try FakeDaemon(path: Contract.temporarySocket()) { _ in
            .error("camera control 'brightness': 999 is out of range; it takes 0…255")
        }
        defer { refusing.stop() }
        try await Self.app(socket: refusing.path).serving { client in
            try await client.execute(
                uri: "/api/controls", method: .post, headers: marker, body: ByteBuffer(string: #"{"set":[{"name":"brightness","value":999}]}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(Self.message(response) == "camera control 'brightness': 999 is out of range; it takes 0…255")
            }
            try await client.execute(uri: "/api/controls", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
            }
        }
    }

    @Test func metricsAreTheDaemonsFollowedByScandWebsOwn() async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path).serving { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = Self.body(response)
                #expect(
                    text.hasPrefix(
                        "# HELP scand_frames_captured_total Frames captured.\n# TYPE scand_frames_captured_total counter\nscand_frames_captured_total 18\n"
                    ), "\(text)")
                #expect(text.contains("\n# TYPE scand_web_daemon_up gauge\n"), "\(text)")
                #expect(Self.sample(text, "scand_web_daemon_up") == 1, "\(text)")
                #expect(Self.sample(text, "scand_web_event_streams") == 0, "\(text)")
            }
        }
    }

    @Test func requestsNamingAnotherHostOrFromAnotherSitesPageAreRefused() async throws {
        for host in ["127.0.0.1:8088", "localhost:8088", "LOCALHOST", "[::1]:8088", "kiosk.local:8088", "10.0.0.7", ""] {
            #expect(HostCheck<WebApp.Context>.allowed(authority: host, hosts: ["kiosk.local"]), "\(host)")
        }
        // DNS rebinding: a page at evil.example whose name now points at 127.0.0.1.
        for host in ["evil.example:8088", "evil.example", "127.0.0.1.evil.example", "[::1.evil]:80", "1.2.3:80"] {
            #expect(!HostCheck<WebApp.Context>.allowed(authority: host, hosts: ["kiosk.local"]), "\(host)")
        }
        #expect(OriginPolicy.sameSite(origin: "http://127.0.0.1:8088", authority: "127.0.0.1:8088"))
        #expect(!OriginPolicy.sameSite(origin: "ws://localhost", authority: "localhost:8088"), "no page's origin")
        #expect(!OriginPolicy.sameSite(origin: "http://127.0.0.1:3000", authority: "127.0.0.1:8088"))
        #expect(!OriginPolicy.sameSite(origin: "null", authority: "127.0.0.1:8088"))
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path).serving { client in
            try await client.execute(uri: "/api/status", method: .get, headers: [.origin: "http://localhost"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/status", method: .get, headers: [.origin: "http://evil.example"]) { response in
                #expect(response.status == .forbidden)
                #expect(Self.message(response)?.contains("another site") == true)
            }
        }
        #expect(daemon.requests.count == 1)
    }

    /// Issue 25, 7: only the page's own origin (or one allowed by name) may ask; extensions, local files
    /// and apps may not; a malformed Host, or two, is refused.
    @Test func originsOfOtherSchemesAndMalformedHostsAreRefused() async throws {
        for origin in [
            "chrome-extension://abcdef", "moz-extension://x", "file://", "app://evil", "ws://localhost:8088", "null", "http://localhost:8088.evil"
        ] {
            #expect(!OriginPolicy.sameSite(origin: origin, authority: "localhost:8088"), "\(origin)")
        }
        #expect(OriginPolicy.sameSite(origin: "HTTPS://LOCALHOST:8088", authority: "localhost:8088"))
        #expect(!OriginPolicy.sameSite(origin: "http://localhost", authority: ""))
        #expect(
            OriginPolicy(allowed: ["https://office.example"]).verdict(
                method: .get, path: "/events", origin: "https://office.example", authority: "localhost:8088")
                == .crossOrigin("https://office.example"))
        for host in [
            "[::1]evil.com", "[]", "[::1", "localhost:evil", "localhost:8088:1", "localhost:123456", "127.0.0.1:99999", "[::1]:x", "01234.0.0.1"
        ] {
            #expect(!HostCheck<WebApp.Context>.allowed(authority: host, hosts: ["kiosk.local"]), "\(host)")
        }
        for host in ["[::1]", "[fe80::1]:8088", "[::ffff:127.0.0.1]:80", "kiosk.local"] {
            #expect(HostCheck<WebApp.Context>.allowed(authority: host, hosts: ["kiosk.local"]), "\(host)")
        }
        let daemon = try FakeDaemon(path: Contract.temporarySocket(), answer: Contract.answer)
        defer { daemon.stop() }
        try await Self.app(socket: daemon.path).serving { client in
            for origin in ["chrome-extension://abcdef", "file://", "app://evil"] {
                try await client.execute(uri: "/api/status", method: .get, headers: [.origin: origin]) { response in
                    #expect(response.status == .forbidden, "\(origin)")
                }
            }
            var twoHosts = HTTPFields()
            twoHosts.append(HTTPField(name: HTTPField.Name("Host")!, value: "localhost"))
            twoHosts.append(HTTPField(name: HTTPField.Name("Host")!, value: "evil.example"))
            try await client.execute(uri: "/api/status", method: .get, headers: twoHosts) { response in
                #expect(response.status == .badRequest)
                #expect(Self.message(response) == "more than one Host header")
            }
        }
        #expect(daemon.requests.isEmpty)
    }

    @Test func aRestartedDaemonIsReachedAgainWithoutAFailedRequest() async throws {
        let path = Contract.temporarySocket()
        let first = try FakeDaemon(path: path, answer: Contract.answer)
        try await Self.app(socket: path).serving { client in
            try await client.execute(uri: "/api/status", method: .get) { #expect($0.status == .ok) }
            first.stop()
            let second = try FakeDaemon(path: path, answer: Contract.answer)
            defer { second.stop() }
            // The kept connection is closed: the request goes through on a new one.
            try await client.execute(uri: "/api/status", method: .get) { #expect($0.status == .ok) }
            #expect(try second.requests.map { try ClientRequest.parse($0) } == [.status])
        }
    }
}
