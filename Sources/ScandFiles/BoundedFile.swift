import Glibc

/// Reads a whole file that must be small for its purpose (a configuration, a kept setting, an image),
/// with the bound checked before memory is committed: a wrong path, a device, a FIFO or a huge (or sparse)
/// file is refused in words rather than read for ever or into gigabytes. The bytes are read once, into
/// the array returned.
public enum BoundedFile {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public enum Kind: Sendable, Equatable {
            /// No file at the path (ENOENT).
            case missing
            /// Not a regular file: a directory, FIFO, device or socket.
            case notRegular
            /// Larger than the bound.
            case tooLarge
            /// Any other error of open, fstat or read.
            case unreadable
        }
        public var kind: Kind
        /// Why, in words, lower case: `no such file or directory`, `it is a FIFO, not a regular file`,
        /// `1048577 bytes, larger than 1 MiB`, ….
        public var reason: String
        public var description: String { reason }

        public init(kind: Kind, reason: String) {
            self.kind = kind
            self.reason = reason
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them. Opened without blocking and
    /// without following a terminal: a FIFO is refused, not waited on.
    public static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        func failure(_ kind: Failure.Kind, _ reason: String) -> Failure { Failure(kind: kind, reason: reason) }
        func error(_ code: Int32) -> Failure {
            failure(code == ENOENT ? .missing : .unreadable, String(cString: strerror(code)).lowercased())
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw error(errno) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw error(errno) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw failure(.notRegular, "it is a directory")
        case S_IFIFO: throw failure(.notRegular, "it is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw failure(.notRegular, "it is a device, not a regular file")
        case S_IFSOCK: throw failure(.notRegular, "it is a socket, not a regular file")
        default: throw failure(.notRegular, "it is not a regular file")
        }
        let bound = max(0, maxBytes)
        func tooLarge(_ size: String) -> Failure { failure(.tooLarge, "\(size), larger than \(describe(bound))") }
        if Int(st.st_size) > bound { throw tooLarge("\(st.st_size) bytes") }
        // Read as a stream is, starting with room for the size fstat told: a file that grew past the bound
        // while it was read is refused too.
        return try read(descriptor: fd, maxBytes: bound, expecting: Int(st.st_size))
    }

    /// All the bytes of an open descriptor that has no size to check first (standard input, a pipe), at
    /// most `maxBytes`: memory grows with what arrives, 64 KiB at a time, and a stream longer than the bound
    /// is refused as soon as it passes it, not read to its end. `expecting`: the size the caller expects (a
    /// file's, from fstat), room for which is made at once.
    public static func read(descriptor fd: Int32, maxBytes: Int, expecting size: Int = 0) throws(Failure) -> [UInt8] {
        let bound = max(0, maxBytes)
        var bytes = [UInt8](repeating: 0, count: size > 0 ? min(size, bound) + 1 : 0)
        var count = 0
        while true {
            if count == bytes.count {
                // One byte past the bound is room enough to see that the stream is longer.
                guard count <= bound else { break }
                bytes.append(contentsOf: repeatElement(0, count: min(65536, bound + 1 - count)))
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure(kind: .unreadable, reason: String(cString: strerror(errno)).lowercased()) }
            if n == 0 { break }
            count += n
        }
        if count > bound { throw Failure(kind: .tooLarge, reason: "more than \(describe(bound))") }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// `1 MiB`, `128 MiB`, `4096 bytes`: a bound in words.
    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
