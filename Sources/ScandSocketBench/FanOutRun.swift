import Foundation
import Glibc

/// One measurement of `scand bench socket`: a `scand` executable, run as a black box, replaying frames that
/// this bench writes into a FIFO (lockstep: every frame decoded, the same events on every run) to `subscribers`
/// WATCH clients on a socket of its own, in a temporary directory removed afterwards. The frames start only
/// once every client has its WATCH answer, so every client must get every event after that, in order.
package struct FanOutRun {
    package var scand: String
    package var scene: FanOutScene
    package var subscribers: Int
    /// One more client that asks for every event and never reads: the daemon must drop it, not wait for it.
    package var slowClient = false
    package var frames = 1500
    /// Frames written a second (wall clock), each one UPDATE a code.
    package var framesPerSecond = 100
    /// The daemon's `[socket] queue_limit`: lines waiting for one client before it is dropped (its default is 256).
    package var queueLimit = 2048

    package init(
        scand: String, scene: FanOutScene, subscribers: Int, slowClient: Bool = false, frames: Int = 1500, framesPerSecond: Int = 100,
        queueLimit: Int = 2048
    ) {
        (self.scand, self.scene, self.subscribers, self.slowClient) = (scand, scene, subscribers, slowClient)
        (self.frames, self.framesPerSecond, self.queueLimit) = (frames, framesPerSecond, queueLimit)
    }

    package struct Result {
        /// Numbered events published after every client was watching (the last seq minus the one before the frames).
        package var events: Int
        /// Those events each fast client received.
        package var delivered: [Int]
        /// Clients that got every one of them, in order (seq by seq) and up to the last.
        package var complete: Int
        /// CPU time of the daemon's own threads from the first frame to its exit.
        package var cpuSeconds: Double
        package var peakRSSKilobytes: Int
        /// nil without a slow client.
        package var slowDropped: Bool?
        package var exitStatus: Int32
        package var wallSeconds: Double
        /// Clients the daemon said it disconnected for not reading (the slow one among them).
        package var droppedForNotReading = 0
        package var allComplete: Bool { complete == delivered.count && exitStatus == 0 && events > 0 }
    }

    package func run() throws -> Result {
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
            var measurement = FanOutMeasurement(run: self, daemon: daemon, stdout: dir + "/stdout")
            return try measurement.measure(fifo: fifo, socket: sock)
        } catch let failure as BenchFailure {
            throw BenchFailure("\(scand): \(failure.description)\n\(stderrTail())")
        }
    }

    /// The FIFO's writing end, once the daemon has it open for reading; without blocking, so that a daemon
    /// that is gone is an error, not a hang.
    static func openFIFO(_ path: String, daemon: DaemonChild) throws -> Int32 {
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
