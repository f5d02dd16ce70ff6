import NIOConcurrencyHelpers
import ScandCore
import ScandProtocol
import ScandImageIO

/// Clients waiting for a SNAPSHOT. They are answered from the next frame the decode loop takes, on its
/// thread: a preview costs one thumbnail and one JPEG per request, and nothing while nobody asks.
final class SnapshotRequests: Sendable {
    /// The long side of a snapshot: enough to aim a camera, small enough to ask for 5 times a second.
    static let maxSide = 640
    /// How long a request waits for a frame before it is told there is none.
    static let patience = Duration.seconds(2)

    private struct Waiter {
        var since: ContinuousClock.Instant
        var answer: @Sendable (Event) -> Void
    }
    private let waiting = NIOLockedValueBox<[Waiter]>([])

    func add(_ answer: @escaping @Sendable (Event) -> Void) {
        waiting.withLockedValue { $0.append(Waiter(since: .now, answer: answer)) }
    }

    /// Answers everyone waiting with `frame`, shrunk and turned as the decoder sees it.
    func answer(with frame: Frame, transform: FrameTransform) {
        let waiters = waiting.withLockedValue { w in
            defer { w.removeAll() }; return w
        }
        guard !waiters.isEmpty else { return }
        let event: Event
        if let small = frame.thumbnail(maxSide: Self.maxSide) {
            let oriented = small.oriented(by: transform)
            let source = transform.orientedSize(width: frame.format.width, height: frame.format.height)
            event = .snapshot(
                Snapshot(
                    frame: frame.sequence, width: oriented.width, height: oriented.height, sourceWidth: source.width,
                    sourceHeight: source.height, mimeType: "image/jpeg", data: JPEGEncoder.encode(oriented, quality: 70)))
        } else {
            event = .error("no frame to show: the camera's \(frame.format.fourcc) frames have no luma scand reads")
        }
        for w in waiters { w.answer(event) }
    }

    /// Tells requests that waited longer than `patience` for a frame why there is none.
    func expire(reason: @autoclosure () -> String) {
        let now = ContinuousClock.now
        let late = waiting.withLockedValue { w in
            let late = w.filter { now - $0.since >= Self.patience }
            w.removeAll { now - $0.since >= Self.patience }
            return late
        }
        guard !late.isEmpty else { return }
        let event = Event.error("no frame to show: \(reason())")
        for w in late { w.answer(event) }
    }
}
