import Foundation
import ScandCore
import ScandTestSupport
import Testing

/// `scand web` with the real daemon on a replayed recording: the page in a real browser (headless
/// Chromium, selenium), and /metrics checked by promtool and scraped by a real Prometheus.
@Suite(.serialized) struct WebEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func executable(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
    static var hasBrowser: Bool {
        executable("/usr/bin/chromium") && executable("/usr/bin/chromedriver")
            && (try? ScandBinary.runTool("/usr/bin/env", ["python3", "-c", "import selenium"]).status) == 0
    }
    static let code = (x: 0.75, y: 0.5, text: "scand web test")

    let dir = ScandBinary.temporaryDirectory()

    /// The daemon replaying `frames` frames of 640x360 at `fps` with the test's code, its socket, and `scand web`'s URL.
    struct Running {
        var daemon: DaemonProcess
        var web: DaemonProcess
        var socket: String
        var url: String

        func stop() -> (daemon: Int32, web: Int32) {
            web.signal(SIGTERM)
            let w = web.finish()
            daemon.signal(SIGTERM)
            return (daemon.finish(), w)
        }
    }

    /// - Parameters:
    ///   - web: a `[web]` table for scand web's configuration file.
    ///   - scene: the frame to replay instead of the test's QR code.
    ///   - settings: the daemon's settings options.
    func start(frames: Int, fps: Int, web table: String? = nil, scene: LumaImage? = nil, settings: [String] = []) throws -> Running {
        let recording = dir + "/code.rec"
        if let scene {
            try Scene.record(repeatElement(scene, count: frames), to: recording, gapMicroseconds: UInt64(1_000_000 / fps))
        } else {
            let synth = try ScandBinary.run([
                "synth", "--size", "640x360", "--frames", "\(frames)", "--fps", "\(fps)",
                "--code", "QRCode:\(Self.code.text)@\(Self.code.x),\(Self.code.y)", recording
            ])
            try #require(synth.status == 0, "\(synth.stderr)")
        }
        let socket = dir + "/scand.sock"
        let daemon = try Self.daemon(replaying: recording, socket: socket, settings: settings)
        try #require(daemon.wait { FileManager.default.fileExists(atPath: socket) }, "\(daemon.stderr)")
        var arguments = ["web", "--listen", "127.0.0.1:0", "--socket", socket]
        if let table {
            try "[web]\n\(table)\n".write(toFile: dir + "/web.toml", atomically: true, encoding: .utf8)
            arguments += ["--config", dir + "/web.toml"]
        }
        let web = try DaemonProcess(arguments)
        var url: String?
        web.wait {
            url = web.stderr.lazy.compactMap { line in line.range(of: "serving ").map { String(line[$0.upperBound...].prefix { $0 != " " }) } }.first
            return url != nil
        }
        try #require(url?.hasPrefix("http://127.0.0.1:") == true, "scand web did not say where it serves: \(web.stderr)")
        return Running(daemon: daemon, web: web, socket: socket, url: url!)
    }

    /// `.build/test-artifacts`, made if needed: where the browser tests leave their screenshots.
    static func artifacts() throws -> String {
        let path = root.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The arguments of `/usr/bin/env` that run `Tests/ScandCommandsTests/browser/NAME` with `arguments`.
    static func browserScript(_ name: String, _ arguments: [String]) -> [String] {
        ["python3", root.appendingPathComponent("Tests/ScandCommandsTests/browser/" + name).path] + arguments
    }

    static func daemon(replaying recording: String, socket: String, settings: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(
            ["run", "--source", "replay:" + recording, "--replay-pace", "recorded", "--update-interval", "0.2", "--socket", socket] + settings)
    }

    /// The page at 800x480, 1024x600 and 1080x1920 (`browser/layouts.py`): no scrolling, no overlap, values in
    /// words, a screenshot of each; the size hint on the daemon's real reads of every linear format at 1 px a
    /// module (each too small, by its event's name) and of an EAN-13 at 4 px (readable, outlined over its
    /// bars); then its badge while the daemon stops and comes back.
    @Test(.enabled(if: hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(5)))
    func theSetupPageFitsKioskScreensAndItsBadgeFollowsTheDaemon() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = try SetupPageScene.make()
        // The codes come into the rect of interest when the page asks for the whole frame: it gets their SCANs,
        // with the texts that a code's length depends on, not only UPDATEs.
        let running = try start(frames: 3000, fps: 10, scene: scene.page, settings: ["--roi", "0,0,0.05,0.05"])
        let artifacts = try Self.artifacts()
        let bars = scene.bars
        let browser = try SpawnedProcess(
            "/usr/bin/env",
            Self.browserScript(
                "layouts.py",
                [
                    "--url", running.url, "--screenshots", artifacts, "--linear", scene.linear.joined(separator: ","),
                    "--readable", "\(bars.left),\(bars.top),\(bars.right),\(bars.bottom)"
                ]))
        // On the script's cues, on this thread: the daemon stops, then starts again on the same socket.
        var restarted: DaemonProcess?
        if browser.wait(seconds: 180, until: { !browser.isRunning || browser.stdout.contains("stop scand") }),
            browser.stdout.contains("stop scand")
        {
            running.daemon.signal(SIGTERM)
            #expect(running.daemon.finish() == 0)
            if browser.wait(seconds: 60, until: { !browser.isRunning || browser.stdout.contains("start scand") }),
                browser.stdout.contains("start scand")
            {
                restarted = try Self.daemon(replaying: dir + "/code.rec", socket: running.socket)
            }
        }
        let status = browser.finish(seconds: 120)
        print("browser test:\n\(browser.stdout.joined(separator: "\n"))\n\(browser.stderr.joined(separator: "\n"))")
        restarted?.signal(SIGTERM)
        _ = restarted?.finish()
        let (_, webStatus) = running.stop()
        try #require(status != 77, "skipped: \(browser.stdout)")
        #expect(status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(running.web.stderr.suffix(20))")
        #expect(browser.stdout.contains("badge: live again"))
        #expect(webStatus == 0)
        for size in ["800x480", "1024x600", "1080x1920"] {
            #expect(FileManager.default.fileExists(atPath: artifacts + "/setup-page-\(size).png"), "\(size)")
        }
    }

    static func fetch(_ url: String) throws -> ScandBinary.Result {
        try ScandBinary.runTool("/usr/bin/curl", ["-sS", "--max-time", "10", url])
    }

    @Test(.enabled(if: hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(5)))
    func thePageOutlinesTheCodeAndItsRectOfInterestStopsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let running = try start(frames: 600, fps: 10)
        let artifacts = try Self.artifacts()
        let screenshot = artifacts + "/setup-page.png"
        let browser = try ScandBinary.runTool(
            "/usr/bin/env",
            Self.browserScript(
                "setup_page.py",
                [
                    "--url", running.url, "--socket", running.socket, "--code", "\(Self.code.x),\(Self.code.y)",
                    "--text", Self.code.text, "--screenshot", screenshot
                ]))
        print("browser test:\n\(browser.stdout)\(browser.stderr)screenshot artifact: \(screenshot)")
        let (daemonStatus, webStatus) = running.stop()
        try #require(browser.status != 77, "skipped: \(browser.stdout)")
        #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(running.web.stderr.suffix(20))")
        #expect(webStatus == 0, "scand web stops cleanly on SIGTERM: \(running.web.stderr.suffix(10))")
        #expect(daemonStatus == 0)
        #expect(FileManager.default.fileExists(atPath: screenshot))
    }

    /// The page opened while a code is in view (update_interval 0, the default: nothing more comes while it
    /// stays) outlines it and lists its scan at once, its label inside the frame though the code is near its
    /// right edge; the sharpness is on a scale; the daemon stopping is said once (issue 46, items 10 to 12).
    @Test(.enabled(if: hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(5)))
    func thePageOpenedWhileACodeIsInViewShowsItAtOnce() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = "kiosk-right-edge-0042"
        let recording = dir + "/edge.rec"
        let synth = try ScandBinary.run([
            "synth", "--size", "640x360", "--frames", "1200", "--fps", "10", "--code", "QRCode:\(text)@0.88,0.5", recording
        ])
        try #require(synth.status == 0, "\(synth.stderr)")
        let socket = dir + "/edge.sock"
        // Its journal on, as the packaged daemon's: scand web, started after the scan, learns of it from there.
        let daemon = try Self.daemon(
            replaying: recording, socket: socket, settings: ["--update-interval", "0", "--state-directory", dir + "/edge-state"])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.finish()
        }
        try #require(daemon.wait { daemon.stdout.contains { $0.contains(#""class":"SCAN""#) } }, "\(daemon.stderr)")
        let web = try DaemonProcess(["web", "--listen", "127.0.0.1:0", "--socket", socket])
        var url: String?
        web.wait {
            url = web.stderr.lazy.compactMap { line in line.range(of: "serving ").map { String(line[$0.upperBound...].prefix { $0 != " " }) } }.first
            return url != nil
        }
        let page = try #require(url, "\(web.stderr)")
        let browser = try SpawnedProcess("/usr/bin/env", Self.browserScript("page_on_open.py", ["--url", page, "--text", text]))
        if browser.wait(seconds: 120, until: { !browser.isRunning || browser.stdout.contains("stop scand") }),
            browser.stdout.contains("stop scand")
        {
            daemon.signal(SIGTERM)
            #expect(daemon.finish() == 0)
        }
        let status = browser.finish(seconds: 120)
        print("browser test:\n\(browser.stdout.joined(separator: "\n"))\n\(browser.stderr.joined(separator: "\n"))")
        web.signal(SIGTERM)
        #expect(web.finish() == 0)
        try #require(status != 77, "skipped: \(browser.stdout)")
        #expect(status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(web.stderr.suffix(20))")
    }

    /// With `[web] token`, the setup page opened once as `/?token=…` keeps the token as its cookie: the
    /// preview, the outlines, the rect of interest and the scans all work through it (fetch and EventSource).
    @Test(.enabled(if: hasBrowser, "needs chromium, chromium-driver and selenium (scripts/install-deps)"), .timeLimit(.minutes(5)))
    func theSetupPageWorksWithATokenKeptAsItsCookie() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let token = "0123456789abcdef0123456789abcdef"
        let running = try start(frames: 600, fps: 10, web: "token = \"\(token)\"")
        #expect(try Self.fetch(running.url + "api/status").stdout.contains("asks for its token"))
        let artifacts = try Self.artifacts()
        let browser = try ScandBinary.runTool(
            "/usr/bin/env",
            Self.browserScript(
                "setup_page.py",
                [
                    "--url", running.url + "?token=" + token, "--socket", running.socket, "--code", "\(Self.code.x),\(Self.code.y)",
                    "--text", Self.code.text, "--screenshot", artifacts + "/setup-page-token.png"
                ]))
        print("browser test with a token:\n\(browser.stdout)\(browser.stderr)")
        let (daemonStatus, webStatus) = running.stop()
        try #require(browser.status != 77, "skipped: \(browser.stdout)")
        #expect(browser.status == 0, "\(browser.stdout)\(browser.stderr)\nscand web: \(running.web.stderr.suffix(20))")
        #expect(webStatus == 0 && daemonStatus == 0)
        #expect(!running.web.stderr.joined().contains(token), "scand web logged its token")
    }

    @Test(
        .enabled(if: executable("/usr/bin/promtool") && executable("/usr/bin/curl"), "needs prometheus (scripts/install-deps)"),
        .timeLimit(.minutes(5)))
    func metricsPassPromtoolAndARealPrometheusScrapesThem() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let running = try start(frames: 600, fps: 10)
        defer { _ = running.stop() }
        // promtool: the exposition format and Prometheus's naming conventions.
        var text = ""
        running.daemon.wait {
            text = (try? Self.fetch(running.url + "metrics").stdout) ?? ""; return text.contains("scand_frames_captured_total")
        }
        #expect(text.contains("\nscand_web_daemon_up 1"), "\(text)")
        let file = dir + "/metrics.txt"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let check = try ScandBinary.runTool("/bin/sh", ["-c", "/usr/bin/promtool check metrics < '\(file)'"])
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty, "\(check.stdout)\(check.stderr)\n\(text)")

        guard Self.executable("/usr/bin/prometheus") else { return }
        // A real Prometheus on loopback scraping scand web every second, asked through its HTTP API.
        let port = try #require(Self.freePort())
        let config = dir + "/prometheus.yml"
        let target = running.url.dropFirst("http://".count).dropLast()
        try """
        global:
          scrape_interval: 1s
        scrape_configs:
          - job_name: scand
            static_configs:
              - targets: ['\(target)']
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let prometheus = try DaemonProcess(
            [
                "--config.file=" + config, "--storage.tsdb.path=" + dir + "/tsdb",
                "--web.listen-address=127.0.0.1:\(port)"
            ], executable: "/usr/bin/prometheus")
        defer { prometheus.signal(SIGTERM); _ = prometheus.finish() }
        var value = 0.0, answer = ""
        prometheus.wait(seconds: 90) {
            answer = (try? Self.fetch("http://127.0.0.1:\(port)/api/v1/query?query=scand_frames_captured_total").stdout) ?? ""
            value = Self.firstValue(answer) ?? 0
            return value > 0
        }
        #expect(value > 0, "Prometheus answered \(answer)\n\(prometheus.stderr.suffix(10))")
        let up = try Self.fetch("http://127.0.0.1:\(port)/api/v1/query?query=scand_web_daemon_up").stdout
        #expect(Self.firstValue(up) == 1, "\(up)")
    }

    /// The first sample's value of a Prometheus instant-query answer.
    static func firstValue(_ json: String) -> Double? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
            let sample = result.first?["value"] as? [Any], let text = sample.last as? String
        else { return nil }
        return Double(text)
    }

    /// A loopback port nothing listens on now.
    static func freePort() -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return ok ? Int(UInt16(bigEndian: addr.sin_port)) : nil
    }
}
