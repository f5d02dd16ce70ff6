import Foundation
import Testing

@testable import ScandBench

/// `scand bench till`'s sessions: what their numbers are quoted with, and the seeds they are asked for.
@Suite struct TillSessionsTests {
    /// Misreads per 1,000 are quoted with their exact 95% upper bound: about 3/n for none in n.
    @Test func theUpperBoundIsClopperPearsons() {
        #expect(abs(TillSessions.upperBound(0, 2000) - (1 - pow(0.025, 1.0 / 2000))) < 1e-6)
        #expect(abs(TillSessions.upperBound(1, 100) - 0.0545) < 0.001)
        #expect(TillSessions.upperBound(5, 5) == 1)
        #expect((try? TillSessions.parse("1-20")) == 1...20 && (try? TillSessions.parse("7")) == 7...7)
        #expect((try? TillSessions.parse("20-1")) == nil && (try? TillSessions.parse("x")) == nil && (try? TillSessions.parse("1-5000")) == nil)
    }

    /// A session whose recording went away under the bench (a temporary directory cleaned meanwhile) once scored
    /// 0 of 100 once, as if nothing were read; it is an error, with the pipeline's reason.
    @Test func aSessionThatCannotBeReplayedIsAnErrorNotAnEmptyScore() async {
        let path = NSTemporaryDirectory() + "scand-till-gone-\(getpid()).rec"
        await #expect {
            _ = try await TillBench.replay(path, pace: .lockstep)
        } throws: { error in
            "\(error)".contains("the replay of \(path) gave no frame: ") && !"\(error)".contains("nothing said why")
        }
    }
}
