import Foundation
import ScandCore
import ScandZXingShim

/// The persistent decoder processes (szx_worker): forked once, fed through shared memory, replaced when
/// one crashes or overruns a deadline. With two lanes (the default on a machine with two cores) the passes
/// of one frame are shared between two processes that run at once, so the second core shortens each frame.
/// One reader at a time (the lock keeps it so); frame memory may be taken from any thread.
public final class DecoderWorker: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = NSLock()
    /// Decoder processes a read's passes are shared between.
    public let lanes: Int

    /// One lane per core, up to two: more would take cores the capture and the service need.
    public static var defaultLanes: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    public init?(lanes: Int = DecoderWorker.defaultLanes) {
        guard let h = szx_worker_create(Int32(lanes)) else { return nil }
        handle = h
        self.lanes = Int(szx_worker_lanes(h))
    }

    deinit { szx_worker_destroy(handle) }

    /// Ends the worker processes now, as a pipeline that stops must not leave them behind; the next read
    /// starts new ones.
    public func retire() { lock.withLock { szx_worker_retire(handle) } }

    /// The process id of each lane's process while one runs.
    public var processIDs: [Int32] {
        lock.withLock { (0..<lanes).map { szx_worker_pid(handle, Int32($0)) }.filter { $0 > 0 } }
    }

    /// The first lane's process id while one runs.
    public var processID: Int32? { processIDs.first }

    /// How many worker processes have been started: one per lane used in a healthy run, one more after each crash.
    public var generation: Int { lock.withLock { Int(szx_worker_generation(handle)) } }

    /// Reads whose image was copied into shared memory first, because it had not been captured into `frameMemory`.
    public var copiedReads: Int { Int(szx_worker_copies(handle)) }

    /// Shared memory to capture a frame into: the decoder processes then read it where it is, with no copy.
    /// nil when every buffer is in use.
    public func frameMemory(count: Int) -> (any FrameMemory)? {
        // Not under `lock`: the capture thread must not wait for a decode to finish.
        guard count > 0, let p = szx_worker_acquire_buffer(handle, count) else { return nil }
        return SharedFrameBuffer(worker: self, bytes: UnsafeMutableRawBufferPointer(start: p, count: count))
    }

    func release(_ p: UnsafeMutableRawPointer) {
        szx_worker_release_buffer(handle, p.assumingMemoryBound(to: UInt8.self))
    }

    func read(_ image: inout szx_image, _ passes: UnsafePointer<szx_pass>?, _ count: Int32, _ timeout: Int32,
              _ outcomes: UnsafeMutablePointer<szx_outcome>?, _ results: inout UnsafeMutablePointer<szx_result>?,
              _ resultCount: inout Int32) -> Int32 {
        lock.withLock { szx_worker_read(handle, &image, passes, count, timeout, outcomes, &results, &resultCount) }
    }
}
