import Foundation
import ScandService

/// A blocking line client for a Unix stream socket.
final class UnixLineClient {
    struct ConnectError: Error, CustomStringConvertible {
        var description: String
        var exitCode: Int32
    }

    private let fd: Int32
    private var buffer = [UInt8]()

    init(path: String) throws(ConnectError) {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectError(description: "socket: \(String(cString: strerror(errno)))", exitCode: 71) }
        let e = UnixSocketAddress.connect(fd, to: path)
        if e != 0 {
            Glibc.close(fd)
            switch e {
            case ENAMETOOLONG:
                throw ConnectError(description: "socket path too long: \(path)", exitCode: 64)
            case ENOENT, ECONNREFUSED:
                throw ConnectError(
                    description: "scand is not running: nothing listens on \(path) (start it with `systemctl start scand` or `scand run`)",
                    exitCode: 69)
            case EACCES, EPERM:
                throw ConnectError(description: "permission denied on \(path): join the socket's group (usermod -aG GROUP USER)", exitCode: 77)
            default:
                throw ConnectError(description: "cannot connect to \(path): \(String(cString: strerror(e)))", exitCode: 69)
            }
        }
    }

    /// Whether the whole text was sent (false once the daemon has closed the connection; no SIGPIPE).
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// The next line without its newline; nil at end of stream.
    func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    func close() { Glibc.close(fd) }
}
