import NIOConcurrencyHelpers
import NIOPosix
import ScandCore
import ScandProtocol
import ScandImageIO

/// Clients waiting for a SNAPSHOT. The decode loop offers each frame it takes; while someone waits and no
/// snapshot is being made, the frame is handed to NIO's thread pool, which shrinks, turns and encodes it
/// (JPEG, base64, the JSON line) once for everyone waiting. The decode loop only hands over a reference:
/// a flood of requests costs it nothing, and clients gone meanwhile get nothing made for them.
final class SnapshotRequests: Sendable {
    /// The long side of a snapshot: enough to aim a camera, small enough to ask for 5 times a second.
    static let maxSide = 640
    /// How long a request waits for a frame before it is told there is none.
    static let patience = Duration.seconds(2)

    private struct Waiter {
        var since: ContinuousClock.Instant
        var isWanted: @Sendable () -> Bool
        var answer: @Sendable (String) -> Void
    }
    private struct State {
        var waiting: [Waiter] = []
        /// A frame is being made into a snapshot: the next one is taken after it.
        var making = false
        /// Snapshots made (each shared by all who waited for it).
        var made = 0
    }
    private let state = NIOLockedValueBox(State())

    func add(isWanted: @escaping @Sendable () -> Bool, answer: @escaping @Sendable (String) -> Void) {
        state.withLockedValue { $0.waiting.append(Waiter(since: .now, isWanted: isWanted, answer: answer)) }
    }

    /// Snapshots made so far.
    var made: Int { state.withLockedValue { $0.made } }

    /// Someone waits for a snapshot of the next frame (which must then be decoded, still scene or not).
    var isWaiting: Bool { state.withLockedValue { !$0.making && !$0.waiting.isEmpty } }

    /// Hands `frame` over to be made into a snapshot for everyone waiting, if anyone still wants one and no
    /// snapshot is being made; the caller (the decode loop) goes on at once.
    /// `inView`: the ids of the scanned codes read in the newest frame decoded (`Snapshot.inView`).
    func offer(_ frame: Frame, transform: FrameTransform, inView: [Int]? = nil) {
        let waiters: [Waiter]? = state.withLockedValue { s in
            guard !s.making, !s.waiting.isEmpty else { return nil }
            let taken = s.waiting
            s.waiting.removeAll()
            s.making = true
            return taken
        }
        guard let waiters else { return }
        NIOThreadPool.singleton.submit { [self] _ in
            let wanted = waiters.filter { $0.isWanted() }
            if !wanted.isEmpty {
                let line = Self.snapshot(of: frame, transform: transform, inView: inView).line
                // Counted before anyone is answered: an answered client may ask how many were made.
                state.withLockedValue { $0.made += 1 }
                for w in wanted { w.answer(line) }
            }
            state.withLockedValue { $0.making = false }
        }
    }

    /// `frame` shrunk and turned as the decoder sees it, as a SNAPSHOT (or why there is none).
    static func snapshot(of frame: Frame, transform: FrameTransform, inView: [Int]? = nil) -> Event {
        guard let small = frame.thumbnail(maxSide: maxSide) else {
            return .error("no frame to show: the camera's \(frame.format.fourcc) frames have no luma scand reads")
        }
        let oriented = small.oriented(by: transform)
        let source = transform.orientedSize(width: frame.format.width, height: frame.format.height)
        return .snapshot(
            Snapshot(
                frame: frame.sequence, width: oriented.width, height: oriented.height, sourceWidth: source.width,
                sourceHeight: source.height, mimeType: "image/jpeg", data: JPEGEncoder.encode(oriented, quality: 70), inView: inView))
    }

    /// Tells requests that waited longer than `patience` for a frame why there is none.
    func expire(reason: @autoclosure () -> String) {
        let now = ContinuousClock.now
        let late = state.withLockedValue { s in
            let late = s.waiting.filter { now - $0.since >= Self.patience }
            s.waiting.removeAll { now - $0.since >= Self.patience }
            return late
        }.filter { $0.isWanted() }
        guard !late.isEmpty else { return }
        let line = Event.error("no frame to show: \(reason())").line
        for w in late { w.answer(line) }
    }
}
