import Foundation

/// The one wait of the tests: until a condition holds, polled, up to a deadline on `clock` (for what
/// another thread, task or process does in its own time). Never a fixed sleep: a condition that holds at
/// once returns at once.
public enum Eventually {
    /// Blocking, for tests that run on threads of their own.
    @discardableResult
    public static func wait<C: Clock>(
        seconds: Double = 30, clock: C = ContinuousClock(), poll: Duration = .milliseconds(20), until condition: () -> Bool
    ) -> Bool where C.Duration == Duration {
        let deadline = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        while clock.now < deadline {
            if condition() { return true }
            let c = poll.components
            usleep(UInt32(c.seconds * 1_000_000 + c.attoseconds / 1_000_000_000_000))
        }
        return condition()
    }

    /// Suspending, for async tests; the condition may itself suspend (a request to a server, say).
    public static func check<C: Clock>(
        seconds: Double = 30, clock: C = ContinuousClock(), poll: Duration = .milliseconds(20), _ condition: () async -> Bool
    ) async -> Bool where C.Duration == Duration {
        let deadline = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        while clock.now < deadline {
            if await condition() { return true }
            try? await clock.sleep(for: poll)
        }
        return await condition()
    }
}
