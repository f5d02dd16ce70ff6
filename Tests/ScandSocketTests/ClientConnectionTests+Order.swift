import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandSocket

extension ClientConnectionTests {
    /// Answers that come later, kept by the test and given when it says.
    final class LaterAnswers: Sendable {
        let statusAsked = NIOLockedValueBox(0)
        let snapshots = NIOLockedValueBox<[(wanted: @Sendable () -> Bool, answer: @Sendable (String) -> Void)]>([])

        func controls(_ hub: EventHub) -> DaemonControls {
            DaemonControls(
                status: { [statusAsked] in
                    statusAsked.withLockedValue { $0 += 1 }
                    return StatusReport(device: nil, counters: FrameCounters(), clients: ClientCounters(), stdoutDropped: 0)
                },
                metrics: { "" },
                snapshot: { [snapshots] wanted in
                    // Answered when the test says, or given up when the client's reading ends.
                    let (line, answer) = AsyncStream.makeStream(of: String.self)
                    let give: @Sendable (String) -> Void = { given in
                        answer.yield(given)
                        answer.finish()
                    }
                    snapshots.withLockedValue { $0.append((wanted, give)) }
                    for await given in line { return given }
                    return "given up"
                },
                regionOfInterest: { .full },
                setRegionOfInterest: { .regionOfInterest($0) })
        }

        var asked: Int { snapshots.withLockedValue { $0.count } }

        /// Answers the `i`th snapshot asked; nothing when fewer were asked (the test then fails on its count, rather
        /// than crash the test process with every suite in it, as it did under ThreadSanitizer on a busy machine).
        func answerSnapshot(_ i: Int, _ line: String) {
            snapshots.withLockedValue { $0.indices.contains(i) ? $0[i] : nil }?.answer(line)
        }
    }

    /// Issue 25, 1: answers that come later, and in another order, still go out in the order asked, and a
    /// request after them starts only once they are out (so that STATUS shows what they did).
    @Test func answersGoOutInTheOrderTheRequestsCameAndLaterRequestsStartAfterThem() async throws {
        let later = LaterAnswers()
        let server = try await Self.server(controls: later.controls)
        let (together, statusEarly, lines) = try await Self.client(server) { c in
            _ = c.readLine()
            c.send("?SNAPSHOT;\n?SNAPSHOT;\n?STATUS;\n?VERSION;\n")
            guard Eventually.wait(until: { later.asked == 2 }) else { return (false, 0, ["\(later.asked) snapshots asked"]) }
            later.answerSnapshot(1, "second")
            let statusEarly = later.statusAsked.withLockedValue { $0 }
            later.answerSnapshot(0, "first")
            return (true, statusEarly, [c.readLine(), c.readLine(), c.readLine(), c.readLine()].compactMap { $0 })
        }
        #expect(together, "snapshots wait together: \(lines)")
        #expect(statusEarly == 0, "STATUS waits for the answers before it")
        #expect(Array(lines.prefix(2)) == ["first", "second"])
        #expect(lines.count == 4 && lines[2].hasPrefix(#"{"class":"STATUS""#) && lines[3] == Self.banner, "\(lines)")
        #expect(later.statusAsked.withLockedValue { $0 } == 1)
        await server.stop()
    }

    /// Issue 25, 2: a connection has at most four snapshots waiting; more get an ERROR, in their place.
    @Test func aConnectionHasAtMostFourSnapshotsWaiting() async throws {
        let later = LaterAnswers()
        let server = try await Self.server(controls: later.controls)
        let lines = try await Self.client(server) { c in
            _ = c.readLine()
            c.send(String(repeating: "?SNAPSHOT;\n", count: 6) + "?VERSION;\n")
            guard Eventually.wait(until: { later.asked == 4 }) else { return ["\(later.asked) snapshots asked"] }
            for i in 0..<4 { later.answerSnapshot(i, "snapshot \(i)") }
            return (0..<7).compactMap { _ in c.readLine() }
        }
        let tooMany = Event.error("4 snapshots already wait for a frame on this connection; read their answers first").line
        #expect(lines == ["snapshot 0", "snapshot 1", "snapshot 2", "snapshot 3", tooMany, tooMany, Self.banner])
        #expect(later.asked == 4)
        #expect(await Eventually.check { later.snapshots.withLockedValue { $0.allSatisfy { !$0.wanted() } } }, "a closed client wants nothing more")
        await server.stop()
    }
}
