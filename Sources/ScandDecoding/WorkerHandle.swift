import ScandZXingShim

/// The shim's decoder worker, destroyed with the last holder (the worker and every frame buffer it lent).
/// Sendable by hand: a C handle; its buffer and counter calls are thread-safe, the rest go through `DecoderWorker`'s lock.
final class WorkerHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(lanes: Int) {
        guard let p = szx_worker_create(Int32(lanes)) else { return nil }
        pointer = p
    }

    deinit { szx_worker_destroy(pointer) }
}
