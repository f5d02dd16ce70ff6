import Foundation
import ScandFiles

/// Taking a socket path over safely: first an exclusive lock on `<path>.lock` (flock, held for the daemon's
/// life and let go by the kernel when it ends), so that of daemons starting at once exactly one goes on and
/// the others stop with the reason; then a path another server answers on is refused (a second daemon must
/// not take the first one's clients, nor have its socket deleted when the first one exits); a stale socket
/// file that nobody answers on is removed; anything that is not a socket is left alone.
enum SocketPathClaim {
    /// Claims `path`; returns the lock's descriptor, to keep open while the socket is served.
    static func claim(_ path: String) throws(SocketServer.BindError) -> Int32 {
        let lock = try self.lock(path)
        do { try check(path) } catch {
            release(lock)
            throw error
        }
        return lock
    }

    /// Lets the lock go and closes it. The unlock comes first: a decoder process this process is starting
    /// shares the open file for the moment before its exec closes it (posix_spawn copies the descriptor
    /// table first), and a close alone would leave the lock held through it, refusing this process's next
    /// claim (a server stopped and started in-process).
    static func release(_ lock: Int32) {
        _ = flock(lock, LOCK_UN)
        close(lock)
    }

    /// Takes `<path>.lock` (the lock file stays: removing it would let two daemons lock two files), and
    /// writes this daemon's pid into it for the next one's message.
    static func lock(_ path: String) throws(SocketServer.BindError) -> Int32 {
        let lockPath = path + ".lock"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw SocketServer.BindError(description: "cannot lock \(lockPath): \(String(cString: strerror(errno)).lowercased())")
        }
        // The lock belongs to the open file, which a decoder process being started shares for a moment: it
        // is let go explicitly (`release`), so that this very process finds it free again at once.
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            var bytes = [UInt8](repeating: 0, count: 32)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            let pid = n > 0 ? Int(String(decoding: bytes[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            close(fd)
            guard e == EWOULDBLOCK else {
                throw SocketServer.BindError(description: "cannot lock \(lockPath): \(String(cString: strerror(e)).lowercased())")
            }
            throw SocketServer.BindError(
                description: "\(path) is in use: another scand\(pid.map { " (pid \($0))" } ?? "") holds \(lockPath); stop it first")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return fd
    }

    static func check(_ path: String) throws(SocketServer.BindError) {
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
