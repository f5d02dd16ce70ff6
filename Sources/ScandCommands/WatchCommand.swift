import ArgumentParser
import Foundation
import Logging
import ScandClient
import ScandCore
import ScandLogging
import ScandProtocol
import UnixSignals

/// `scand watch`: the command-line subscriber. Prints the daemon's events, one JSON object per line, or
/// the text of each scan (`--raw`), or runs a command for each scan (`--exec`); for shell scripts it can wait
/// for the daemon and resume after a restart (`--reconnect`), stop after `--count` scans or give up after
/// `--timeout` seconds without one.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a running scand and print its events (or the text of each scan).",
        discussion: """
            Exit status: 0 after --count scans (or --status), 4 when --timeout passed without a scan, 64 when the \
            daemon refuses the request (or bad options, an --exec command that is not there), 69 when no daemon is \
            running or it went away (without --reconnect), 72 when the --exec command could not be started for a \
            scan (that scan is not taken as handled), 75 when it refuses the connection (too many clients: try \
            again later), 77 without permission, 130 or 143 after SIGINT or SIGTERM (an --exec command running is \
            ended with its process group first). A refusal prints the daemon's reason.
            """
    )

    /// No scan within `--timeout`: as zbarimg's "no code found".
    static let timeoutStatus: Int32 = 4

    @Option(name: .long, help: DaemonSocket.optionHelp)
    var socket: String?

    @Option(name: .long, help: ArgumentHelp("Only these event classes, comma-separated (SCAN, LOST, UPDATE, DEVICE, …).", valueName: "LIST"))
    var classes: String?

    @Option(name: .long, help: ArgumentHelp("Only codes of these formats, comma-separated.", valueName: "LIST"))
    var formats: String?

    @Flag(name: .long, help: "Print one STATUS object and exit.")
    var status = false

    @Flag(name: .long, help: "Print only the text of each SCAN, one per line (control characters escaped), as zbarcam --raw.")
    var raw = false

    @Flag(
        name: .long,
        help: "Wait for the daemon, and when it goes away come back and resume where it stopped (nothing twice, nothing lost that its journal keeps)."
    )
    var reconnect = false

    /// -n as gpspipe's count, -C as mosquitto_sub's.
    @Option(
        name: [.customShort("n"), .customShort("C"), .long],
        help: ArgumentHelp("Exit 0 after N scans (-n as gpspipe's, -C as mosquitto_sub's).", valueName: "N"))
    var count: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Exit \(timeoutStatus) when S seconds pass without a scan, counted from the start and again from each scan (not while an --exec command runs); unlike mosquitto_sub's -W, not a limit on the whole run.",
            valueName: "S"))
    var timeout: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For each scan, run CMD (its words, no shell: no quotes nor $VARIABLES, see --shell) with the scan in its environment: SCAND_TEXT, SCAND_FORMAT, SCAND_ID, SCAND_DEVICE, SCAND_BOOT, SCAND_SEQ, SCAND_JSON. One at a time; replaces printing.",
            valueName: "CMD"))
    var exec: String?

    @Flag(name: .long, help: "Run the --exec command with /bin/sh -c, for $SCAND_TEXT, quotes, pipes (the payload is still only in the environment).")
    var shell = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds an --exec command may run before it is ended with its process group (SIGTERM, then SIGKILL 2 s later).", valueName: "S"))
    var execTimeout: Double = 30

    func validate() throws {
        if raw, exec != nil { throw ValidationError("--raw prints each scan and --exec runs a command for it: choose one") }
        if raw || exec != nil, classes != nil { throw ValidationError("--raw and --exec take SCAN events only: leave out --classes") }
        if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
        if let timeout, !(timeout > 0 && timeout <= 86400 * 365) { throw ValidationError("--timeout must be a number of seconds above 0") }
        if !(execTimeout > 0 && execTimeout <= 86400) { throw ValidationError("--exec-timeout must be 0…86400 seconds, above 0") }
        if shell, exec == nil { throw ValidationError("--shell goes with --exec") }
        if let exec, exec.allSatisfy(\.isWhitespace) { throw ValidationError("--exec needs a command") }
        if let exec { try ScanHook.check(command: exec, shell: shell) }
        if count != nil || timeout != nil, let asked = try watch().classes, !asked.contains(.scan) {
            throw ValidationError("--count and --timeout count SCAN events: add SCAN to --classes")
        }
    }

    /// The WATCH the options ask for.
    func watch() throws -> ClientRequest.Watch {
        var watch = ClientRequest.Watch(enable: true)
        if raw || exec != nil { watch.classes = [.scan] }
        if let classes {
            let names = classes.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
            watch.classes = Set(
                try names.map { name in
                    guard let c = Event.Class(rawValue: name), Event.Class.watchable.contains(c) else {
                        throw ValidationError(
                            "--classes: unknown event class '\(name.prefix(32))' (known: \(Event.Class.watchable.map(\.rawValue).joined(separator: ", ")))"
                        )
                    }
                    return c
                })
        }
        if let formats {
            do { watch.formats = try BarcodeFormats.parse(formats) } catch { throw ValidationError("--formats: lists an \(error.description)") }
        }
        return watch
    }

    func run() async throws {
        let watch = try watch()
        do {
            // With --reconnect the daemon is waited for: no answer yet is no error.
            let socket = try socket ?? (reconnect ? DaemonSocket().waitingPath() : DaemonSocket().resolve())
            if status {
                let answer = try await DaemonClient.ask(.status, socketPath: socket)
                Self.print(answer.line)
                return
            }
            let output: WatchPrinter.Output = raw ? .raw : exec != nil ? .exec : .json
            let printer = WatchPrinter(output: output, classes: watch.classes, count: count)
            let hook = exec.map { ScanHook(command: $0, shell: shell, timeout: Duration(roundingSeconds: execTimeout)) }
            let subscription = EventSubscription(socketPath: socket, watch: watch, reconnect: reconnect)
            let idle = timeout.map { Duration(roundingSeconds: $0) }
            if let signal = try await Self.untilSignalled({ try await Self.session(subscription, printer: printer, hook: hook, idleLimit: idle) }) {
                throw ExitCode(128 + signal.rawValue)
            }
        } catch let error as DaemonError {
            Logger.standardError(error.description, .error)
            throw ExitCode(ExitStatus.of(error))
        } catch let error as DaemonWentAway {
            Logger.standardError(error.description, .error)
            throw ExitCode(ExitStatus.unavailable)
        } catch let error as HookCannotStart {
            Logger.standardError("\(error.description); stopping: that scan is not handled", .error)
            throw ExitCode(ExitStatus.missingFile)
        } catch is NothingCame {
            Logger.standardError("no scan came within \(timeout ?? 0) s", .notice)
            throw ExitCode(Self.timeoutStatus)
        }
    }

    /// One run of the subscription: each element through the `WatchPrinter`, its actions carried out in order
    /// (an `--exec` command runs to its end before the next scan is taken: the subscription's bounded buffer is
    /// the queue, and past it the socket is not read until the daemon drops the connection; the subscription is
    /// then made again `since` the last scan passed on, so a slow command loses nothing the journal keeps).
    /// Ends after `--count` scans; throws `NothingCame` after `idleLimit` spent waiting for a scan (from a
    /// scan's arrival, and not while its `--exec` command runs), `DaemonWentAway` when the daemon closes the
    /// connection and there is no reconnecting.
    static func session(_ subscription: EventSubscription, printer: WatchPrinter, hook: ScanHook?, idleLimit: Duration?) async throws {
        let clock = ContinuousClock()
        let idle = IdleClock(since: clock.now)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [printer] in
                var printer = printer
                try await SubscriptionLoop.run(subscription) { step in
                    if case .event(let line) = step, line.eventClass == .scan, line.code != nil {
                        await idle.restart(at: clock.now)
                    }
                    for action in printer.take(step) {
                        switch action {
                        case .print(let text):
                            StandardStream.writeAll(1, text + "\n")
                        case .warn(let message):
                            Logger.standardError(message, .warning)
                        case .run(let code, let line):
                            guard let hook else { continue }
                            await idle.commandStarted()
                            let outcome = await hook.run(for: code, line: line)
                            await idle.restart(at: clock.now)
                            let what = "--exec for SCAN \(code.id)" + (line.position.map { " (seq \($0.seq))" } ?? "")
                            // A command that cannot start handles no scan: the watch stops rather than count it.
                            if hook.neverRan(outcome) { throw HookCannotStart(description: "\(what) \(outcome)") }
                            Logger.standardError("\(what) \(outcome)", outcome == .exited(0) ? .info : .warning)
                        case .finished:
                            throw Finished()
                        }
                    }
                }
                // The subscription ends without an error only when the daemon closed and there is no reconnecting.
                throw DaemonWentAway()
            }
            if let idleLimit {
                group.addTask {
                    while true {
                        let (since, busy) = await idle.reading
                        // A command running: looked at again a limit later (its end restarts the count).
                        let deadline = busy ? clock.now.advanced(by: idleLimit) : since.advanced(by: idleLimit)
                        if !busy && clock.now >= deadline { throw NothingCame() }
                        try await clock.sleep(until: deadline, tolerance: nil)
                    }
                }
            }
            defer { group.cancelAll() }
            do { _ = try await group.next() } catch is Finished {}
        }
    }

    /// Since when the session has been waiting for a scan, and whether an `--exec` command is running: set by
    /// the subscription's task, read by the idle limit's.
    private actor IdleClock {
        private var since: ContinuousClock.Instant
        private var busy = false

        init(since: ContinuousClock.Instant) { self.since = since }

        var reading: (since: ContinuousClock.Instant, busy: Bool) { (since, busy) }

        /// A scan came, or a command ended: waiting starts again.
        func restart(at now: ContinuousClock.Instant) {
            since = now
            busy = false
        }

        func commandStarted() { busy = true }
    }

    private struct Finished: Error {}

    struct NothingCame: Error {}

    struct HookCannotStart: Error, CustomStringConvertible {
        var description: String
    }

    struct DaemonWentAway: Error, CustomStringConvertible {
        var description: String {
            "scand closed the connection (it stopped or restarted); `scand watch --reconnect` waits for it and resumes"
        }
    }

    /// Runs `body` until it ends, or until SIGINT or SIGTERM (trapped as `scand mqtt`, `wedge` and `web` trap
    /// them, through `UnixSignals`) cancels it; returns that signal once `body` has wound down, whatever it
    /// threw then. Cancelling is what ends an `--exec` command with its process group: the command runs in a
    /// group of its own, which a terminal's Ctrl-C does not reach, and the default action of either signal
    /// left it running.
    static func untilSignalled(_ body: @escaping @Sendable () async throws -> Void) async throws -> UnixSignal? {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        return try await withThrowingTaskGroup(of: UnixSignal?.self) { group in
            group.addTask {
                try await body()
                return nil
            }
            group.addTask {
                for await signal in signals { return signal }
                try Task.checkCancellation()  // the sequence ends only when its task is cancelled
                return nil
            }
            defer { group.cancelAll() }
            guard let signal = try await group.next() ?? nil else { return nil }
            group.cancelAll()
            while true {
                do { if try await group.next() == nil { return signal } } catch {}
            }
        }
    }

    /// Unbuffered: a pipe reader sees each event at once. The daemon escapes control characters already;
    /// escaping again here means nothing a barcode holds reaches the terminal raw, whoever wrote the line.
    static func print(_ line: String) {
        StandardStream.writeAll(1, line.escapingControlCharacters() + "\n")
    }
}
