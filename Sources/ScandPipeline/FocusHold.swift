/// The sharpness STATUS reports: the highest of the last second's figures, not the newest alone. A person
/// turning the focus ring reads a figure that holds still; the newest one jumped to 0 and back whenever a
/// frame between two sharp ones showed nothing with edges (a hand passing, a frame of motion blur).
struct FocusHold: Sendable, Equatable {
    /// How long a figure counts, in frame-time microseconds.
    static let window: UInt64 = 1_000_000

    private var samples: [(time: UInt64, value: Double)] = []

    static func == (a: FocusHold, b: FocusHold) -> Bool { a.samples.map(\.value) == b.samples.map(\.value) }

    /// A figure taken at `time`; nil (no luma, a rect too small) forgets the earlier ones: there is nothing
    /// to focus by now.
    mutating func take(_ value: Double?, at time: UInt64) {
        guard let value else { return samples.removeAll() }
        // A clock that went back (a replay looping) starts afresh.
        if let last = samples.last, time < last.time { samples.removeAll() }
        samples.removeAll { time - $0.time > Self.window }
        samples.append((time, value))
    }

    var value: Double? { samples.map(\.value).max() }
}
