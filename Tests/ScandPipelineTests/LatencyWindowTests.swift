import Testing
@testable import ScandPipeline

@Suite struct LatencyWindowTests {
    /// The percentiles of the window kept sorted are those of the last 1,024 latencies sorted afresh, through
    /// the window's filling and several turns of it, with repeated values among them.
    @Test func percentilesAreThoseOfTheLastLatenciesSorted() {
        var window = LatencyWindow()
        var recorded: [Double] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        #expect(window.percentiles([0.5]) == [nil])
        for i in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Whole and fractional milliseconds, often the same value twice.
            let latency = i % 3 == 0 ? Double(state >> 60) : Double(state >> 40) / 1_000_000
            window.record(latency)
            recorded.append(latency)
            let last = recorded.suffix(LatencyWindow.size).sorted()
            let expected = [0.0, 0.5, 0.99, 1.0].map { p in last[min(last.count - 1, Int(Double(last.count) * p))] }
            #expect(window.percentiles([0.0, 0.5, 0.99, 1.0]) == expected, "after \(i + 1) latencies")
            if window.percentiles([0.0, 0.5, 0.99, 1.0]) != expected { break }
        }
    }
}
