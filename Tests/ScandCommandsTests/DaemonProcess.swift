import Foundation
import ScandTestSupport

/// The real `scand` running in the background, started with posix_spawn and SIGTERM unblocked
/// (`SpawnedProcess`), its stdout and stderr collected line by line.
final class DaemonProcess: Sendable {
    let process: SpawnedProcess

    /// - Parameter stdoutUnread: stdout is a pipe (of one page) that nobody reads, as a stuck consumer's.
    init(_ arguments: [String], environment: [String: String] = [:], executable: String = ScandBinary.path, stdoutUnread: Bool = false) throws {
        process = try SpawnedProcess(executable, arguments, environment: environment, stdoutUnread: stdoutUnread)
    }

    var stdout: [String] { process.stdout }
    var stderr: [String] { process.stderr }

    /// Waits until `condition` holds, up to `seconds`.
    @discardableResult
    func wait(seconds: Double = 20, until condition: () -> Bool) -> Bool { Eventually.wait(seconds: seconds, until: condition) }

    func signal(_ sig: Int32) { process.signal(sig) }

    /// Waits for exit (after SIGKILL past `seconds`) and for the output to be read.
    func finish(seconds: Double = 20) -> Int32 { process.finish(seconds: seconds) }
}

/// A plain Unix-socket client, as a kiosk application would be.
final class SocketClient: @unchecked Sendable {
    let fd: Int32
    private var buffer = [UInt8]()

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 {
            close(fd)
            return nil
        }
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends what the daemon takes (it may close the connection: no SIGPIPE, the rest is not sent).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// The next line, nil at end of stream or after 10 s of silence.
    func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    /// Lines until one satisfies `match` (returned), or nil.
    func read(until match: (String) -> Bool) -> String? {
        while let line = readLine() { if match(line) { return line } }
        return nil
    }

    func readAll() -> [String] {
        var lines: [String] = []
        while let l = readLine() { lines.append(l) }
        return lines
    }
}

/// A Unix socket of `type` bound to `path` (a test's own end: systemd's notify socket, a rival's socket file).
func boundSocket(_ path: String, type: __socket_type) -> Int32? {
    let fd = socket(AF_UNIX, Int32(type.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let r = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, r == 0 else {
        close(fd)
        return nil
    }
    return fd
}
