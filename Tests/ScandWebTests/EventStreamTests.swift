import Foundation
import Hummingbird
import Logging
import ScandClient
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandWeb

/// GET /events against a live server and a daemon socket the test serves, read by curl as a browser's
/// EventSource reads it: live events, a resume from the journal exactly once, a slow client dropped.
@Suite(.serialized) struct EventStreamTests {
    static var hasCurl: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }

    /// The app with its relay on `daemon`, running for `body`, which gets the base URL.
    /// A fake daemon with `scand web` in front of it and the page hub between them: where each stream test starts.
    static func withDaemonAndServer(
        metrics: WebMetrics = WebMetrics(), _ body: @escaping @Sendable (FakeDaemon, PageHub, String) async throws -> Void
    ) async throws {
        let daemon = try FakeDaemon(path: Contract.temporarySocket())
        defer { daemon.stop() }
        let hub = PageHub()
        try await withServer(daemon, metrics: metrics, hub: hub) { base in try await body(daemon, hub, base) }
    }

    static func withServer(
        _ daemon: FakeDaemon, metrics: WebMetrics = WebMetrics(), hub: PageHub = PageHub(),
        _ body: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        let logger = Logger(label: "test")
        let client = DaemonClient(socketPath: daemon.path)
        let router = WebApp.router(daemon: client, hub: hub, metrics: metrics)
        var app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        app.addServices(client, EventRelay(socketPath: daemon.path, hub: hub, metrics: metrics, logger: logger))
        try await app.serving { client in
            #expect(await Eventually.check { daemon.watcherCount == 1 })
            try await body("http://127.0.0.1:\(client.port)")
        }
    }

    /// An EventSource's view of curl's output: the ids received, in order.
    struct Reader {
        let process: SpawnedProcess

        init(_ url: String, lastEventID: String? = nil) throws {
            var arguments = ["-sN", "--max-time", "60"]
            if let lastEventID { arguments += ["-H", "Last-Event-ID: \(lastEventID)"] }
            process = try SpawnedProcess("/usr/bin/curl", arguments + [url])
        }

        var ids: [String] { process.stdout.filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) } }
        var seqs: [Int] { ids.compactMap { EventStreamID.position($0)?.seq } }

        func stop() {
            process.signal(SIGTERM)
            _ = process.finish()
        }
    }

    @Test(.enabled(if: hasCurl, "needs curl"), .timeLimit(.minutes(1)))
    func liveEventsAndAResumeFromTheJournalComeExactlyOnce() async throws {
        try await Self.withDaemonAndServer { daemon, hub, base in
            daemon.publish(3)
            #expect(await Eventually.check { await hub.latestForTests?.seq == 3 })
            // A new page: live events only, each with its class and id.
            let fresh = try Reader(base + "/events")
            defer { fresh.stop() }
            #expect(await Eventually.check { await hub.subscriberCount == 1 })
            daemon.publish(2)
            #expect(await Eventually.check { fresh.seqs == [4, 5] }, "\(fresh.process.stdout)")
            #expect(fresh.process.stdout.first == "retry: 2000")
            #expect(fresh.process.stdout.contains("event: SCAN"))
            #expect(fresh.process.stdout.contains("data: " + daemon.line(4)))

            // A page that saw 1 resumes: 2…5 from the journal, through a subscription of its own that ends
            // once it reaches the relay, then 6 from the relay, none twice.
            let watches = daemon.requests.count
            let resumed = try Reader(base + "/events", lastEventID: "\(daemon.boot):1")
            defer { resumed.stop() }
            #expect(await Eventually.check { resumed.seqs == [2, 3, 4, 5] }, "\(resumed.process.stdout)")
            let since = try ClientRequest.parse(try #require(daemon.requests.dropFirst(watches).first, "no catch-up WATCH"))
            #expect(since == .watch(.init(enable: true, classes: EventRelay.watch.classes, since: EventPosition(boot: daemon.boot, seq: 1))))
            #expect(await Eventually.check { daemon.watcherCount == 1 }, "the catch-up subscription is closed")
            daemon.publish(1)
            #expect(await Eventually.check { resumed.seqs == [2, 3, 4, 5, 6] && fresh.seqs == [4, 5, 6] })

            // A page up to date (a reload): no daemon connection at all, the relay's next event.
            let requests = daemon.requests.count
            let reloaded = try Reader(base + "/events?lastEventId=\(daemon.boot):6")
            defer { reloaded.stop() }
            #expect(await Eventually.check { await hub.subscriberCount == 3 })
            daemon.publish(1)
            #expect(await Eventually.check { reloaded.seqs == [7] && resumed.seqs.last == 7 })
            #expect(daemon.requests.count == requests)
        }
    }

    /// A position of the daemon's own boot far ahead of its journal (issue 31's item 7) is the daemon's to
    /// judge, as a socket client's `since` is: its ERROR, all it holds, then live events (the relay, up to
    /// date, had taken it as newer than all it had and kept the page silent).
    @Test(.enabled(if: hasCurl, "needs curl"), .timeLimit(.minutes(1)))
    func aPositionAheadOfTheJournalGetsTheDaemonsErrorAndReplayThenLiveEvents() async throws {
        try await Self.withDaemonAndServer { daemon, hub, base in
            daemon.publish(3)
            #expect(await Eventually.check { await hub.latestForTests?.seq == 3 })
            let ahead = try Reader(base + "/events", lastEventID: "\(daemon.boot):100003")
            defer { ahead.stop() }
            #expect(await Eventually.check { ahead.seqs == [1, 2, 3] }, "\(ahead.process.stdout)")
            let lines = ahead.process.stdout
            let error = try #require(lines.firstIndex(of: "event: ERROR"), "\(lines)")
            #expect(lines[error + 1].hasPrefix("data: ") && lines[error + 1].contains("is not in the journal"), "\(lines)")
            #expect(error < lines.firstIndex { $0.hasPrefix("id: ") }!, "the ERROR first")
            #expect(await Eventually.check { daemon.watcherCount == 1 }, "the catch-up subscription is closed")
            daemon.publish(1)
            #expect(await Eventually.check { ahead.seqs == [1, 2, 3, 4] }, "\(ahead.process.stdout)")
        }
    }

    /// The setup page's stream (`view=1`) starts with a VIEW of the last scans and the codes in view, then
    /// live events; one that resumes catches up from the journal instead, with no VIEW.
    @Test(.enabled(if: hasCurl, "needs curl"), .timeLimit(.minutes(1)))
    func aViewComesFirstUnlessTheStreamResumes() async throws {
        try await Self.withDaemonAndServer { daemon, hub, base in
            daemon.publish(2)
            #expect(await Eventually.check { await hub.latestForTests?.seq == 2 })
            let page = try Reader(base + "/events?view=1")
            defer { page.stop() }
            let resumed = try Reader(base + "/events?view=1", lastEventID: "\(daemon.boot):1")
            defer { resumed.stop() }
            #expect(await Eventually.check { await hub.subscriberCount == 2 && resumed.seqs == [2] }, "\(resumed.process.stdout)")
            daemon.publish(1)
            #expect(await Eventually.check { page.seqs == [3] && resumed.seqs == [2, 3] }, "\(page.process.stdout)")
            let lines = page.process.stdout
            let view = try #require(lines.firstIndex(of: "event: VIEW"), "\(lines)")
            #expect(lines[view + 1].hasPrefix(#"data: {"class":"VIEW","scans":["# + daemon.line(1) + "," + daemon.line(2) + "]"), "\(lines)")
            #expect(view < lines.firstIndex { $0.hasPrefix("id: ") }!, "the VIEW first")
            #expect(!resumed.process.stdout.contains("event: VIEW"), "\(resumed.process.stdout)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aClientThatDoesNotReadIsDroppedAndOthersMissNothing() async throws {
        let metrics = WebMetrics()
        try await Self.withDaemonAndServer(metrics: metrics) { daemon, hub, base in
            let port = Int(base.split(separator: ":").last!)!
            // A client that asks and then never reads, with a small receive buffer: its queue fills.
            let stuck = try #require(StuckClient(port: port))
            defer { stuck.close() }
            #expect(await Eventually.check { await hub.subscriberCount == 1 })
            let reader = Self.hasCurl ? try Reader(base + "/events") : nil
            defer { reader?.stop() }
            if reader != nil { #expect(await Eventually.check { await hub.subscriberCount == 2 }) }
            // Batches of 100 (under the queue's 256, so the reader keeps up), until the kernel's buffers
            // toward the stuck client are full and its queue overflows.
            var total = 0
            func dropped() -> Bool { WebRoutesTests.sample(metrics.text(), "scand_web_event_streams_dropped_total") == 1 }
            while total < 40_000, !dropped() {
                daemon.publish(100)
                total += 100
                if let reader { #expect(await Eventually.check { reader.seqs.count == total }, "\(reader.seqs.count) of \(total)") }
            }
            #expect(await Eventually.check { dropped() }, "\(metrics.text())")
            #expect(await Eventually.check { WebRoutesTests.sample(metrics.text(), "scand_web_event_streams") == (reader == nil ? 0 : 1) })
            #expect(await Eventually.check { await hub.subscriberCount == (reader == nil ? 0 : 1) })
            if let reader { #expect(reader.seqs == Array(1...total)) }
        }
    }

    /// A connection that sends GET /events and never reads the answer.
    final class StuckClient: Sendable {
        let fd: Int32

        init?(port: Int) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            let request = Array("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
            guard connected, send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
                Glibc.close(fd)
                return nil
            }
        }

        func close() { Glibc.close(fd) }
    }
}
