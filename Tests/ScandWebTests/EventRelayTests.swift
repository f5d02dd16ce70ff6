import Foundation
import Hummingbird
import Logging
import NIOCore
import ScandClient
import ScandProtocol
import ScandTestSupport
import NIOConcurrencyHelpers
import Testing

@testable import ScandWeb

/// The setup page's event stream against a live server: the daemon's events reach the page through one
/// shared subscription, which comes back by itself when the daemon restarts.
@Suite struct EventRelayTests {
    static let scan =
        #"{"class":"SCAN","id":1,"frame":3,"format":"QRCode","text":"hello","normalized":[[0.7,0.4],[0.8,0.4],[0.8,0.6],[0.7,0.6]],"value":{"type":"text"}}"#
    static let update = #"{"class":"UPDATE","id":1,"frame":9,"format":"QRCode","normalized":[[0.71,0.4],[0.81,0.4],[0.81,0.6],[0.71,0.6]]}"#
    /// What app.js opens.
    static let page = "/events?classes=SCAN,UPDATE,LOST,DEVICE&view=1"

    @Test(.timeLimit(.minutes(1))) func eventsReachEveryPageAndTheSubscriptionSurvivesADaemonRestart() async throws {
        let path = Contract.temporarySocket()
        let daemon = try FakeDaemon(path: path, answer: Contract.answer)
        let hub = PageHub(), metrics = WebMetrics(), logger = Logger(label: "test")
        let client = DaemonClient(socketPath: path)
        let router = WebApp.router(daemon: client, hub: hub, metrics: metrics)
        var app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        app.addServices(client, EventRelay(socketPath: path, hub: hub, metrics: metrics, logger: logger))
        try await app.serving { client in
            #expect(await Eventually.check { daemon.watcherCount == 1 })
            // One WATCH, or the same again if a loaded machine let the first one time out: one at a time.
            // First a STATUS: a daemon without a journal (this one) is subscribed to live.
            let requests = try daemon.requests.map { try ClientRequest.parse($0) }.filter { $0 != .status }
            #expect(daemon.requests.first == ClientRequest.status.line, "\(daemon.requests)")
            #expect(!requests.isEmpty && requests.allSatisfy { $0 == .watch(EventRelay.watch) }, "\(requests)")
            // Two pages, one subscription; nothing to view yet, so no VIEW.
            async let second: [StreamedEvent] = Self.receive(client, count: 2)
            try await client.events(Self.page) { inbound in
                #expect(await Eventually.check { await hub.subscriberCount == 2 })
                daemon.push(Self.scan)
                daemon.push(Self.update)
                var events = inbound.makeAsyncIterator()
                let first = try await events.next(), second = try await events.next()
                #expect(first == StreamedEvent(type: "SCAN", data: Self.scan))
                #expect(second == StreamedEvent(type: "UPDATE", data: Self.update))
            }
            #expect(try await second.map(\.data) == [Self.scan, Self.update])
            #expect(daemon.watcherCount == 1)
            #expect(WebRoutesTests.sample(metrics.text(), "scand_web_event_subscription_up") == 1)

            // The daemon restarts: the relay connects again by itself, and events flow again.
            daemon.stop()
            #expect(await Eventually.check { WebRoutesTests.sample(metrics.text(), "scand_web_event_subscription_up") == 0 })
            let restarted = try FakeDaemon(path: path, answer: Contract.answer)
            defer { restarted.stop() }
            #expect(await Eventually.check { restarted.watcherCount == 1 })
            try await client.events(Self.page) { inbound in
                #expect(await Eventually.check { await hub.subscriberCount == 1 })
                restarted.push(Self.scan)
                var events = inbound.makeAsyncIterator()
                // A page opened later is told first what was scanned; nothing is known to be in view after
                // the daemon was away.
                let view = try await events.next(), first = try await events.next()
                #expect(view == StreamedEvent(type: "VIEW", data: #"{"class":"VIEW","scans":["# + Self.scan + #"],"inView":[]}"#))
                #expect(first == StreamedEvent(type: "SCAN", data: Self.scan))
            }
            #expect(WebRoutesTests.sample(metrics.text(), "scand_web_daemon_reconnects_total") ?? 0 >= 1, "\(metrics.text())")
        }
    }

    /// The first `count` events a page receives.
    static func receive(_ client: WebTestClient, count: Int) async throws -> [StreamedEvent] {
        let received = NIOLockedValueBox<[StreamedEvent]>([])
        try await client.events(page) { inbound in
            for try await event in inbound {
                received.withLockedValue { $0.append(event) }
                if received.withLockedValue({ $0.count }) == count { break }
            }
        }
        return received.withLockedValue { $0 }
    }
}
