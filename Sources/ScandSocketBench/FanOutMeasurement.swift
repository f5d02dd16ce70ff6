import Foundation
import Glibc

/// One `FanOutRun`'s measurement, from the daemon's socket appearing to its exit: its clients and what they
/// read, the frames written into the FIFO at the run's pace, and the daemon's CPU and peak RSS.
struct FanOutMeasurement {
    let run: FanOutRun
    let daemon: DaemonChild
    /// The daemon's stdout, where the last seq published is read.
    let stdout: String
    private var clients: [FanOutSubscriber] = []
    private var slow: FanOutSubscriber?
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var peak = 0
    private var sampled: UInt64 = 0
    private let started = FanOutRun.microseconds()

    init(run: FanOutRun, daemon: DaemonChild, stdout: String) {
        (self.run, self.daemon, self.stdout) = (run, daemon, stdout)
    }

    static func seconds(since t: UInt64) -> Double { Double(FanOutRun.microseconds() - t) / 1e6 }

    mutating func measure(fifo: String, socket: String) throws -> FanOutRun.Result {
        let gate = try subscribe(socket)
        guard let cpuBefore = daemon.cpuSeconds() else { throw BenchFailure("no /proc/\(daemon.pid)/stat") }
        let feed = try FanOutRun.openFIFO(fifo, daemon: daemon)
        var feedOpen = true
        defer { if feedOpen { close(feed) } }
        let first = FanOutRun.microseconds()
        let limit = Double(run.frames) / Double(run.framesPerSecond) + 120
        try writeFrames(to: feed, from: first, limit: limit)
        let (last, quiet) = try awaitLastEvent(from: first, limit: limit)
        guard let cpuAfter = daemon.cpuSeconds() else { throw BenchFailure("no /proc/\(daemon.pid)/stat") }
        peak = max(peak, daemon.peakRSSKilobytes() ?? 0)
        let tally = clients.map { c in
            (counted: c.counted, complete: c.inOrder && c.lastSeq == last && (c.firstSeq.map { $0 <= gate + 1 } ?? (last == gate)))
        }
        // The end of the recording: the daemon exits (0), closing every connection.
        close(feed)
        feedOpen = false
        let status = try awaitExit()
        let log = (try? String(contentsOfFile: stdout + ".err", encoding: .utf8)) ?? ""
        return FanOutRun.Result(
            events: last - gate, delivered: tally.map(\.counted), complete: tally.filter(\.complete).count, cpuSeconds: cpuAfter - cpuBefore,
            peakRSSKilobytes: peak, slowDropped: slowClientDropped(last: last), exitStatus: status,
            wallSeconds: Double(quiet - first) / 1e6, droppedForNotReading: log.components(separatedBy: "stopped reading").count - 1)
    }

    /// Reads what the clients have (waiting up to the timeout for any, or for `writing` to take more): whether
    /// any client had bytes. Samples the daemon's peak RSS every 20 ms.
    @discardableResult
    private mutating func pump(timeoutMilliseconds: Int32, writing: Int32? = nil) -> Bool {
        let open = clients.indices.filter { !clients[$0].closed }
        var fds = open.map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) }
        if let writing { fds.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
        if !fds.isEmpty { _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds) } else { usleep(UInt32(timeoutMilliseconds) * 1000) }
        var got = false
        for (n, i) in open.enumerated() where fds[n].revents != 0 { got = clients[i].read(into: &buffer) || got }
        if FanOutRun.microseconds() - sampled > 20_000, let kb = daemon.peakRSSKilobytes() {
            peak = max(peak, kb)
            sampled = FanOutRun.microseconds()
        }
        return got
    }

    /// Connects the clients once the socket is there, every one subscribed (the slow one read up to its WATCH
    /// answer, then never again), and a moment for any event published before the frames to arrive: the
    /// last seq before them, above which each client counts.
    private mutating func subscribe(_ socket: String) throws -> Int {
        while access(socket, F_OK) != 0 {
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before serving its socket") }
            guard Self.seconds(since: started) < 60 else { throw BenchFailure("no socket after 60 s") }
            usleep(10_000)
        }
        clients = try (0..<run.subscribers).map { _ in try FanOutSubscriber(path: socket) }
        slow = try run.slowClient ? FanOutSubscriber(path: socket) : nil
        while !clients.allSatisfy(\.watching) || !(slow?.watching ?? true) {
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before every client was watching") }
            guard Self.seconds(since: started) < 60 else { throw BenchFailure("not every client had its WATCH answer after 60 s") }
            pump(timeoutMilliseconds: 10)
            if slow?.watching == false { slow?.read(into: &buffer) }
        }
        let settle = FanOutRun.microseconds()
        while Self.seconds(since: settle) < 0.3 { pump(timeoutMilliseconds: 10) }
        let gate = (clients.compactMap(\.lastSeq) + [slow?.lastSeq ?? 0]).max() ?? 0
        for i in clients.indices { clients[i].countAbove = gate }
        return gate
    }

    /// Writes the recording's header and its frames into `feed` at the run's pace, reading the clients
    /// meanwhile.
    private mutating func writeFrames(to feed: Int32, from first: UInt64, limit: Double) throws {
        var k = 0
        var pending: [UInt8] = run.scene.header
        var offset = 0
        while k < run.frames || offset < pending.count {
            guard Self.seconds(since: first) < limit else { throw BenchFailure("still running after \(Int(limit)) s") }
            if offset == pending.count {
                let due = first + UInt64(k) * 1_000_000 / UInt64(run.framesPerSecond)
                let now = FanOutRun.microseconds()
                if due > now {
                    pump(timeoutMilliseconds: Int32(min(20, (due - now) / 1000 + 1)))
                    continue
                }
                pending = run.scene.frame(k)
                offset = 0
                k += 1
            }
            let n = pending.withUnsafeBytes { write(feed, $0.baseAddress! + offset, pending.count - offset) }
            if n > 0 {
                offset += n
                pump(timeoutMilliseconds: 0)
            } else if errno == EAGAIN || errno == EINTR {
                pump(timeoutMilliseconds: 20, writing: feed)
            } else {
                throw BenchFailure("writing frame \(k) of \(run.frames): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Every frame written, the recording left open: waits until the daemon has published what they gave (its
    /// stdout says the last seq) and every client has it, or nothing more came for a second. A replay's end is
    /// the daemon's exit, which is no part of fan-out (nor waits for slow readers). Returns that last seq and
    /// when the clients last read.
    private mutating func awaitLastEvent(from first: UInt64, limit: Double) throws -> (last: Int, quiet: UInt64) {
        var quiet = FanOutRun.microseconds()
        while true {
            guard Self.seconds(since: first) < limit else { throw BenchFailure("still running after \(Int(limit)) s") }
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before the end of its recording") }
            if pump(timeoutMilliseconds: 20) { quiet = FanOutRun.microseconds() }
            guard Self.seconds(since: quiet) > 0.3 else { continue }
            let last = FanOutRun.lastSeq(inFile: stdout) ?? 0
            if clients.allSatisfy({ ($0.lastSeq ?? 0) == last }) || Self.seconds(since: quiet) > 1 { return (last, quiet) }
        }
    }

    /// Waits for the daemon's exit and every connection's close; its exit status.
    private mutating func awaitExit() throws -> Int32 {
        let ending = FanOutRun.microseconds()
        while !daemon.hasExited || clients.contains(where: { !$0.closed }) {
            guard Self.seconds(since: ending) < 30 else { throw BenchFailure("still running 30 s after the end of its recording") }
            pump(timeoutMilliseconds: 20)
        }
        return daemon.reap()
    }

    /// Whether the client that never read was dropped before the last event (nil without one).
    private mutating func slowClientDropped(last: Int) -> Bool? {
        guard var s = slow else { return nil }
        while !s.closed { if !s.read(into: &buffer) { break } }
        s.finish()
        return (s.lastSeq ?? 0) < last
    }
}
