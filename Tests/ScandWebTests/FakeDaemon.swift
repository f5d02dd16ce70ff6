import Foundation
import ScandCore
import ScandProtocol
import Synchronization

/// A daemon's socket served by the test itself, speaking the contract: VERSION on connect, one answer per
/// request line (from `answer`), and lines pushed to the connections that asked `?WATCH=`. Blocking calls
/// on threads of its own, never on the test's tasks.
final class FakeDaemon: Sendable {
    let path: String
    private let listener: Int32
    private let answer: @Sendable (String) -> String?
    private struct State {
        var requests: [String] = []
        var connections: Set<Int32> = []
        var watchers: Set<Int32> = []
        var stopped = false
    }
    private let state = Mutex(State())

    static let banner = Event.version(VersionBanner(release: "0.1.0", protoMajor: 1, protoMinor: 2, zxing: "3.1.1")).line

    /// - Parameter answer: the line answering a request (nil: no answer at all).
    init(path: String, answer: @escaping @Sendable (String) -> String?) throws {
        self.path = path
        self.answer = answer
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        Thread { [self] in acceptLoop() }.start()
    }

    var requests: [String] { state.withLock { $0.requests } }
    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Sends `line` to every watching connection.
    func push(_ line: String) {
        for fd in state.withLock({ $0.watchers }) { Self.write(fd, line) }
    }

    /// Stops listening and closes every connection, as a daemon that exits.
    func stop() {
        let fds = state.withLock { s in
            s.stopped = true
            defer { s.connections = []; s.watchers = [] }
            return s.connections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        unlink(path)
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            let added = state.withLock { s in
                guard !s.stopped else { return false }
                s.connections.insert(fd)
                return true
            }
            guard added else { close(fd); return }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        Self.write(fd, Self.banner)
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            buffer += chunk[..<n]
            while let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                state.withLock { $0.requests.append(line) }
                if case .watch(let watch)? = try? ClientRequest.parse(line) {
                    Self.write(fd, Event.watch(watch).line)
                    state.withLock { _ = $0.watchers.insert(fd) }
                } else if let reply = answer(line) {
                    Self.write(fd, reply)
                }
            }
        }
        state.withLock { s in
            s.connections.remove(fd)
            s.watchers.remove(fd)
        }
        close(fd)
    }

    private static func write(_ fd: Int32, _ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Waits (polling) until `condition` holds, up to `seconds`: for what another task does in its own time.
    /// Waits long: on a 2-core machine, blocking end-to-end suites can hold both threads of the cooperative
    /// pool for minutes, and the server under test runs its tasks there.
    static func eventually(seconds: Double = 300, _ condition: () -> Bool) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

/// The answers of a daemon that has a frame and lets the test's uid change settings.
enum Contract {
    static let status = Event.status(
        StatusReport(
            device: DeviceStatus(device: "/dev/video0", state: .streaming, format: FrameFormat.packed(.yuyv, width: 1280, height: 720)),
            counters: counters, clients: ClientCounters(), stdoutDropped: 0, regionOfInterest: .full)
    ).line
    static var counters: FrameCounters {
        var c = FrameCounters()
        (c.captured, c.decoded) = (18, 17)
        return c
    }
    static let snapshot = Event.snapshot(
        Snapshot(frame: 812, width: 640, height: 360, sourceWidth: 1280, sourceHeight: 720, mimeType: "image/jpeg", data: [0xFF, 0xD8, 0xFF, 0xE0])
    ).line
    static let metrics = Event.metrics(
        "# HELP scand_frames_captured_total Frames captured.\n# TYPE scand_frames_captured_total counter\nscand_frames_captured_total 18\n"
    ).line
    static let refusal = Event.error("changing settings needs membership of group 'scand-admin' (uid 1000 is not a member)").line

    static func answer(_ request: String) -> String? {
        switch try? ClientRequest.parse(request) {
        case .status?: status
        case .snapshot?: snapshot
        case .metrics?: metrics
        case .setRegionOfInterest(let rect)?: Event.regionOfInterest(rect).line
        default: Event.error("unknown request").line
        }
    }

    static func temporarySocket() -> String {
        let dir = NSTemporaryDirectory() + "scand-web-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/scand.sock"
    }
}
