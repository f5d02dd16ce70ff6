import Foundation
import ScandCore
import ScandProtocol
import NIOConcurrencyHelpers

/// A daemon's socket served by the test itself, for what the real daemon cannot be made to do on cue (a
/// restart between two events, an old daemon's unnumbered lines, a refusal): VERSION on connect, one answer
/// per request (from `answer`), and for a `?WATCH=` the WATCH, what came after its `since` (each marked
/// replayed), then live events. Every line is written by ScandProtocol's encoder; every request is recorded
/// as received. Blocking calls on threads of its own, never on the test's tasks.
public final class FakeDaemon: Sendable {
    public let path: String
    public let boot: String
    /// Events with their boot and seq, as a daemon with a journal writes them.
    public let numbered: Bool
    private let answer: @Sendable (ClientRequest) -> Event
    private let listener: Int32
    private struct State {
        var events: [String] = []
        var requests: [String] = []
        var connections: Set<Int32> = []
        var watchers: Set<Int32> = []
        var stopped = false
    }
    private let state = NIOLockedValueBox(State())

    /// - Parameter answer: the answer to a request other than WATCH.
    public init(path: String, numbered: Bool = true, answer: @escaping @Sendable (ClientRequest) -> Event = { _ in .error("unknown request") }) throws
    {
        self.path = path
        self.numbered = numbered
        self.answer = answer
        boot = EventPosition.randomBootID()
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard UnixSocket.bind(listener, to: path) == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        stop()
        close(listener)
    }

    /// The request lines received, in order.
    public var requests: [String] { state.withLockedValue { $0.requests } }
    public var watcherCount: Int { state.withLockedValue { $0.watchers.count } }
    /// Events published so far.
    public var count: Int { state.withLockedValue { $0.events.count } }

    /// The SCAN numbered `seq` (with the boot when `numbered`).
    public func line(_ seq: Int) -> String {
        EventEncoder.line(.scan(SampleCode.tracked(seq, text: "ticket \(seq)")), stamp: numbered ? EventStamp(boot: boot, seq: seq) : nil)
    }

    /// Publishes `n` more events to the watchers.
    public func publish(_ n: Int) {
        state.withLockedValue { s in
            for _ in 0..<n {
                let line = line(s.events.count + 1)
                s.events.append(line)
                for fd in s.watchers where !Self.write(fd, line) { shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }
    }

    /// Sends `line` to every watcher (not kept for replays).
    public func push(_ line: String) {
        for fd in state.withLockedValue({ $0.watchers }) { _ = Self.write(fd, line) }
    }

    /// Drops the watchers, as a daemon restart does; the socket stays served.
    public func dropClient() {
        state.withLockedValue { s in
            for fd in s.watchers { shutdown(fd, Int32(SHUT_RDWR)) }
            s.watchers = []
        }
    }

    /// Stops listening and closes every connection, as a daemon that exits.
    public func stop() {
        let fds = state.withLockedValue { s in
            s.stopped = true
            defer { (s.connections, s.watchers) = ([], []) }
            return s.connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            let added = state.withLockedValue { s in
                guard !s.stopped else { return false }
                s.connections.insert(fd)
                return true
            }
            guard added else { close(fd); return }
            Thread.detachNewThread { [self] in serve(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        let banner = VersionBanner(release: "0.1.0", protoMajor: 1, protoMinor: numbered ? 3 : 1, zxing: "3.1.1")
        _ = Self.write(fd, EventEncoder.line(.version(banner), stamp: numbered ? EventStamp(boot: boot) : nil))
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            buffer += chunk[..<n]
            while let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                respond(to: line, on: fd)
            }
        }
        state.withLockedValue { s in
            s.connections.remove(fd)
            s.watchers.remove(fd)
        }
        close(fd)
    }

    private func respond(to line: String, on fd: Int32) {
        state.withLockedValue { s in
            s.requests.append(line)
            let request: ClientRequest
            do { request = try ClientRequest.parse(line) } catch {
                _ = Self.write(fd, Event.error("\(error)").line)
                return
            }
            guard case .watch(let watch) = request else {
                _ = Self.write(fd, answer(request).line)
                return
            }
            _ = Self.write(fd, Event.watch(watch).line)
            if numbered, let since = watch.since {
                // As the daemon: what came after a position of this boot it holds; for any other (another boot's,
                // one ahead of its last event), an ERROR, then all it keeps.
                var after = since.seq
                if since.boot != boot || since.seq > s.events.count {
                    after = 0
                    let what =
                        s.events.isEmpty
                        ? "which is empty; live events follow" : "it is not from this journal: the journal keeps seq 1…\(s.events.count)"
                    _ = Self.write(fd, Event.error("since \(since.json) is not in the journal, \(what)").line)
                }
                for line in s.events.dropFirst(after) { _ = Self.write(fd, EventEncoder.markingReplayed(line)) }
            }
            s.watchers.insert(fd)
        }
    }

    static func write(_ fd: Int32, _ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
