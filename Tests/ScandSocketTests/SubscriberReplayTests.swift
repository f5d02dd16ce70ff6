import Foundation
import ScandCore
import ScandEventLog
import ScandJournal
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandSocket

/// A `since` replay on a real socket and journal, for a client that stops reading in the middle of it: the live
/// events that do not fit its outbox wait in the journal, and it gets every event once, in order, and the
/// answers it asked for, and is not dropped. Minutes under ThreadSanitizer, where its 2,000 journal commits alone
/// take more than half a minute.
@Suite(.timeLimit(.minutes(3))) struct SubscriberReplayTests {
    static func scan(_ i: Int) -> Event {
        let text = "ticket-\(i)-" + String(repeating: "x", count: 4000)
        let d = Detection(
            format: .qrCode, text: text, bytes: Array(text.utf8), corners: Quadrilateral([Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]))
        return .scan(TrackedCode(id: i, device: "d", time: Date(timeIntervalSince1970: 0), frame: 1, detection: d, frameWidth: 0, frameHeight: 0))
    }

    @Test func aReplayThatFallsBehindGetsEveryEventOnceAndInOrder() async throws {
        let events = EventLog(
            directory: ScandBinary.temporaryDirectory(), limits: EventJournal.Limits(maxEvents: 100_000, maxAge: 1e9), log: .scand(write: { _, _ in })
        )
        let before = 2000, during = 300
        // The client asks once the backlog is journaled: no idle timeout while it waits.
        let server = try await ClientConnectionTests.server(maxRequestBytes: 4096, queueLimit: 8, requestTimeout: .seconds(600)) { hub in
            hub.numbering(of: events)
            var controls = ClientConnectionTests.controls(hub)
            controls.events = events
            return controls
        }
        let hub = server.hub
        let (last, seqs, others) = try await ClientConnectionTests.client(server) { c in
            var last = 0
            func publish(_ i: Int) {
                for published in events.stamp(Self.scan(i)) {
                    hub.publish(published)
                    last = published.seq ?? last
                }
            }
            // 8 MB journaled before the client asks: batches of a replay that the socket's buffers and the channel's
            // cannot hold all at once.
            for i in 0..<before { publish(i) }
            _ = c.readLine()
            c.send(ClientRequest.watch(.init(enable: true, since: EventPosition(boot: events.boot, seq: 1))).line + "\n")
            // Not read while the replay fills the socket and more live events come than its outbox holds: they
            // are left to the journal, and the replay reads them there.
            Eventually.wait { hub.counters.watching == 1 }
            for i in before..<(before + during) { publish(i) }
            // A request meanwhile: its answer waits behind the replay's lines, not held against the client.
            c.send("?STATUS;\n")
            var seqs: [Int] = []
            var others: [String] = []
            while seqs.last != last, let line = c.readLine() {
                if let seq = ReceivedEvent(reading: line)?.position?.seq { seqs.append(seq) } else { others.append(String(line.prefix(300))) }
            }
            return (last, seqs, others)
        }
        #expect(last >= before + during)
        #expect(others.count == 2 && others[1].hasPrefix(#"{"class":"STATUS""#), "\(others.prefix(5))")
        #expect(
            seqs == Array(2...last), "\(seqs.count) events, the first out of place: \(zip(seqs, 2...).first { $0 != $1 }.map { "\($0)" } ?? "none")")
        #expect(hub.counters.droppedSlow == 0)
        await server.stop()
    }
}
