import Foundation
import Glibc

/// One measurement of `scand bench socket`: a `scand` executable, run as a black box, replaying frames that
/// this bench writes into a FIFO (lockstep: every frame decoded, the same events on every run) to `subscribers`
/// WATCH clients on a socket of its own, in a temporary directory removed afterwards. The frames start only
/// once every client has its WATCH answer, so every client must get every event after that, in order.
struct FanOutRun {
    var scand: String
    var scene: FanOutScene
    var subscribers: Int
    /// One more client that asks for every event and never reads: the daemon must drop it, not wait for it.
    var slowClient = false
    var frames = 1500
    /// Frames written a second (wall clock), each one UPDATE a code.
    var framesPerSecond = 100
    /// The daemon's `[socket] queue_limit`: lines waiting for one client before it is dropped (its default is 256).
    var queueLimit = 2048

    struct Result {
        /// Numbered events published after every client was watching (the last seq minus the one before the frames).
        var events: Int
        /// Those events each fast client received.
        var delivered: [Int]
        /// Clients that got every one of them, in order (seq by seq) and up to the last.
        var complete: Int
        /// CPU time of the daemon's own threads from the first frame to its exit.
        var cpuSeconds: Double
        var peakRSSKilobytes: Int
        /// nil without a slow client.
        var slowDropped: Bool?
        var exitStatus: Int32
        var wallSeconds: Double
        /// Clients the daemon said it disconnected for not reading (the slow one among them).
        var droppedForNotReading = 0
        var allComplete: Bool { complete == delivered.count && exitStatus == 0 && events > 0 }
    }

    func run() throws -> Result {
        // A daemon gone mid-frame is an EPIPE to report, not a signal that ends the bench.
        signal(SIGPIPE, SIG_IGN)
        let dir = NSTemporaryDirectory() + "scand-bench-socket-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/frames", sock = dir + "/scand.sock", config = dir + "/scand.toml"
        guard mkfifo(fifo, 0o600) == 0 else { throw BenchFailure("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        // Room for every client of the largest run, and a queue for each that a reader descheduled for a
        // moment on a busy machine does not overflow.
        try "[socket]\nmax_clients = 1000\nmax_clients_per_uid = 1000\nqueue_limit = \(queueLimit)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonChild(
            executable: scand,
            arguments: [
                "run", "--config", config, "--socket", sock, "--replay-pace", "lockstep", "--update-interval", "0.001", "--source",
                "replay:" + fifo
            ], stdout: dir + "/stdout", stderr: dir + "/stdout.err")
        let stderrTail = { String(((try? String(contentsOfFile: dir + "/stdout.err", encoding: .utf8)) ?? "").suffix(2000)) }
        do {
            return try measure(daemon, fifo: fifo, socket: sock, stdout: dir + "/stdout")
        } catch let failure as BenchFailure {
            throw BenchFailure("\(scand): \(failure.description)\n\(stderrTail())")
        }
    }

    private func measure(_ daemon: DaemonChild, fifo: String, socket: String, stdout: String) throws -> Result {
        let started = Self.microseconds()
        func seconds(since t: UInt64) -> Double { Double(Self.microseconds() - t) / 1e6 }
        while access(socket, F_OK) != 0 {
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before serving its socket") }
            guard seconds(since: started) < 60 else { throw BenchFailure("no socket after 60 s") }
            usleep(10_000)
        }
        var clients = try (0..<subscribers).map { _ in try FanOutSubscriber(path: socket) }
        var slow = try slowClient ? FanOutSubscriber(path: socket) : nil
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var peak = 0
        var sampled: UInt64 = 0
        /// Reads what the clients have (waiting up to the timeout for any, or for `writing` to take more):
        /// whether any client had bytes.
        @discardableResult
        func pump(timeoutMilliseconds: Int32, writing: Int32? = nil) -> Bool {
            let open = clients.indices.filter { !clients[$0].closed }
            var fds = open.map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) }
            if let writing { fds.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            if !fds.isEmpty { _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds) } else { usleep(UInt32(timeoutMilliseconds) * 1000) }
            var got = false
            for (n, i) in open.enumerated() where fds[n].revents != 0 { got = clients[i].read(into: &buffer) || got }
            if Self.microseconds() - sampled > 20_000, let kb = daemon.peakRSSKilobytes() {
                peak = max(peak, kb)
                sampled = Self.microseconds()
            }
            return got
        }
        // Every client subscribed (the slow one read up to its WATCH answer, then never again), and a moment
        // for any event published before the frames to arrive.
        while !clients.allSatisfy(\.watching) || !(slow?.watching ?? true) {
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before every client was watching") }
            guard seconds(since: started) < 60 else { throw BenchFailure("not every client had its WATCH answer after 60 s") }
            pump(timeoutMilliseconds: 10)
            if slow?.watching == false { slow?.read(into: &buffer) }
        }
        let settle = Self.microseconds()
        while seconds(since: settle) < 0.3 { pump(timeoutMilliseconds: 10) }
        let gate = (clients.compactMap(\.lastSeq) + [slow?.lastSeq ?? 0]).max() ?? 0
        for i in clients.indices { clients[i].countAbove = gate }
        guard let cpuBefore = daemon.cpuSeconds() else { throw BenchFailure("no /proc/\(daemon.pid)/stat") }

        let feed = try openFIFO(fifo, daemon: daemon)
        var feedOpen = true
        defer { if feedOpen { close(feed) } }
        let first = Self.microseconds()
        let limit = Double(frames) / Double(framesPerSecond) + 120
        var k = 0
        var pending: [UInt8] = scene.header
        var offset = 0
        while k < frames || offset < pending.count {
            guard seconds(since: first) < limit else { throw BenchFailure("still running after \(Int(limit)) s") }
            if offset == pending.count {
                let due = first + UInt64(k) * 1_000_000 / UInt64(framesPerSecond)
                let now = Self.microseconds()
                if due > now {
                    pump(timeoutMilliseconds: Int32(min(20, (due - now) / 1000 + 1)))
                    continue
                }
                pending = scene.frame(k)
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
                throw BenchFailure("writing frame \(k) of \(frames): \(String(cString: strerror(errno)))")
            }
        }
        // Every frame written, the recording left open: measured once the daemon has published what they
        // gave (its stdout says the last seq) and every client has it, or nothing more came for a second.
        // A replay's end is the daemon's exit, which is no part of fan-out (nor waits for slow readers).
        var quiet = Self.microseconds()
        var last = 0
        while true {
            guard seconds(since: first) < limit else { throw BenchFailure("still running after \(Int(limit)) s") }
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before the end of its recording") }
            if pump(timeoutMilliseconds: 20) { quiet = Self.microseconds() }
            guard seconds(since: quiet) > 0.3 else { continue }
            last = Self.lastSeq(inFile: stdout) ?? 0
            let lasts = clients.map { $0.lastSeq ?? 0 }
            if lasts.allSatisfy({ $0 == last }) || seconds(since: quiet) > 1 { break }
        }
        guard let cpuAfter = daemon.cpuSeconds() else { throw BenchFailure("no /proc/\(daemon.pid)/stat") }
        peak = max(peak, daemon.peakRSSKilobytes() ?? 0)
        let wall = Double(quiet - first) / 1e6
        let tally = clients.map { c in
            (counted: c.counted, complete: c.inOrder && c.lastSeq == last && (c.firstSeq.map { $0 <= gate + 1 } ?? (last == gate)))
        }

        // The end of the recording: the daemon exits (0), closing every connection.
        close(feed)
        feedOpen = false
        let ending = Self.microseconds()
        while !daemon.hasExited || clients.contains(where: { !$0.closed }) {
            guard seconds(since: ending) < 30 else { throw BenchFailure("still running 30 s after the end of its recording") }
            pump(timeoutMilliseconds: 20)
        }
        let status = daemon.reap()
        let log = (try? String(contentsOfFile: stdout + ".err", encoding: .utf8)) ?? ""
        var slowDropped: Bool?
        if var s = slow {
            while !s.closed { if !s.read(into: &buffer) { break } }
            s.finish()
            slowDropped = (s.lastSeq ?? 0) < last
        }
        return Result(
            events: last - gate, delivered: tally.map(\.counted), complete: tally.filter(\.complete).count, cpuSeconds: cpuAfter - cpuBefore,
            peakRSSKilobytes: peak, slowDropped: slowDropped, exitStatus: status, wallSeconds: wall,
            droppedForNotReading: log.components(separatedBy: "stopped reading").count - 1)
    }

    /// The FIFO's writing end, once the daemon has it open for reading; without blocking, so that a daemon
    /// that is gone is an error, not a hang.
    private func openFIFO(_ path: String, daemon: DaemonChild) throws -> Int32 {
        let started = Self.microseconds()
        while true {
            let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { return fd }
            guard errno == ENXIO || errno == EINTR else { throw BenchFailure("open \(path): \(String(cString: strerror(errno)))") }
            guard !daemon.hasExited else { throw BenchFailure("exited (\(daemon.reap())) before reading its recording") }
            guard Self.microseconds() - started < 60_000_000 else { throw BenchFailure("did not open its recording within 60 s") }
            usleep(10_000)
        }
    }

    /// The monotonic clock, in µs.
    static func microseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec) / 1000
    }

    /// The seq of the last numbered line in the daemon's stdout.
    static func lastSeq(inFile path: String) -> Int? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        let size = (try? file.seekToEnd()) ?? 0
        try? file.seek(toOffset: size > 1 << 16 ? size - (1 << 16) : 0)
        let bytes = [UInt8]((try? file.readToEnd()) ?? Data())
        var end = bytes.count
        while end > 0 {
            let start = (bytes[..<end].lastIndex(of: 0x0A) ?? -1) + 1
            if let seq = bytes.withUnsafeBufferPointer({ FanOutSubscriber.seq(in: UnsafeBufferPointer(rebasing: $0[start..<end])) }) {
                return seq
            }
            end = start - 1
        }
        return nil
    }
}
