import Foundation

/// connect(2) and bind(2) on a Unix socket path, for scand's own clients, its check of a path in use and
/// its listening socket: here, where the daemon and its clients may both use it.
public enum UnixSocketAddress {
    /// 0 when connected, otherwise the errno (ENAMETOOLONG for a path that does not fit sun_path).
    public static func connect(_ fd: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.connect(fd, $0, $1) }
    }

    /// 0 when bound, otherwise the errno.
    public static func bind(_ fd: Int32, to path: String) -> Int32 {
        withAddress(path) { Glibc.bind(fd, $0, $1) }
    }

    private static func withAddress(_ path: String, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return r == 0 ? 0 : errno
    }
}
