import Foundation

/// Taking a socket path over safely: a path another server answers on is refused (a second daemon must not
/// take the first one's clients, nor have its socket deleted when the first one exits); a stale socket file
/// that nobody answers on is removed; anything that is not a socket is left alone.
enum SocketPathClaim {
    static func claim(_ path: String) throws(SocketServer.BindError) {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw SocketServer.BindError(description: "cannot use \(path): \(String(cString: strerror(errno)).lowercased())")
        }
        guard (st.st_mode & S_IFMT) == S_IFSOCK else {
            throw SocketServer.BindError(description: "\(path) exists and is not a socket; remove it or choose another path")
        }
        switch probe(path) {
        case 0:
            throw SocketServer.BindError(description: "\(path) is in use: another scand (or another server) answers there; stop it first")
        case ECONNREFUSED:
            unlink(path)  // stale: its server is gone
        case let e:
            throw SocketServer.BindError(description: "cannot check whether \(path) is in use: \(String(cString: strerror(e)).lowercased())")
        }
    }

    /// 0 when something accepts connections on `path` (a full backlog counts: it is busy, not gone), else the errno.
    static func probe(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let e = UnixSocketAddress.connect(fd, to: path)
        return e == EAGAIN || e == EINPROGRESS ? 0 : e
    }
}

/// Which file a path names, to tell the socket file scand created from one put there since: device and
/// inode, and the change time, since a file system may give a new file the inode number just freed.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var changed: timespec

    init?(path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        changed = st.st_ctim
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
}
