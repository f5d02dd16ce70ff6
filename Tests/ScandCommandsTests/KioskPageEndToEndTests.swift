import Foundation
import ScandCore
import ScandTestSupport
import NIOConcurrencyHelpers
import NIOPosix
import Testing

/// docs/examples/kiosk.html in headless Chromium, served from a second loopback origin, with the real
/// daemon (journal on) replaying a new code every second and `scand web` allowing that origin: scans
/// arrive, every one once across a reload and an absence, with a beep each once the page was touched (none
/// muted); from an origin not allowed, none; opened as a file, it says how to serve it.
@Suite(.serialized) struct KioskPageEndToEndTests {
    static let root = WebEndToEndTests.root
    let dir = ScandBinary.temporaryDirectory()

    /// `count` codes, each in view for 0.6 s then gone for 0.4 s, at 5 frames a second (98 kB a frame).
    func recording(count: Int) throws -> String {
        let blank = Scene.page(width: 256, height: 192, background: 235, centred: [])
        let pages = (1...count).lazy.flatMap { i -> [LumaImage] in
            let code = Scene.page(width: 256, height: 192, background: 235, centred: [(Scene.symbol(.qrCode, "kiosk \(i)"), x: 128, y: 96)])
            return [code, code, code, blank, blank]
        }
        return try Scene.record(pages, to: dir + "/codes.rec", gapMicroseconds: 200_000)
    }

    /// The real daemon, its journal on, replaying `count` codes at their recorded pace, serving its socket.
    func replayingDaemon(count: Int) throws -> (DaemonProcess, socket: String) {
        let recording = try recording(count: count)
        let socket = dir + "/scand.sock", state = dir + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let daemon = try DaemonProcess([
            "run", "--source", "replay:" + recording, "--replay-pace", "recorded", "--socket", socket, "--state-directory", state
        ])
        guard daemon.wait(until: { FileManager.default.fileExists(atPath: socket) }) else {
            Self.stop(daemon)
            throw DaemonNotServing(stderr: daemon.stderr)
        }
        return (daemon, socket)
    }

    struct DaemonNotServing: Error {
        var stderr: [String]
    }

    static func stop(_ daemon: DaemonProcess) {
        daemon.signal(SIGTERM)
        _ = daemon.finish()
    }

    @Test(.enabled(if: WebEndToEndTests.hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(5)))
    func theKioskPageGetsEveryScanOnceFromAnAllowedOriginAndNoneFromAnother() async throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Long enough for a machine busy with other suites: the daemon must still be replaying at the end.
        let (daemon, socket) = try replayingDaemon(count: 240)
        defer { Self.stop(daemon) }
        let pagePort = try #require(WebEndToEndTests.freePort())
        let config = dir + "/web.toml"
        try """
        [web]
        allowed_origins = ["http://127.0.0.1:\(pagePort)"]
        """.write(toFile: config, atomically: true, encoding: .utf8)
        // A fixed port: the page's EventSource must find scand web again after its restart.
        let webPort = try #require(WebEndToEndTests.freePort())
        let url = "http://127.0.0.1:\(webPort)/"
        let startWeb: @Sendable () throws -> DaemonProcess = {
            let web = try DaemonProcess(["web", "--config", config, "--listen", "127.0.0.1:\(webPort)", "--socket", socket])
            web.wait { web.stderr.contains { $0.contains("serving \(url)") } }
            return web
        }
        let web = NIOLockedValueBox(try startWeb())
        try #require(web.withLockedValue { $0.stderr.contains { $0.contains("serving \(url)") } }, "scand web did not say it serves")
        let artifacts = try WebEndToEndTests.artifacts()
        let screenshot = artifacts + "/kiosk-page.png"
        let browser = try SpawnedProcess(
            "/usr/bin/env",
            WebEndToEndTests.browserScript(
                "kiosk_page.py",
                [
                    "--web", url, "--socket", socket, "--pages", Self.root.appendingPathComponent("docs/examples").path,
                    "--port", "\(pagePort)", "--screenshot", screenshot
                ]))
        // The script asks for scand web to go away under the page and come back, once: on a thread of its
        // own (a pool of one), on cue, however busy the cooperative pool is with other suites.
        let restarts = NIOLockedValueBox<[Int32]>([])
        let restarter = NIOThreadPool(numberOfThreads: 1)
        restarter.start()
        restarter.submit { _ in
            Eventually.wait(seconds: 240, poll: .milliseconds(50)) { !browser.isRunning || browser.stdout.contains("restart scand web") }
            guard browser.stdout.contains("restart scand web") else { return }
            let old = web.withLockedValue { $0 }
            old.signal(SIGTERM)
            let status = old.finish()
            guard let new = try? startWeb() else { return }
            web.withLockedValue { $0 = new }
            restarts.withLockedValue { $0.append(status) }
        }
        _ = await Eventually.check(seconds: 240, poll: .milliseconds(100)) { !browser.isRunning }
        let status = browser.wait()
        try? await restarter.shutdownGracefully()  // after its one restart, or its cue never came
        print("browser test:\n\(browser.stdout.joined(separator: "\n"))\n\(browser.stderr.joined(separator: "\n"))")
        let last = web.withLockedValue { $0 }
        last.signal(SIGTERM)
        let webStatus = last.finish()
        try #require(status != 77, "skipped: \(browser.stdout)")
        #expect(restarts.withLockedValue { $0 } == [0], "scand web stops cleanly on SIGTERM with an event stream open")
        #expect(status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(last.stderr.suffix(20))\nscand: \(daemon.stderr.suffix(20))")
        #expect(webStatus == 0, "scand web stops cleanly on SIGTERM with event streams open: \(last.stderr.suffix(10))")
    }

    /// `[web] token` on the real binaries, asked as a client (curl) would: every request needs it, each way
    /// of sending it works, an allowed origin reads with it, and no log line of scand web holds it.
    @Test(.enabled(if: WebEndToEndTests.executable("/usr/bin/curl"), "needs curl"), .timeLimit(.minutes(3)))
    func theTokenIsAskedOfEveryRequestAndNeverLogged() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (daemon, socket) = try replayingDaemon(count: 20)
        defer { Self.stop(daemon) }
        let token = "kiosk-7_Token.0123456789abcdef", wrong = "kiosk-7_Token.0123456789abcdeX"
        let config = dir + "/web.toml"
        try """
        [web]
        allowed_origins = ["http://localhost:3000"]
        token = "\(token)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let port = try #require(WebEndToEndTests.freePort())
        let url = "http://127.0.0.1:\(port)/"
        let web = try DaemonProcess(["web", "--config", config, "--listen", "127.0.0.1:\(port)", "--socket", socket])
        defer {
            web.signal(SIGTERM)
            _ = web.finish()
        }
        try #require(web.wait { web.stderr.contains { $0.contains("serving \(url)") } }, "\(web.stderr)")
        func curl(_ arguments: [String]) throws -> String {
            try ScandBinary.runTool("/usr/bin/curl", ["-sS", "-i", "--max-time", "10"] + arguments).stdout
        }
        #expect(try curl([url + "api/status"]).hasPrefix("HTTP/1.1 401"))
        #expect(try curl(["-H", "Authorization: Bearer \(wrong)", url + "api/status"]).contains(#"{"message":"wrong token"}"#))
        var status = "", fields: [String: Any] = [:]
        // Until the daemon has journaled a scan, to resume from before it.
        web.wait {
            status = (try? curl(["-H", "Authorization: Bearer \(token)", url + "api/status"])) ?? ""
            let body = status.components(separatedBy: "\r\n\r\n").last ?? ""
            fields = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
            return (fields["scans"] as? Int ?? 0) > 0
        }
        #expect(status.hasPrefix("HTTP/1.1 200"), "\(status)")
        #expect(try curl(["-H", "Cookie: scand_token=\(token)", url + "metrics"]).hasPrefix("HTTP/1.1 200"))
        let page = try curl([url + "?token=\(token)"])
        #expect(
            page.hasPrefix("HTTP/1.1 303")
                && page.lowercased().contains("set-cookie: scand_token=\(token.lowercased()); path=/; httponly; samesite=strict"), "\(page)")
        // The allowed origin's EventSource way: the token in the query, from the journal's start.
        let boot = try #require((fields["journal"] as? [String: Any])?["boot"] as? String, "\(status)")
        let events = try ScandBinary.runTool(
            "/usr/bin/curl",
            [
                "-sS", "-i", "-N", "--max-time", "3", "-H", "Origin: http://localhost:3000",
                url + "events?token=\(token)&classes=SCAN,DEVICE&lastEventId=\(boot):1"
            ]
        ).stdout
        #expect(events.hasPrefix("HTTP/1.1 200") && events.lowercased().contains("access-control-allow-origin: http://localhost:3000"), "\(events)")
        #expect(events.contains("event: SCAN\nid: \(boot):") && events.contains(#""replayed":true"#), "\(events)")
        #expect(try curl(["-H", "Origin: http://localhost:3000", url + "events?token=\(wrong)"]).hasPrefix("HTTP/1.1 401"))
        let log = web.stderr.joined(separator: "\n")
        #expect(!log.contains("Token.0123"), "scand web logged a token: \(log)")
    }
}
