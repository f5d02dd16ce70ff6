import Foundation
import Testing
import ScandSocketBench
import ScandTestSupport
@testable import ScandBench

/// `scand bench socket` measures the real daemon from outside: run small against the scand built beside the
/// tests, every reading client gets every event, in order, and a client that never reads does not stop them.
/// No speed is checked here: that is the bench's to report.
@Suite struct SocketBenchTests {
    @Test func everyClientGetsEveryEventInOrder() throws {
        let dir = ScandBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = try FanOutScene.make(synthesizer: ScandBinary.path, directory: dir)
        let run = FanOutRun(scand: ScandBinary.path, scene: scene, subscribers: 3, slowClient: true, frames: 40, framesPerSecond: 100)
        let r = try run.run()
        #expect(r.exitStatus == 0)
        #expect(r.events >= FanOutScene.codes, "the SCANs at least: \(r)")
        #expect(r.delivered == [r.events, r.events, r.events], "\(r)")
        #expect(r.complete == 3 && r.allComplete, "\(r)")
        #expect(r.cpuSeconds >= 0 && r.peakRSSKilobytes > 0, "\(r)")
        #expect(r.slowDropped != nil)
    }

    @Test func theClientCountsAreParsed() throws {
        #expect(
            try SocketBench.parseClients("1,16,64+slow") == [
                .init(subscribers: 1, slow: false), .init(subscribers: 16, slow: false), .init(subscribers: 64, slow: true)
            ])
        #expect(throws: (any Error).self) { try SocketBench.parseClients("0") }
        #expect(throws: (any Error).self) { try SocketBench.parseClients("4+fast") }
    }
}
