import ScandCore
import NIOConcurrencyHelpers

/// Frame counters of one capture session.
public struct CaptureCounters: Sendable, Equatable {
    /// Frames that came from the source.
    public var captured = 0
    /// Frames replaced by a newer one before the decoder took them.
    public var dropped = 0
    /// Frames the decoder took.
    public var taken = 0
    /// Compressed frames the decoder took that were corrupt or cut short, and skipped.
    public var corrupt = 0
    /// Compressed frames decoded whole to grey (a still scene's are not: `framesAsTheyCame`).
    public var decompressed = 0
    public init() {}
}

/// Hands the newest frame to the decoder through an `AsyncStream` that buffers one frame. While the decoder
/// is busy, each new frame replaces the one waiting, which is counted as dropped and let go at once, giving
/// its shared memory back to the decoder: the decoder always works on the latest picture, never a backlog.
/// Compressed (MJPEG) frames are decoded to grey as the consumer takes them, on its thread (or by the consumer,
/// once it has judged the frame worth it: `framesAsTheyCame`, `decompress`): a frame that is dropped is never
/// decoded, and one that does not decode is counted as corrupt and skipped.
public final class FrameHandOff: Sendable {
    private struct State {
        var counters = CaptureCounters()
        /// Frames in the stream that the consumer has not taken yet (0 or 1).
        var waiting = 0
        /// A lossless producer waiting for the consumer to take the frame before the next.
        var producer: CheckedContinuation<Void, Never>?
        var terminated = false
    }

    private let stream: AsyncStream<Frame>
    private let continuation: AsyncStream<Frame>.Continuation
    private let state = NIOLockedValueBox(State())
    /// Where decoded compressed frames go (the decoder's shared memory); nil: into arrays.
    private let decodedMemory = NIOLockedValueBox<FrameMemoryAllocator?>(nil)

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        // A consumer that goes away must not leave a lossless producer waiting for it.
        continuation.onTermination = { [weak self] _ in self?.terminated() }
    }

    public var counters: CaptureCounters { state.withLockedValue { $0.counters } }

    /// Offers `frame` to the decoder, replacing (and counting) one still waiting.
    public func put(_ frame: Frame) {
        let replaced: Frame? = state.withLockedValue { s in
            s.counters.captured += 1
            return yield(frame, &s)
        }
        // The replaced frame ends here, and with it its claim on the decoder's shared memory.
        _ = consume replaced
    }

    /// Yields under the lock, so that the consumer's count of what it took always follows this one; returns
    /// the frame it replaced.
    private func yield(_ frame: Frame, _ s: inout State) -> Frame? {
        switch continuation.yield(frame) {
        case .enqueued:
            s.waiting += 1
            return nil
        case .dropped(let old):
            s.counters.dropped += 1
            return old
        case .terminated:
            s.counters.dropped += 1
            return nil
        @unknown default:
            return nil
        }
    }

    /// Offers `frame` once the decoder has taken the one before: none dropped (replays whose every frame
    /// matters, such as golden tests).
    public func putWhenTaken(_ frame: Frame) async {
        await withCheckedContinuation { (producer: CheckedContinuation<Void, Never>) in
            state.withLockedValue { s in
                if s.waiting == 0 || s.terminated { producer.resume() } else { s.producer = producer }
            }
        }
        put(frame)
    }

    /// Decodes compressed frames into memory from `allocate` (the decoder's shared memory, which its
    /// processes read in place) rather than into arrays.
    public func decodeCompressed(into allocate: @escaping FrameMemoryAllocator) {
        decodedMemory.withLockedValue { $0 = allocate }
    }

    /// No more frames will come; the consumer drains what is waiting, then its loop ends.
    public func finish() {
        continuation.finish()
    }

    /// The frames, newest first-come, compressed ones decoded to grey: for one consumer.
    public var frames: Frames { Frames(handOff: self, base: stream.makeAsyncIterator()) }

    /// The frames as they came, compressed ones still compressed: for a consumer that decides whether a frame
    /// is worth decoding first (`decompress`), as the decode loop does for a still scene.
    public var framesAsTheyCame: Frames {
        var frames = frames
        frames.decodesCompressed = false
        return frames
    }

    /// A compressed frame from `framesAsTheyCame` as the grey frame the decoder reads, in the decoder's memory
    /// when set; nil, and counted corrupt, when it does not decode.
    public func decompress(_ frame: Frame, with decoder: MJPEGDecoder) -> Frame? {
        guard frame.format.isCompressed else { return frame }
        let grey = FrameDecompression.grey(of: frame, with: decoder, into: decodedMemory.withLockedValue { $0 })
        state.withLockedValue { s in
            if grey == nil { s.counters.corrupt += 1 } else { s.counters.decompressed += 1 }
        }
        return grey
    }

    public struct Frames: AsyncSequence, AsyncIteratorProtocol {
        let handOff: FrameHandOff
        var base: AsyncStream<Frame>.Iterator
        /// Made with the first compressed frame; lives as long as the consumer's loop.
        var jpeg: MJPEGDecoder?
        /// false: compressed frames are handed on as they came (`framesAsTheyCame`).
        var decodesCompressed = true

        public func makeAsyncIterator() -> Frames { self }

        public mutating func next() async -> Frame? {
            await next(isolation: nil)
        }

        /// The next frame, compressed ones decoded to grey here, in the consumer's isolation (its thread).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Frame? {
            while true {
                guard let frame = await base.next(isolation: actor) else { break }
                handOff.took()
                guard frame.format.isCompressed, decodesCompressed else { return frame }
                let decoder = jpeg ?? MJPEGDecoder()
                jpeg = decoder
                if let grey = handOff.decompress(frame, with: decoder) { return grey }
            }
            return nil
        }
    }

    private func took() {
        state.withLockedValue { s in
            s.counters.taken += 1
            s.waiting -= 1
            if s.waiting == 0, let producer = s.producer {
                s.producer = nil
                producer.resume()
            }
        }
    }

    private func terminated() {
        state.withLockedValue { s in
            s.terminated = true
            s.producer?.resume()
            s.producer = nil
        }
    }
}
