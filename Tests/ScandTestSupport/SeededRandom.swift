/// SplitMix64: a tiny seeded generator, so that every fuzz run (of the payload parsers, of the image decoder)
/// sees the same inputs and a failure reproduces.
public struct SeededRandom: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (n > 0); the modulo bias is irrelevant here.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
