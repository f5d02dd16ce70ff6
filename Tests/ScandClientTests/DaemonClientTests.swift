import Foundation
import ScandCore
import ScandLogging
import ScandProtocol
import ScandTestSupport
import ServiceLifecycle
import Testing

@testable import ScandClient
@testable import ScandSocket

/// The client against the daemon's real socket server, in this process, on a socket of the test's own.
@Suite(.timeLimit(.minutes(1))) struct DaemonClientTests {
    /// The socket server with fixed answers, on a socket of the test's own; its hub publishes what the test
    /// publishes.
    static func localDaemon(
        path: String = NSTemporaryDirectory() + "scand-client-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock", queueLimit: Int = 1000
    ) -> LocalServer {
        let controls = DaemonControls(
            status: { StatusReport(device: nil, counters: FrameCounters(), clients: ClientCounters(), stdoutDropped: 0) },
            metrics: { "scand_up 1\n" }, snapshot: { _ in Event.error("no frame to show yet").line }, regionOfInterest: { .full },
            setRegionOfInterest: { .regionOfInterest($0) })
        // The first request's timeout as patient as the client: a starved pool is not an idle client.
        let server = SocketServer(
            listener: .path(path, group: ""), hub: EventHub(queueLimit: queueLimit, maxClients: 16), maxRequestBytes: 4096,
            requestTimeout: DaemonClientTests.patience, daemon: controls, log: .scand(write: { _, _ in }))
        return LocalServer(path: path, server: server)
    }

    /// The client's answer timeout here: on 2 cores, blocking end-to-end suites running beside these can
    /// hold the cooperative pool for seconds, and a timeout would be a second connection, not a failure.
    static let patience = Duration.seconds(50)

    /// Runs `body` with `service` running beside it, then stops the service.
    func with<S: Service, T: Sendable>(_ service: S, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    @Test func requestsShareOneKeptConnection() async throws {
        let daemon = Self.localDaemon()
        try await daemon.start()
        let client = DaemonClient(socketPath: daemon.path, timeout: Self.patience)
        try await with(client) {
            for _ in 0..<10 {
                let status = try await client.request(.status), metrics = try await client.request(.metrics)
                let rect = try await client.request(.regionOfInterest)
                #expect(status.eventClass == .status)
                #expect(metrics.event == .metrics("scand_up 1\n"))
                #expect(rect.event == .regionOfInterest(.full))
            }
            #expect(daemon.hub.counters.totalConnections == 1)
        }
        await daemon.stop()
    }

    @Test func theDaemonsErrorIsTheRequestsRefusal() async throws {
        let daemon = Self.localDaemon()
        try await daemon.start()
        let client = DaemonClient(socketPath: daemon.path, timeout: Self.patience)
        try await with(client) {
            await #expect(throws: DaemonError.refusedRequest("no frame to show yet")) { try await client.request(.snapshot) }
            // The connection stays usable.
            let version = try await client.request(.version)
            #expect(version.eventClass == .version)
        }
        await daemon.stop()
    }

    @Test func aStoppedDaemonIsUnreachableThenServedAgain() async throws {
        let daemon = Self.localDaemon()
        let client = DaemonClient(socketPath: daemon.path, timeout: Self.patience)
        try await with(client) {
            await #expect(throws: DaemonError.self) { try await client.request(.status) }
            do {
                _ = try await client.request(.status)
            } catch {
                guard case .unreachable(_, .notRunning)? = error as? DaemonError else { Issue.record("\(error)"); return }
            }
            try await daemon.start()
            let first = try await client.request(.status)
            #expect(first.eventClass == .status)
            // A restarted daemon closed the kept connection: the next request goes on a new one.
            await daemon.stop()
            let again = Self.localDaemon(path: daemon.path)
            try await again.start()
            let second = try await client.request(.status)
            #expect(second.eventClass == .status)
            #expect(again.hub.counters.totalConnections == 1, "the request went to the restarted daemon")
            await again.stop()
        }
    }

    @Test func aSubscriptionPassesTheDaemonsLinesAndComesBack() async throws {
        let daemon = Self.localDaemon()
        try await daemon.start()
        let subscription = EventSubscription(
            socketPath: daemon.path, watch: .init(enable: true, classes: [.device]), reconnect: true,
            backoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(100)))
        try await with(subscription) {
            var lines = subscription.makeAsyncIterator()
            #expect(try await lines.next()?.eventClass == .version)
            #expect(try await lines.next()?.eventClass == .watch)
            daemon.hub.publish(.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: "first")))
            let expected = try EventDecoder.decode(Event.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: "first")).line)
            #expect(try await lines.next() == .event(expected))
            await daemon.stop()
            #expect(try await lines.next() == .lost(.closed))
            let again = Self.localDaemon(path: daemon.path)
            try await again.start()
            var next = try await lines.next()
            while case .lost = next { next = try await lines.next() }  // tried before the daemon was back
            #expect(next?.eventClass == .version)
            #expect(try await lines.next()?.eventClass == .watch)
            again.hub.publish(.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: "second")))
            #expect(try await lines.next()?.eventClass == .device)
            await again.stop()
        }
    }

    @Test func withoutReconnectTheSequenceEndsWithTheDaemon() async throws {
        let missing = EventSubscription(
            socketPath: NSTemporaryDirectory() + "scand-nobody-\(getpid()).sock", watch: .init(enable: true), reconnect: false)
        try await with(missing) {
            var lines = missing.makeAsyncIterator()
            await #expect(throws: DaemonError.self) { _ = try await lines.next() }
        }
        let daemon = Self.localDaemon()
        try await daemon.start()
        let refused = EventSubscription(
            socketPath: daemon.path, watch: .init(enable: true, since: EventPosition(boot: String(repeating: "a", count: 32), seq: 1)),
            reconnect: false)
        try await with(refused) {
            var lines = refused.makeAsyncIterator()
            #expect(try await lines.next()?.eventClass == .version)
            #expect(try await lines.next()?.eventClass == .watch)
            // This daemon keeps no journal: it says so, and live events follow.
            let notice = try await lines.next()
            #expect(notice?.eventClass == .error)
            await daemon.stop()
            #expect(try await lines.next() == nil)
        }
    }

    /// The subscription reads the socket at its reader's pace: a reader that waits leaves the lines in the
    /// socket until the daemon's queue for it is full and the daemon drops it (its journal would keep the
    /// rest). It read on into a buffer of its own and gave up its connection instead, over and over.
    @Test func aReaderThatWaitsStopsTheReadingUntilTheDaemonDropsIt() async throws {
        let daemon = Self.localDaemon(queueLimit: 8)
        try await daemon.start()
        let subscription = EventSubscription(
            socketPath: daemon.path, watch: .init(enable: true, classes: [.device]), reconnect: false, bufferLimit: 4)
        try await with(subscription) {
            var lines = subscription.makeAsyncIterator()
            #expect(try await lines.next()?.eventClass == .version)
            #expect(try await lines.next()?.eventClass == .watch)
            // 8 MB: more than the socket's buffers hold.
            let reason = String(repeating: "x", count: 4000)
            for _ in 0..<2000 { daemon.hub.publish(.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: reason))) }
            #expect(await Eventually.check { daemon.hub.counters.droppedSlow == 1 })
            var read = 0
            while let line = try await lines.next() {
                #expect(line.eventClass == .device)
                read += 1
            }
            #expect(read < 2000, "the rest stayed with the daemon")
            #expect(daemon.hub.counters.totalConnections == 1)
        }
        await daemon.stop()
    }

    /// A command that fails after making its subscription never runs it: the subscription ends quietly
    /// (NIO's producer stopped the process when its source went unfinished).
    @Test func aSubscriptionNeverRunEndsQuietly() async throws {
        var subscription: EventSubscription? = EventSubscription(socketPath: "/nonexistent", watch: .init(enable: true), reconnect: false)
        #expect(subscription?.socketPath == "/nonexistent")
        subscription = nil
        #expect(subscription == nil)
    }

    @Test func theBackoffDoublesUpToItsMaximumAndStartsAgain() {
        var backoff = Backoff(initial: .milliseconds(250), maximum: .seconds(1))
        #expect(
            [backoff.next(), backoff.next(), backoff.next(), backoff.next()] == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(1)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(250))
    }
}

extension EventSubscription.Element {
    var eventClass: Event.Class? {
        if case .event(let line) = self { line.eventClass } else { nil }
    }
}
