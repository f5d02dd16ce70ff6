import ScandCore

/// A buffer of the worker's shared memory holding one captured frame; given back when the frame goes.
final class SharedFrameBuffer: FrameMemory, @unchecked Sendable {
    let worker: DecoderWorker
    let bytes: UnsafeMutableRawBufferPointer

    init(worker: DecoderWorker, bytes: UnsafeMutableRawBufferPointer) {
        self.worker = worker
        self.bytes = bytes
    }

    deinit { if let p = bytes.baseAddress { worker.release(p) } }
}
