import ServiceLifecycle

/// The journal's upkeep (`EventLog.upkeep`, through the event stage, which runs it off the cooperative pool
/// in the events' order) every second, as a service of the daemon's group: until graceful shutdown.
package struct JournalUpkeep: Service {
    static let interval = Duration.seconds(1)
    let work: @Sendable () -> Void

    package init(_ work: @escaping @Sendable () -> Void) { self.work = work }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: Self.interval)
                work()
            }
        }
    }
}
