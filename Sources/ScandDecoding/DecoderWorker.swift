import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandZXingShim

/// The persistent decoder processes (szx_worker, running scand-decoder): started once, fed through shared memory, replaced when
/// one crashes or overruns a deadline. With two lanes (the default on a machine with two cores) the passes
/// of one frame are shared between two processes that run at once, so the second core shortens each frame.
/// One reader at a time (the handle is under a lock for it); frame memory may be taken from any thread.
public final class DecoderWorker: Sendable {
    /// For reads, retiring and the process ids: one caller at a time.
    private let reader: NIOLockedValueBox<WorkerHandle>
    /// For the shim's thread-safe calls (buffers and counters), which must not wait for a read.
    private let handle: WorkerHandle
    /// Decoder processes a read's passes are shared between.
    public let lanes: Int

    /// One lane per core, up to two: more would take cores the capture and the service need.
    public static var defaultLanes: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    public init?(lanes: Int = DecoderWorker.defaultLanes) {
        guard let h = WorkerHandle(lanes: lanes) else { return nil }
        handle = h
        reader = NIOLockedValueBox(h)
        self.lanes = Int(szx_worker_lanes(h.pointer))
    }

    /// Ends the worker processes now, as a pipeline that stops must not leave them behind; the next read
    /// starts new ones.
    public func retire() { reader.withLockedValue { szx_worker_retire($0.pointer) } }

    /// The process id of each lane's process while one runs.
    public var processIDs: [Int32] {
        reader.withLockedValue { h in (0..<lanes).map { szx_worker_pid(h.pointer, Int32($0)) }.filter { $0 > 0 } }
    }

    /// How many worker processes have been started: one per lane used in a healthy run, one more after each crash.
    public var generation: Int { Int(szx_worker_generation(handle.pointer)) }

    /// Reads whose image was copied into shared memory first, because it had not been captured into `frameMemory`.
    public var copiedReads: Int { Int(szx_worker_copies(handle.pointer)) }

    /// Shared memory to capture a frame into: the decoder processes then read it where it is, with no copy.
    /// nil when every buffer is in use.
    public func frameMemory(count: Int) -> (any FrameMemory)? {
        // Not under `reader`: the capture thread must not wait for a decode to finish.
        guard count > 0, let p = szx_worker_acquire_buffer(handle.pointer, count) else { return nil }
        return SharedFrameBuffer(handle: handle, bytes: UnsafeMutableRawBufferPointer(start: p, count: count))
    }

    func read(
        _ image: inout szx_image, _ passes: UnsafePointer<szx_pass>?, _ count: Int32, _ timeout: Int32,
        _ outcomes: UnsafeMutablePointer<szx_outcome>?, _ results: inout UnsafeMutablePointer<szx_result>?,
        _ resultCount: inout Int32
    ) -> Int32 {
        reader.withLockedValue { szx_worker_read($0.pointer, &image, passes, count, timeout, outcomes, &results, &resultCount) }
    }
}
