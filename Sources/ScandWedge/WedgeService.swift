import Foundation
import Logging
import NIOPosix
import ScandClient
import ScandCore
import ScandProtocol
import ServiceLifecycle

/// `scand wedge` as a service: one `EventSubscription` to the daemon (SCANs of the configured formats,
/// `since` the last one typed, reconnecting after the backoff), each SCAN through `KeyboardWedge`, its
/// position into the state file, then its keys to the sink on NIO's shared blocking pool (typing blocks: a
/// write per key event and the waits between them), one code after the other.
public struct WedgeService: Service {
    let subscription: EventSubscription
    let watch: ClientRequest.Watch
    let settings: WedgeSettings
    let sink: any KeySink
    let logger: Logger
    private let start: KeyboardWedge

    /// - Parameters:
    ///   - typedUpTo: the state file's position (nil: from the next SCAN on).
    ///   - settings: resolved, with `socketPath` and `stateFile` set.
    public init(settings: WedgeSettings, typedUpTo: EventPosition?, sink: any KeySink, logger: Logger) throws(KeystrokePlanner.Problem) {
        self.settings = settings
        self.sink = sink
        self.logger = logger
        start = KeyboardWedge(
            planner: try settings.planner(), typedUpTo: typedUpTo, replayMaxAge: settings.replayMaxAge, digitalLink: settings.digitalLink)
        // The same filter on both sides: the daemon sends only these, and each line is checked again here.
        watch = ClientRequest.Watch(enable: true, classes: [.scan], formats: settings.formats, since: typedUpTo)
        subscription = EventSubscription(socketPath: settings.socketPath, watch: watch, reconnect: true)
    }

    /// Until a graceful shutdown; throws a `DaemonError` when the daemon refuses the subscription (a reason a
    /// restart would not fix).
    public func run() async throws {
        var wedge = start
        try await consume(&wedge)
        let c = wedge.counters
        logger.notice(
            "stopped: \(c.typed) codes typed, \(c.refused) refused (untypable in the \(settings.layout.rawValue) layout), \(c.droppedControls) control characters dropped, \(c.skippedStale) old replayed scans not typed"
        )
    }

    /// Whether the answer to a WATCH moves the state file's position to `start`: the position that subscription
    /// starts after (the daemon's, for one without a since; the one asked for otherwise, where the subscription
    /// resumed after the last line taken). Every line before the answer has been handled, and nothing after it
    /// is skipped, so it is kept when the wedge holds none yet (a wedge restarted before its first SCAN
    /// resumed live and lost what the daemon scanned meanwhile), or an older one of the same boot; never one
    /// of another boot, whose seqs say nothing of the wedge's.
    static func advances(_ held: EventPosition?, to start: EventPosition) -> Bool {
        guard let held else { return true }
        return held.boot == start.boot && held.seq < start.seq
    }

    private func consume(_ wedge: inout KeyboardWedge) async throws {
        var stateFile = PositionFile.Keeper(path: settings.stateFile)
        /// The state file's position: where a restart of the wedge resumes.
        var held = wedge.typedUpTo
        func save(_ position: EventPosition) async {
            held = position
            if let (text, isError) = await stateFile.save(position) { isError ? logger.error("\(text)") : logger.info("\(text)") }
        }
        let delay = Duration.milliseconds(settings.keyDelayMilliseconds)
        try await SubscriptionLoop.run(subscription) { step in
            switch step {
            case .lost(_, let reason):
                if let reason { logger.warning("\(reason); subscribing again") }
            case .subscribed:
                logger.info("subscribed to scand at \(settings.socketPath); typing SCANs with the \(settings.layout.rawValue) layout")
            case .event(let line):
                switch line.eventClass {
                case .watch:
                    if case .watch(let answer)? = line.event, let start = answer.since, Self.advances(held, to: start) { await save(start) }
                case .error:
                    // The `since` is not in the daemon's journal: what it replays instead is numbered anew.
                    wedge.sinceNotKept()
                    logger.warning("scand: \(line.errorMessage ?? line.line)")
                case .scan:
                    guard watch.accepts(line), let code = line.code, let text = code.text else { return }
                    let scan = KeyboardWedge.Scan(
                        position: line.position, replayed: line.stamp?.replayed ?? false, format: code.format, text: text, time: code.time)
                    for action in wedge.handle(scan, now: Date()) { await perform(action, delay: delay, save: save) }
                default:
                    return
                }
            }
        }
    }

    /// One of the wedge's actions: the position to the state file, a warning, or keys to type.
    private func perform(_ action: KeyboardWedge.Action, delay: Duration, save: (EventPosition) async -> Void) async {
        switch action {
        case .persist(let position):
            await save(position)
        case .log(let text):
            logger.warning("\(text)")
        case .type(let events):
            do {
                try await NIOThreadPool.singleton.runIfActive { [sink] in try sink.send(events, delay: delay) }
            } catch {
                logger.error("\(error); that code was not typed whole")
            }
        }
    }
}
