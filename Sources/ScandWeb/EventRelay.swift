import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The one subscription to the daemon's events (`?WATCH=` SCAN, UPDATE, LOST, DEVICE), relayed to the
/// hub. A daemon that stops or restarts is connected to again, waiting 0.25 s doubling up to 5 s.
public struct EventRelay: Service {
    static let classes = ["SCAN", "UPDATE", "LOST", "DEVICE"]
    static let watchRequest = #"?WATCH={"enable":true,"classes":["# + classes.map { "\"\($0)\"" }.joined(separator: ",") + "]};"

    let socketPath: String
    let hub: EventHub
    let metrics: WebMetrics
    let logger: Logger
    let group: any EventLoopGroup

    public init(
        socketPath: String, hub: EventHub, metrics: WebMetrics, logger: Logger, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.socketPath = socketPath
        self.hub = hub
        self.metrics = metrics
        self.logger = logger
        self.group = group
    }

    public func run() async throws {
        defer { hub.finish() }
        await cancelWhenGracefulShutdown { await relay() }
    }

    /// Subscribes again and again until cancelled.
    private func relay() async {
        var backoff = Duration.milliseconds(250)
        var lastProblem: String?
        while !Task.isCancelled {
            do {
                try await subscribe {
                    backoff = .milliseconds(250); lastProblem = nil
                }
                lastProblem = "scand closed the event subscription"
                logger.warning("\(lastProblem!); subscribing again")
            } catch {
                let problem = (error as? DaemonError)?.description ?? "event subscription: \(error)"
                if problem != lastProblem { logger.warning("\(problem); trying again") }  // once per cause, not per retry
                lastProblem = problem
            }
            metrics.subscribed.set(to: 0)
            guard !Task.isCancelled else { break }
            metrics.reconnects.increment()
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// One connection: the banner, the WATCH request, then every line to the hub until it closes.
    private func subscribe(connected: () -> Void) async throws {
        let channel: NIOAsyncChannel<String, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group).connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                    return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        } catch {
            throw DaemonError.connecting(to: socketPath, error)
        }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: Self.watchRequest + "\n"))
            for try await line in inbound {
                let answer = DaemonAnswer(line: line)
                switch answer.eventClass {
                case "VERSION":
                    continue
                case "WATCH":
                    connected()
                    metrics.subscribed.set(to: 1)
                    logger.info("subscribed to scand's events on \(socketPath)")
                case "ERROR":
                    throw DaemonError.refused(answer.message)
                default:
                    hub.broadcast(line)
                }
            }
        }
    }
}
