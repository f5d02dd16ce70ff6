import Testing
@testable import ScandCore
@testable import ScandPipeline

/// Still scenes searched in vain rest when they come back as they were (`FruitlessScenes`).
@Suite struct FruitlessScenesTests {
    /// A 160x90 picture (an MJPEG frame's eighth): stripes of `period` px, as shelf edges or print.
    func scene(period: Int, level: Int = 0) -> SceneSignature {
        let pixels = (0..<(160 * 90)).map { i in UInt8(clamping: (i % 160 / period % 2 == 0 ? 60 : 190) + level) }
        return SceneSignature(grey: pixels, width: 160, height: 90)
    }

    @Test func aSceneSearchedInVainRestsForARestThatDoublesAndOnlyAsItWas() {
        var memory = FruitlessScenes()
        let clutter = scene(period: 7), other = scene(period: 20)
        #expect(!memory.rests(clutter, eighth: true, at: 0))
        memory.searchedInVain(clutter, eighth: true, at: 1_000_000)
        // Rests for 10 s, as it was (the sensor's noise moves no block far); not another scene, nor a frame judged
        // from another kind of picture.
        #expect(memory.rests(scene(period: 7, level: 1), eighth: true, at: 2_000_000))
        #expect(!memory.rests(other, eighth: true, at: 2_000_000))
        #expect(!memory.rests(clutter, eighth: false, at: 2_000_000))
        #expect(!memory.rests(clutter, eighth: true, at: 11_000_000))
        // Searched in vain again: 20 s, then 40 s, … at most 5 min.
        memory.searchedInVain(clutter, eighth: true, at: 11_000_000)
        #expect(memory.rests(clutter, eighth: true, at: 30_000_000) && !memory.rests(clutter, eighth: true, at: 31_000_000))
        for _ in 0..<10 { memory.searchedInVain(clutter, eighth: true, at: 31_000_000) }
        #expect(memory.entries.count == 1 && memory.entries[0].rest == FruitlessScenes.longestRest)
    }

    @Test func itRemembersAFewScenesAndTimesNearTheEndOfTheClockSaturate() {
        var memory = FruitlessScenes()
        for k in 0..<(FruitlessScenes.kept + 2) { memory.searchedInVain(scene(period: 3 + 4 * k), eighth: true, at: 0) }
        #expect(memory.entries.count == FruitlessScenes.kept)
        #expect(!memory.rests(scene(period: 3), eighth: true, at: 1), "the oldest is forgotten")
        // A camera's stamp near 2^64: the rest ends at the clock's end, no trap.
        var late = FruitlessScenes()
        late.searchedInVain(scene(period: 7), eighth: true, at: .max - 5)
        #expect(late.entries[0].until == .max)
    }
}
