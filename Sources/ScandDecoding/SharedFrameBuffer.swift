import ScandCore
import ScandZXingShim

/// A buffer of the worker's shared memory holding one captured frame; given back when the frame goes.
/// Sendable by hand: mmap'd shared memory, written once by the capture and then only read.
final class SharedFrameBuffer: FrameMemory, @unchecked Sendable {
    let handle: WorkerHandle
    let bytes: UnsafeMutableRawBufferPointer

    init(handle: WorkerHandle, bytes: UnsafeMutableRawBufferPointer) {
        self.handle = handle
        self.bytes = bytes
    }

    deinit { if let p = bytes.baseAddress { szx_worker_release_buffer(handle.pointer, p.assumingMemoryBound(to: UInt8.self)) } }
}
