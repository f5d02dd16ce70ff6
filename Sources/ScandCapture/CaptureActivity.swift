import Synchronization
import ScandRuntime

/// When the capture session last made progress and last had a frame, and whether it streams: written by the
/// session's loop, read by the watchdog from any thread. Atomics, not a lock or an actor call: a loop stuck in
/// a hung ioctl must still be seen as stuck, and the watchdog must never wait for it.
final class CaptureActivity: Sendable {
    private let loop = Atomic<UInt64>(0)
    private let frame = Atomic<UInt64>(0)
    private let streaming = Atomic<Bool>(false)

    /// Progress now (microseconds, `Monotonic`); `frame`: a frame arrived too.
    func touch(frame: Bool = false, streaming: Bool) {
        let now = Monotonic.microseconds()
        // The frame's time before the flag: a reader that sees streaming sees that frame's time.
        if frame { self.frame.store(now, ordering: .releasing) }
        self.streaming.store(streaming, ordering: .releasing)
        loop.store(now, ordering: .releasing)
    }

    var reading: CaptureSession.Activity {
        var a = CaptureSession.Activity()
        a.loop = loop.load(ordering: .acquiring)
        a.streaming = streaming.load(ordering: .acquiring)
        a.frame = frame.load(ordering: .acquiring)
        return a
    }
}
