import Glibc

/// CLOCK_MONOTONIC, the clock V4L2 stamps buffers with.
public enum Monotonic {
    public static func microseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }
}
