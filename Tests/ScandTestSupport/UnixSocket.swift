import Foundation

/// A Unix socket's address from its path, for the tests' own ends (clients, rivals, notify sockets).
public enum UnixSocket {
    /// connect(2) of `fd` to the socket at `path`: 0, or the errno.
    public static func connect(_ fd: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.connect(fd, $0, $1) == 0 ? 0 : errno }
    }

    /// bind(2) of `fd` to `path`: 0, or the errno.
    public static func bind(_ fd: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.bind(fd, $0, $1) == 0 ? 0 : errno }
    }

    /// A socket of `type` bound to `path` (a test's own end: systemd's notify socket, a rival's socket
    /// file), nil when it cannot be.
    public static func bound(_ path: String, type: __socket_type) -> Int32? {
        let fd = socket(AF_UNIX, Int32(type.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard bind(fd, to: path) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
