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
}
