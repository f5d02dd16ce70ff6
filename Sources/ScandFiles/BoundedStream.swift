import Glibc

extension BoundedFile {
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
}
