import Testing
@testable import ScandCore
@testable import ScandDecoding

/// The expensive passes' schedule (`ExtraPassSchedule`) on its own: what share of frames they cost.
@Suite struct ExtraPassScheduleTests {
    let region = PixelRect(x: 0, y: 0, width: 1280, height: 720)

    /// Runs `frames` frames of a moving scene; `wake(i)` says whether frame i shows a new code-like patch,
    /// `found(i)` whether its expensive pass finds a code. The frames that had one.
    func run(
        _ schedule: inout ExtraPassSchedule, frames: Range<Int>, wake: (Int) -> Bool, found: (Int) -> Bool = { _ in false }
    ) -> [Int] {
        var with: [Int] = []
        for i in frames {
            if wake(i) { schedule.wake() }
            let (_, kinds) = schedule.next(region: region, formats: .all, hasCandidates: true, budget: .infinity)
            schedule.outcome(of: kinds, foundNew: found(i))
            if !kinds.isEmpty { with.append(i) }
        }
        return with
    }

    /// A cluttered counter panned past: every frame shows a new patch that looks like a code and none reads.
    /// The wakes are heeded less and less often (a rest that doubles to `maxWakeRest`), so the expensive passes
    /// settle at a round per rest and a kind every `maxGap` frames, not a pass every frame.
    @Test func aSurfaceThatKeepsWakingThePassesCostsABoundedShare() {
        var schedule = ExtraPassSchedule()
        _ = run(&schedule, frames: 0..<320, wake: { _ in true })
        #expect(schedule.wakeRest == ExtraPassSchedule.maxWakeRest)
        let late = run(&schedule, frames: 320..<960, wake: { _ in true })
        let round = ExtraPassSchedule.Kind.allCases.count
        let bound = 640.0 * (Double(round) / Double(ExtraPassSchedule.maxWakeRest) + 1 / Double(ExtraPassSchedule.maxGap)) + 2
        #expect(Double(late.count) <= bound, "\(late.count) frames of 640 had an expensive pass")
    }

    /// A find heeds the next wake at once: a code shown among the clutter after the passes found one is looked for
    /// by every kind in the frames that follow.
    @Test func aFindHeedsTheNextWakeAtOnce() {
        var schedule = ExtraPassSchedule()
        _ = run(&schedule, frames: 0..<320, wake: { _ in true })
        // Resting from wakes: one right after a heeded one is not heeded.
        let rested = run(&schedule, frames: 320..<400, wake: { _ in false })
        #expect(rested.count < 20, "\(rested)")
        // An expensive pass finds a code; then the passes find nothing for a while and back off, with no wake.
        _ = run(&schedule, frames: 400..<401, wake: { _ in true }, found: { _ in true })
        #expect(schedule.wakeRest == 0)
        let quiet = run(&schedule, frames: 401..<600, wake: { _ in false })
        #expect(quiet.suffix(3).count == 3 && zip(quiet.suffix(3), quiet.suffix(2)).allSatisfy { $1 - $0 == ExtraPassSchedule.maxGap })
        // A new patch now: every kind takes its turn in the frames that follow.
        let after = run(&schedule, frames: 600..<605, wake: { $0 == 600 })
        #expect(after == Array(600..<605), "\(after)")
    }
}
