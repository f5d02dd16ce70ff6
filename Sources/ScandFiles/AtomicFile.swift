import Glibc

/// A small file replaced whole or not at all: written to a temporary file of a name of its own beside it
/// (`NAME.new.XXXXXX`, so no other writer can rename or remove it in between), fsynced, renamed over the
/// old one, and the directory fsynced so that the rename itself survives a power cut. A crash leaves the
/// old contents or the new ones, never half of them.
public enum AtomicFile {
    public struct Failure: Error, CustomStringConvertible {
        /// What failed and why, in words (`cannot write …: No space left on device`).
        public var description: String
    }

    /// With `creatingDirectory`, the directories up to the file's are made first where missing (0755).
    public static func replace(
        _ path: String, with contents: [UInt8], permissions: mode_t = 0o644, creatingDirectory: Bool = false
    ) throws(Failure) {
        func failure(_ what: String, _ code: Int32 = errno) -> Failure { Failure(description: "\(what): \(String(cString: strerror(code)))") }
        if creatingDirectory { try makeDirectories(directory(of: path)) }
        var template = Array((path + ".new.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a file beside \(path)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var problem: Failure?
        if fchmod(fd, permissions) != 0 { problem = failure("cannot set the permissions of \(temporary)") }
        var offset = 0
        while problem == nil, offset < contents.count {
            let n = contents[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { problem = n < 0 ? failure("cannot write \(temporary)") : Failure(description: "cannot write \(temporary): short write") }
            offset += max(n, 0)
        }
        if problem == nil, fsync(fd) != 0 { problem = failure("cannot write \(temporary)") }
        close(fd)
        if problem == nil, rename(temporary, path) != 0 { problem = failure("cannot rename \(temporary) to \(path)") }
        if let problem {
            unlink(temporary)
            throw problem
        }
        let dirfd = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }

    static func directory(of path: String) -> String {
        let slash = path.lastIndex(of: "/")
        return slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    /// `mkdir -p`: each missing directory down to `directory`, one that exists already is fine.
    static func makeDirectories(_ directory: String) throws(Failure) {
        var made = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o755) != 0, errno != EEXIST {
                throw Failure(description: "cannot create the directory \(made): \(String(cString: strerror(errno)))")
            }
        }
    }
}
