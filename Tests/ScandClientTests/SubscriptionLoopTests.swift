import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandClient

/// The clients' one loop over a subscription, against the daemon's real socket server in this process.
@Suite(.timeLimit(.minutes(1))) struct SubscriptionLoopTests {
    static let device = Event.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: "unplugged"))

    /// The steps of `subscription` as the loop hands them over, while `body` runs.
    static func steps(
        _ subscription: EventSubscription, _ body: (inout AsyncStream<SubscriptionLoop.Step>.Iterator) async throws -> Void
    ) async throws {
        let (steps, step) = AsyncStream.makeStream(of: SubscriptionLoop.Step.self)
        let loop = Task { try await SubscriptionLoop.run(subscription) { step.yield($0) } }
        defer { loop.cancel() }
        var next = steps.makeAsyncIterator()
        try await body(&next)
    }

    @Test func linesInOrderEachOutagesCauseOnceAndTheSubscriptionThatEndsIt() async throws {
        let daemon = DaemonClientTests.localDaemon()
        try await daemon.start()
        let subscription = EventSubscription(
            socketPath: daemon.path, watch: .init(enable: true, classes: [.device]), reconnect: true,
            backoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(40)))
        try await Self.steps(subscription) { next in
            guard case .event(let version)? = await next.next() else {
                Issue.record("no VERSION first")
                return
            }
            #expect(version.eventClass == .version)
            #expect(await next.next() == .subscribed(again: false, afterOutage: false))
            guard case .event(let watch)? = await next.next() else {
                Issue.record("no WATCH after the subscription")
                return
            }
            #expect(watch.eventClass == .watch)
            daemon.hub.publish(Self.device)
            #expect(await next.next() == .event(try EventDecoder.decode(Self.device.line)))

            await daemon.stop()
            #expect(await next.next() == .lost(.closed, reason: "scand closed the event subscription"))
            // Tried again and again while it is away: its cause said once. An attempt that came while the stopping
            // daemon still listened was closed too: the same cause, not said again (a loaded run of the suites).
            var away = await next.next()
            while case .lost(.closed, reason: nil)? = away { away = await next.next() }
            guard case .lost(.unreachable, let reason)? = away else {
                Issue.record("no attempt while it was away: \(String(describing: away))")
                return
            }
            #expect(reason?.hasPrefix("scand is not running") == true, "\(reason ?? "")")
            for _ in 0..<3 {
                guard case .lost(_, let again)? = await next.next() else {
                    Issue.record("no other attempt")
                    return
                }
                #expect(again == nil, "a daemon that stays away is one line")
            }
            let restarted = DaemonClientTests.localDaemon(path: daemon.path)
            try await restarted.start()
            var step = await next.next()
            while case .lost(_, nil)? = step { step = await next.next() }  // tried before it was back
            guard case .event(let banner)? = step else {
                Issue.record("\(String(describing: step))")
                return
            }
            #expect(banner.eventClass == .version)
            #expect(await next.next() == .subscribed(again: true, afterOutage: true))
            await restarted.stop()
        }
    }

    /// What the reader throws ends the loop, and the subscription with it: its connection is closed.
    @Test func whatTheReaderThrowsEndsTheSubscription() async throws {
        struct Enough: Error {}
        let daemon = DaemonClientTests.localDaemon()
        try await daemon.start()
        let subscription = EventSubscription(socketPath: daemon.path, watch: .init(enable: true), reconnect: true)
        await #expect(throws: Enough.self) {
            try await SubscriptionLoop.run(subscription) { step in
                if case .subscribed = step { throw Enough() }
            }
        }
        #expect(await Eventually.check { daemon.hub.counters.connected == 0 })
        #expect(daemon.hub.counters.totalConnections == 1)
        await daemon.stop()
    }
}

/// What a client says of its subscription's outages, decided without a daemon.
@Suite struct OutageReportTests {
    static let gone = DaemonError.unreachable("scand is not running: no socket at /run/scand/scand.sock", .notRunning)

    @Test func eachCauseOncePerOutageAndANewOutageSaysItAgain() {
        var report = OutageReport()
        #expect(report.subscribed() == .subscribed(again: false, afterOutage: false), "found at once: nothing to say")
        #expect(report.lost(.closed) == "scand closed the event subscription")
        #expect(report.lost(Self.gone) == Self.gone.description)
        #expect(report.lost(Self.gone) == nil)
        #expect(report.lost(.timeout(seconds: 5)) == "scand did not answer within 5 s", "another cause is news")
        #expect(report.subscribed() == .subscribed(again: true, afterOutage: true))
        #expect(report.subscribed() == .subscribed(again: true, afterOutage: false))
        #expect(report.lost(Self.gone) == Self.gone.description, "a new outage says its cause again")
    }

    /// A daemon stopping closes its listener, then removes its socket: attempts between see a socket that
    /// refuses, then none. That is one daemon not running, said once (CI: `linesInOrderEachOutagesCause…` saw
    /// it twice, in words that differed).
    @Test func aSocketLeftBehindThenGoneIsOneCause() {
        var report = OutageReport()
        let refused = DaemonError.unreachable("scand is not running: nothing listens on /run/scand/scand.sock", .notRunning)
        #expect(report.lost(refused) == refused.description)
        #expect(report.lost(Self.gone) == nil)
        #expect(report.lost(refused) == nil)
        let denied = DaemonError.unreachable("permission denied on /run/scand/scand.sock", .permissionDenied)
        #expect(report.lost(denied) == denied.description, "another cause is news")
    }

    @Test func aFirstSubscriptionAfterAnOutageIsNoSubscriptionAgain() {
        var report = OutageReport()
        _ = report.lost(Self.gone)
        #expect(report.subscribed() == .subscribed(again: false, afterOutage: true))
    }
}
