/// A seeded xorshift64 generator: the bench draws the same frames every run.
package struct Xorshift {
    var state: UInt64
    package init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9 : seed }
    package mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
