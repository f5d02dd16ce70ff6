import Glibc

/// CLOCK_MONOTONIC, the clock V4L2 stamps buffers with.
public enum Monotonic {
    public static func microseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }

    /// Waits `microseconds` (at most an hour) in a select of no descriptors, as a camera's source waits in
    /// poll for its next frame: the capture loop waits only on its descriptors' timeouts.
    public static func pause(microseconds: UInt64) {
        let us = min(microseconds, 3_600_000_000)
        var timeout = timeval(tv_sec: Int(us / 1_000_000), tv_usec: Int(us % 1_000_000))
        _ = select(0, nil, nil, nil, &timeout)
    }
}
