import Foundation

/// A plain Unix-socket client, as a kiosk application would be.
public final class SocketClient: @unchecked Sendable {
    public let fd: Int32
    private var buffer = [UInt8]()

    /// Nil when nothing answers at `path`; a read or send gives up after `seconds` of silence.
    public init?(path: String, seconds: Int = 10) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard UnixSocket.connect(fd, to: path) == 0 else {
            close(fd)
            return nil
        }
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends what the daemon takes (it may close the connection: no SIGPIPE, the rest is not sent).
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// The next line, nil at end of stream or after the client's seconds of silence.
    public func readLine() -> String? {
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
    public func read(until match: (String) -> Bool) -> String? {
        while let line = readLine() { if match(line) { return line } }
        return nil
    }

    public func readAll() -> [String] {
        var lines: [String] = []
        while let l = readLine() { lines.append(l) }
        return lines
    }
}
