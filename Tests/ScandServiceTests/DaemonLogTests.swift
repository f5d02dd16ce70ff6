import Foundation
import NIOConcurrencyHelpers
import ScandCapture
import ScandCore
import ScandTestSupport
import Testing
import ScandPipeline

@testable import ScandService

/// The daemon's log lines while stderr blocks (a stalled journald): they wait off every event loop and the
/// cooperative pool, and go out before the daemon returns.
@Suite struct DaemonLogTests {
    @Test(.timeLimit(.minutes(1))) func aStderrThatBlocksHoldsUpNoEventAndLosesNoLine() async throws {
        let readAgain = NIOLockedValueBox(false)
        let lines = NIOLockedValueBox<[String]>([])
        let logged = NIOLockedValueBox<[String]>([])
        let stdout = OutputSink(
            event: { event in lines.withLockedValue { $0.append(event.line) } },
            log: { line, _ in
                // Blocks the thread that writes, as a write(2) to a stderr nobody reads would.
                Eventually.wait(seconds: 50) { readAgain.withLockedValue { $0 } }
                logged.withLockedValue { $0.append(line) }
            },
            line: { line in lines.withLockedValue { $0.append(line) } })
        let frame = Frame.yuyv(LumaImage(width: 16, height: 16, fill: 128), sequence: 0)
        let playlist = SyntheticSource.Playlist(name: "blank", frames: [frame], framesPerSecond: 100)
        let config = ScandConfig()
        let daemon = Daemon(
            config: config, reload: { config }, listener: nil, pipelines: PipelineBuilder(source: .synthetic(playlist), frameLimit: 5))
        let run = Task { try await daemon.run(stdout: stdout) }
        // The whole run, to its STATS, while the first log line is still being written.
        let stats = await Eventually.check(seconds: 30) { lines.withLockedValue { $0.contains { $0.contains(#""class":"STATS""#) } } }
        #expect(stats, "\(lines.withLockedValue { $0 })")
        #expect(logged.withLockedValue { $0.isEmpty })
        readAgain.withLockedValue { $0 = true }
        _ = try await run.value
        #expect(logged.withLockedValue { $0.first?.hasPrefix("no state directory") == true }, "\(logged.withLockedValue { $0 })")
    }
}
