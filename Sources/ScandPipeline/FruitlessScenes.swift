import ScandCore

/// Still scenes searched in vain: a cluttered counter's shelf edges, print and grilles look like codes and
/// never read, and each time the scene comes to rest the decode loop would search it for
/// `DecodeLoop.unreadPatience` frames again (half a core for 3 s). A scene that was searched to the end with
/// nothing read is remembered by what it looks like (its `SceneSignature`, the place and look of every patch
/// in it) and is not searched again while it rests as it was, for a rest that doubles with each search in vain
/// (10 s, 20 s, … 5 min). One that differs (a code put down among the clutter, the clutter moved) is searched at
/// once. Times are the frames' own (µs); nothing here reads a clock.
struct FruitlessScenes: Sendable {
    struct Entry: Sendable {
        var scene: SceneSignature
        /// Of an MJPEG frame's eighth-size picture (`DecodeLoop.lastSceneOfEighth`): compared only with such.
        var eighth: Bool
        var until: UInt64
        var rest: UInt64
    }

    private(set) var entries: [Entry] = []
    static let firstRest: UInt64 = 10_000_000
    static let longestRest: UInt64 = 300_000_000
    /// Scenes remembered: a till's camera sees a few counters (lights on or off, a mat moved), not dozens.
    static let kept = 8

    /// Whether `scene` was searched in vain and still rests at `now`.
    func rests(_ scene: SceneSignature, eighth: Bool, at now: UInt64) -> Bool {
        entries.contains { $0.eighth == eighth && now < $0.until && scene.isStatic(comparedTo: $0.scene) }
    }

    /// A search of `scene` ended at `now` with nothing read.
    mutating func searchedInVain(_ scene: SceneSignature, eighth: Bool, at now: UInt64) {
        if let i = entries.firstIndex(where: { $0.eighth == eighth && scene.isStatic(comparedTo: $0.scene) }) {
            var e = entries.remove(at: i)
            e.rest = min(Self.longestRest, e.rest * 2)
            (e.scene, e.until) = (scene, Self.adding(now, e.rest))
            entries.append(e)
        } else {
            entries.append(Entry(scene: scene, eighth: eighth, until: Self.adding(now, Self.firstRest), rest: Self.firstRest))
            if entries.count > Self.kept { entries.removeFirst() }
        }
    }

    /// A camera's time stamp plus a rest, saturating: stamps come from the driver or a recording.
    static func adding(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
