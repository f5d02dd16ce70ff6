import NIOConcurrencyHelpers
import ScandProtocol

/// What a test's writer wrote (a pipeline's events from the decode loop's thread, log lines), from any thread.
public final class WrittenLines: Sendable {
    private let events = NIOLockedValueBox<[String]>([])
    private let logs = NIOLockedValueBox<[String]>([])

    public init() {}

    public func event(_ s: String) { events.withLockedValue { $0.append(s) } }
    public func event(_ e: Event) { event(e.line) }
    public func log(_ s: String) { logs.withLockedValue { $0.append(s) } }
    public var all: [String] { events.withLockedValue { $0 } }
}
