import HTTPTypes
import Testing

@testable import ScandWeb

/// Which page may ask what: exact origins, read-only routes, and the CORS answers they get.
@Suite struct OriginPolicyTests {
    let policy = OriginPolicy(allowed: ["http://localhost:3000", "HTTPS://Kiosk.Example:443"])

    @Test func originsAreNormalizedAsBrowsersSendThem() {
        #expect(WebSettings.origin("http://localhost:3000") == "http://localhost:3000")
        #expect(WebSettings.origin("HTTPS://Kiosk.Example:443") == "https://kiosk.example")
        #expect(WebSettings.origin("http://kiosk:80") == "http://kiosk")
        #expect(WebSettings.origin("http://[::1]:8080") == "http://[::1]:8080")
        #expect(WebSettings.origin("https://10.0.0.7:8443") == "https://10.0.0.7:8443")
        for bad in [
            "*", "null", "localhost:3000", "http://", "http://a/", "http://a/path", "ftp://a", "http://a:0", "http://a:65536", "http://a:x",
            "http://user@a", "http://a?b", "file://", "http://[::1", "http://a b", "chrome-extension://abc"
        ] {
            #expect(WebSettings.origin(bad) == nil, "\(bad)")
        }
    }

    @Test func anAllowedOriginMayOnlyRead() {
        #expect(
            policy.verdict(method: .get, path: "/events", origin: "http://localhost:3000", authority: "127.0.0.1:8088")
                == .crossOrigin("http://localhost:3000"))
        #expect(
            policy.verdict(method: .head, path: "/events", origin: "https://kiosk.example", authority: "127.0.0.1:8088")
                == .crossOrigin("https://kiosk.example"))
        for path in ["/api/status", "/api/snapshot"] {
            #expect(
                policy.verdict(method: .get, path: path, origin: "http://localhost:3000", authority: "x") == .crossOrigin("http://localhost:3000"))
            #expect(
                policy.verdict(method: .options, path: path, origin: "http://localhost:3000", authority: "x") == .crossOrigin("http://localhost:3000")
            )
        }
        // The rect of interest, the page, /metrics: this server's own page only.
        for (method, path) in [
            (HTTPRequest.Method.post, "/api/roi"), (.options, "/api/roi"), (.get, "/"), (.get, "/metrics"), (.post, "/events"), (.get, "/ws")
        ] {
            guard case .refused(let reason) = policy.verdict(method: method, path: path, origin: "http://localhost:3000", authority: "x") else {
                Issue.record("\(method) \(path) should be refused")
                continue
            }
            #expect(reason.contains("may only read"), "\(reason)")
        }
    }

    @Test func otherOriginsAreRefusedAndTheServersOwnPageIsNot() {
        for origin in [
            "http://localhost:3001", "https://localhost:3000", "http://127.0.0.1:3000", "null", "file://", "http://localhost:3000/", "ws://localhost"
        ] {
            guard case .refused(let reason) = policy.verdict(method: .get, path: "/events", origin: origin, authority: "127.0.0.1:8088") else {
                Issue.record("\(origin) should be refused")
                continue
            }
            #expect(reason.contains("allowed_origins"))
        }
        #expect(policy.verdict(method: .post, path: "/api/roi", origin: "http://127.0.0.1:8088", authority: "127.0.0.1:8088") == .sameOrigin)
        #expect(policy.verdict(method: .get, path: "/events", origin: nil, authority: "127.0.0.1:8088") == .sameOrigin)
        #expect(OriginPolicy().verdict(method: .get, path: "/events", origin: "http://localhost:3000", authority: "x") != .sameOrigin)
    }

    @Test func corsAnswersEchoTheOriginAndVary() {
        let headers = HTTPFields(OriginPolicy.responseHeaders(origin: "http://localhost:3000"))
        #expect(headers[.accessControlAllowOrigin] == "http://localhost:3000")
        #expect(headers[.accessControlAllowCredentials] == "true")
        #expect(headers[.vary] == "Origin")
        let preflight = HTTPFields(OriginPolicy.preflightHeaders(origin: "http://localhost:3000", requestedMethod: "GET") ?? [])
        #expect(preflight[.accessControlAllowMethods] == "GET, HEAD")
        #expect(preflight[.accessControlAllowHeaders]?.contains("Last-Event-ID") == true)
        #expect(preflight[.accessControlAllowHeaders]?.contains("Authorization") == true)
        #expect(preflight[.accessControlAllowOrigin] == "http://localhost:3000")
        for method in ["POST", "PUT", "DELETE", ""] {
            #expect(OriginPolicy.preflightHeaders(origin: "http://localhost:3000", requestedMethod: method) == nil, "\(method)")
        }
    }
}
