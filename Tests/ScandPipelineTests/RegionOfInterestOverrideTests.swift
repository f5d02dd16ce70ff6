import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandLogging
import ScandTestSupport
import Testing

@testable import ScandPipeline

/// Issue 48, 7: a rect 0.00004 wide, kept by an older scand, was used at every start and reported with width
/// 0, which `scand roi` could not read back. Kept now, it is refused with one line and the configuration's
/// rect is used.
@Suite struct RegionOfInterestOverrideTests {
    @Test func aKeptRectThinnerThanTheWireKeepsIsRefusedWithOneLine() async throws {
        let dir = ScandBinary.temporaryDirectory()
        try "0,0,0.00004,0.5\n".write(toFile: RegionOfInterestOverride.path(in: dir), atomically: true, encoding: .utf8)
        let logged = NIOLockedValueBox<[String]>([])
        let kept = RegionOfInterestOverride(directory: dir, log: .scand(write: { line, _ in logged.withLockedValue { $0.append(line) } }))
        let lines = logged.withLockedValue { $0 }
        #expect(lines.count == 1 && lines[0].contains("width and height must be at least 0.0001"), "\(lines)")
        #expect(await kept.applied(to: ScandConfig()).regionOfInterest == ScandConfig().regionOfInterest)
    }

    /// Issue 47, 1: with the override an actor, a change still waits for the one asked before it to be kept and
    /// applied; the last one asked is what is in use and on disk.
    @Test func aChangeWaitsUntilTheOneAskedBeforeItIsKeptAndApplied() async throws {
        let dir = ScandBinary.temporaryDirectory()
        let override = RegionOfInterestOverride(directory: dir, log: .scand(write: { _, _ in }))
        let first = try NormalizedRect.parse("0,0,0.5,0.5"), second = try NormalizedRect.parse("0.5,0.5,0.5,0.5")
        let steps = NIOLockedValueBox<[String]>([])
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        async let one = override.set(first) { rect in
            steps.withLockedValue { $0.append("apply \(rect)") }
            for await _ in release { break }
            steps.withLockedValue { $0.append("applied \(rect)") }
        }
        #expect(await Eventually.check { steps.withLockedValue { $0 } == ["apply \(first)"] })
        async let two = override.set(second) { rect in steps.withLockedValue { $0 += ["apply \(rect)", "applied \(rect)"] } }
        try await Task.sleep(for: .milliseconds(200))
        #expect(steps.withLockedValue { $0 } == ["apply \(first)"], "the second waits for the first")
        releasing.yield()
        releasing.finish()
        let (failedOne, failedTwo) = await (one, two)
        #expect(failedOne == nil && failedTwo == nil)
        #expect(steps.withLockedValue { $0 } == ["apply \(first)", "applied \(first)", "apply \(second)", "applied \(second)"])
        #expect(await override.applied(to: ScandConfig()).regionOfInterest == second)
        #expect(try String(contentsOfFile: RegionOfInterestOverride.path(in: dir), encoding: .utf8) == "\(second)\n")
    }
}
