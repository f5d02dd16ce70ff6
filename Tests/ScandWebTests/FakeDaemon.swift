import Foundation
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

    static let banner = #"{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":2,"zxing":"3.1.1"}"#

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
                if line.hasPrefix("?WATCH") {
                    Self.write(fd, #"{"class":"WATCH","enable":true}"#)
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
    static let status =
        #"{"class":"STATUS","device":{"path":"/dev/video0","state":"streaming","pixelformat":"YUYV","width":1280,"height":720},"captured":18,"dropped":0,"decoded":17,"clients":1,"watching":1,"roi":[0,0,1,1]}"#
    static let snapshot =
        #"{"class":"SNAPSHOT","frame":812,"width":640,"height":360,"sourceWidth":1280,"sourceHeight":720,"mime":"image/jpeg","data":"/9j/4AAQ"}"#
    static let metrics =
        ##"{"class":"METRICS","text":"# HELP scand_frames_captured_total Frames captured.\n# TYPE scand_frames_captured_total counter\nscand_frames_captured_total 18\n"}"##
    static let refusal = #"{"class":"ERROR","message":"changing settings needs membership of group 'scand-admin' (uid 1000 is not a member)"}"#

    static func answer(_ request: String) -> String? {
        switch request {
        case "?STATUS;": status
        case "?SNAPSHOT;": snapshot
        case "?METRICS;": metrics
        default:
            if request.hasPrefix("?ROI={") {
                #"{"class":"ROI","roi":[0.1,0.2,0.5,0.6]}"#
            } else {
                #"{"class":"ERROR","message":"unknown request"}"#
            }
        }
    }

    static func temporarySocket() -> String {
        let dir = NSTemporaryDirectory() + "scand-web-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/scand.sock"
    }
}
