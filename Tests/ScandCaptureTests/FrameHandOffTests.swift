import Foundation
import Testing
import ScandCore
import NIOConcurrencyHelpers
@testable import ScandCapture

@Suite struct FrameHandOffTests {
    func frame(_ n: UInt64, memory: (any FrameMemory)? = nil) -> Frame {
        let format = FrameFormat.packed(.grey, width: 1, height: 1)
        let storage: Frame.Storage = memory.map { .shared($0) } ?? .array([UInt8(truncatingIfNeeded: n)])
        return Frame(format: format, storage: storage, sequence: n, timestampMicroseconds: n)
    }

    /// Shared memory as the decoder hands it out: a fixed number of buffers, each back in the pool when the
    /// last frame that holds it goes.
    final class BufferPool: Sendable {
        /// Sendable by hand: raw memory, as the decoder's shared memory written once by the capture, then only read.
        final class Buffer: FrameMemory, @unchecked Sendable {
            let pool: BufferPool
            let bytes: UnsafeMutableRawBufferPointer
            init(pool: BufferPool, count: Int) {
                self.pool = pool
                bytes = .allocate(byteCount: count, alignment: 16)
            }
            deinit {
                bytes.deallocate()
                pool.free.withLockedValue { $0 += 1 }
            }
        }
        let free: NIOLockedValueBox<Int>
        init(buffers: Int) { free = NIOLockedValueBox(buffers) }
        var available: Int { free.withLockedValue { $0 } }
        func allocate(_ count: Int = 1) -> Buffer? {
            free.withLockedValue { n -> Bool in
                guard n > 0 else { return false }
                n -= 1
                return true
            } ? Buffer(pool: self, count: count) : nil
        }
    }

    @Test func aBusyDecoderGetsTheNewestFrameAndTheRestAreCounted() async {
        let handOff = FrameHandOff()
        var frames = handOff.frames
        for n in 0..<5 { handOff.put(frame(UInt64(n))) }
        #expect(await frames.next()?.sequence == 4)
        handOff.put(frame(5))
        #expect(await frames.next()?.sequence == 5)
        #expect(
            handOff.counters
                == {
                    var c = CaptureCounters(); c.captured = 6; c.dropped = 4; c.taken = 2; return c
                }())
    }

    @Test func finishingDrainsThenEnds() async {
        let handOff = FrameHandOff()
        var frames = handOff.frames
        handOff.put(frame(1))
        handOff.finish()
        #expect(await frames.next()?.sequence == 1)
        #expect(await frames.next() == nil)
    }

    @Test func aWaitingDecoderGetsTheNextFrame() async {
        let handOff = FrameHandOff()
        let taker = Task {
            var frames = handOff.frames
            return await frames.next()?.sequence
        }
        handOff.put(frame(7))
        #expect(await taker.value == 7)
        #expect(handOff.counters.dropped == 0)
    }

    @Test func aDroppedFrameGivesItsSharedMemoryBackAtOnce() async throws {
        let pool = BufferPool(buffers: 3)
        let handOff = FrameHandOff()
        var frames = handOff.frames
        // Three buffers are enough for a camera of any speed: the one the decoder holds, the one waiting
        // and the one being captured into.
        handOff.put(frame(0, memory: pool.allocate()))
        var inHand = try #require(await frames.next())
        for n in 1...50 {
            let memory = try #require(pool.allocate(), "frame \(n): every replaced frame's buffer is back in the pool")
            handOff.put(frame(UInt64(n), memory: memory))
            #expect(pool.available == 1)
        }
        #expect(handOff.counters.dropped == 49)
        inHand = try #require(await frames.next())
        #expect(inHand.sequence == 50)
        #expect(pool.available == 2, "the first frame's buffer went with it")
        handOff.finish()
        #expect(await frames.next() == nil)
        withExtendedLifetime(inHand) {}
    }

    @Test func aLosslessProducerWaitsForTheDecoder() async {
        let handOff = FrameHandOff()
        let producer = Task {
            for n in 0..<20 { await handOff.putWhenTaken(frame(UInt64(n))) }
            handOff.finish()
        }
        var sequences: [UInt64] = []
        for await f in handOff.frames {
            sequences.append(f.sequence)
            await Task.yield()  // a decoder slower than the producer
        }
        await producer.value
        #expect(sequences == Array(0..<20))
        #expect(handOff.counters.dropped == 0 && handOff.counters.taken == 20)
    }
}
