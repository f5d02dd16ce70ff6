import NIOPosix
import ScandCore
import ScandProtocol
import ScandImageIO
import Synchronization

/// Clients waiting for a SNAPSHOT: state of the decode loop, which offers each frame it takes and adds the
/// requests (`DecodeLoop.waitForSnapshot`). While someone waits and no snapshot is being made, the frame is
/// handed to NIO's thread pool, which shrinks, turns and encodes it (JPEG, base64, the JSON line) once for
/// everyone waiting. The decode loop only hands over a reference: a flood of requests costs it nothing, and
/// clients gone meanwhile get nothing made for them.
struct SnapshotRequests {
    /// The long side of a snapshot: enough to aim a camera, small enough to ask for 5 times a second.
    static let maxSide = 640
    /// How long a request waits for a frame before it is told there is none.
    static let patience = Duration.seconds(2)

    struct Waiter: Sendable {
        var since: ContinuousClock.Instant
        var isWanted: @Sendable () -> Bool
        var answer: @Sendable (String) -> Void
    }
    private var waiting: [Waiter] = []
    /// The snapshot being made on the thread pool, which says when it is done.
    private let making = SnapshotsMade()

    mutating func add(isWanted: @escaping @Sendable () -> Bool, answer: @escaping @Sendable (String) -> Void) {
        waiting.append(Waiter(since: .now, isWanted: isWanted, answer: answer))
    }

    /// Snapshots made so far.
    var made: Int { making.made.load(ordering: .acquiring) }

    /// Someone waits for a snapshot of the next frame (which must then be decoded, still scene or not).
    var isWaiting: Bool { !waiting.isEmpty && !making.busy.load(ordering: .acquiring) }

    /// Hands `frame` over to be made into a snapshot for everyone waiting, if anyone still wants one and no
    /// snapshot is being made; the caller (the decode loop) goes on at once.
    /// `inView`: the ids of the scanned codes read in the newest frame decoded (`Snapshot.inView`).
    mutating func offer(_ frame: Frame, transform: FrameTransform, inView: [Int]? = nil) {
        guard isWaiting else { return }
        let waiters = waiting
        waiting.removeAll()
        let making = self.making
        making.busy.store(true, ordering: .relaxed)
        NIOThreadPool.singleton.submit { _ in
            let wanted = waiters.filter { $0.isWanted() }
            if !wanted.isEmpty {
                let line = Self.snapshot(of: frame, transform: transform, inView: inView).line
                // Counted before anyone is answered: an answered client may ask how many were made.
                making.made.add(1, ordering: .releasing)
                for w in wanted { w.answer(line) }
            }
            making.busy.store(false, ordering: .releasing)
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

    /// The ERROR line a request gets when no frame will be shown to it, saying why.
    static func refusal(_ reason: String) -> String { Event.error("no frame to show: \(reason)").line }

    /// Answers everyone still waiting with an ERROR saying why no frame will come (the decode loop ended: its
    /// pipeline stopped or was replaced), so that no request waits for ever.
    mutating func giveUp(reason: String) { answer(where: { _ in true }, reason: reason) }

    /// Tells requests that waited longer than `patience` for a frame why there is none.
    mutating func expire(reason: @autoclosure () -> String) {
        let now = ContinuousClock.now
        answer(where: { now - $0.since >= Self.patience }, reason: reason())
    }

    /// Takes the requests `leaving` selects out of the queue and tells those still wanted `reason` (made only
    /// when someone is told).
    private mutating func answer(where leaving: (Waiter) -> Bool, reason: @autoclosure () -> String) {
        let told = waiting.filter(leaving).filter { $0.isWanted() }
        waiting.removeAll(where: leaving)
        guard !told.isEmpty else { return }
        let line = Self.refusal(reason())
        for w in told { w.answer(line) }
    }
}

/// Whether a snapshot is being made on the thread pool, and how many were: set by the decode loop as it hands
/// a frame over, cleared by the pool once done; read by the decode loop at every frame while someone waits.
final class SnapshotsMade: Sendable {
    let busy = Atomic<Bool>(false)
    let made = Atomic<Int>(0)
}
