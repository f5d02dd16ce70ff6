import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol
import Testing
import ScandTestSupport

@testable import ScandPipeline

/// Issue 25, 2: snapshots are made off the decode thread, once per frame for everyone waiting, and never
/// for clients that are gone.
@Suite struct SnapshotRequestsTests {
    static let frame = Frame.yuyv(LumaImage(width: 1280, height: 720, fill: 200), sequence: 7)

    static func waitFor(_ condition: () -> Bool) { Eventually.wait(seconds: 10, poll: .milliseconds(5), until: condition) }

    @Test func oneSnapshotPerFrameIsSharedByEveryoneWaiting() throws {
        var requests = SnapshotRequests()
        let lines = NIOLockedValueBox<[String]>([])
        for _ in 0..<500 { requests.add(isWanted: { true }) { line in lines.withLockedValue { $0.append(line) } } }
        requests.offer(Self.frame, transform: .identity)
        Self.waitFor { lines.withLockedValue { $0.count } == 500 }
        let all = lines.withLockedValue { $0 }
        #expect(all.count == 500 && Set(all).count == 1 && all[0].hasPrefix(#"{"class":"SNAPSHOT","frame":7,"width":640,"height":360"#))
        #expect(requests.made == 1)
    }

    @Test func clientsGoneGetNothingMade() throws {
        var requests = SnapshotRequests()
        let answered = NIOLockedValueBox(0)
        for _ in 0..<100 { requests.add(isWanted: { false }) { _ in answered.withLockedValue { $0 += 1 } } }
        requests.offer(Self.frame, transform: .identity)
        // The next offer is taken only once the first hand-over is done with.
        let wanted = NIOLockedValueBox(false)
        requests.add(isWanted: { true }) { _ in wanted.withLockedValue { $0 = true } }
        Self.waitFor {
            requests.offer(Self.frame, transform: .identity)
            return wanted.withLockedValue { $0 }
        }
        #expect(answered.withLockedValue { $0 } == 0 && requests.made == 1)
    }

    /// A request that waits when decoding ends (the pipeline stopped or was replaced) is told so, not left
    /// waiting for a frame that will never come; a client gone meanwhile gets nothing.
    @Test func requestsWaitingWhenDecodingEndsAreToldSo() {
        var requests = SnapshotRequests()
        let lines = NIOLockedValueBox<[String]>([])
        let gone = NIOLockedValueBox(0)
        for _ in 0..<3 { requests.add(isWanted: { true }) { line in lines.withLockedValue { $0.append(line) } } }
        requests.add(isWanted: { false }) { _ in gone.withLockedValue { $0 += 1 } }
        requests.giveUp(reason: "capture has stopped")
        #expect(lines.withLockedValue { $0 } == Array(repeating: Event.error("no frame to show: capture has stopped").line, count: 3))
        #expect(gone.withLockedValue { $0 } == 0 && !requests.isWaiting && requests.made == 0)
        // Nothing is left to answer twice.
        requests.giveUp(reason: "again")
        #expect(lines.withLockedValue { $0 }.count == 3)
    }
}
