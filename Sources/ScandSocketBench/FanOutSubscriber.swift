import Foundation
import Glibc

/// One WATCH client of `scand bench socket`: a Unix socket to the daemon, read without blocking, and what
/// its lines said — the WATCH answer, then the numbered events, whose `seq` must go up by one each time.
struct FanOutSubscriber {
    let fd: Int32
    /// Bytes of a line whose end has not come yet.
    private var partial: [UInt8] = []
    private(set) var watching = false
    private(set) var firstSeq: Int?
    private(set) var lastSeq: Int?
    /// Every numbered event came with the seq after the one before it.
    private(set) var inOrder = true
    /// Numbered events received with a seq above `countAbove`.
    private(set) var counted = 0
    var countAbove = Int.max
    private(set) var closed = false

    /// Connects to `path` and asks for every event.
    init(path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw BenchFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw BenchFailure("connect \(path): \(reason)")
        }
        let request = Array(#"?WATCH={"enable":true};"#.utf8) + [0x0A]
        guard write(fd, request, request.count) == request.count else {
            close(fd)
            throw BenchFailure("writing ?WATCH to \(path) failed")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    /// Reads what has arrived (at most a few reads' worth): false when nothing was there.
    @discardableResult
    mutating func read(into buffer: inout [UInt8]) -> Bool {
        var got = false
        for _ in 0..<8 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                got = true
                buffer.withUnsafeBufferPointer { consume(UnsafeBufferPointer(rebasing: $0[..<n])) }
                if n < buffer.count { break }
            } else {
                if n == 0 || (errno != EAGAIN && errno != EINTR) { finish() }
                break
            }
        }
        return got
    }

    /// The end of the connection: the daemon closed it (or dropped the client).
    mutating func finish() {
        guard !closed else { return }
        closed = true
        close(fd)
    }

    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                partial += bytes[start...]
                return
            }
            if partial.isEmpty {
                line(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            } else {
                partial += bytes[start..<end]
                let whole = partial
                partial = []
                whole.withUnsafeBufferPointer { line($0) }
            }
            start = end + 1
        }
    }

    private static let seqKey = Array(#""seq":"#.utf8)
    private static let watchPrefix = Array(#"{"class":"WATCH""#.utf8)

    /// One line: its seq if it has one (the key is among the first fields, before any payload).
    private mutating func line(_ l: UnsafeBufferPointer<UInt8>) {
        if l.starts(with: Self.watchPrefix) { watching = true }
        guard let seq = Self.seq(in: l) else { return }
        if let last = lastSeq, seq != last + 1 { inOrder = false }
        if firstSeq == nil { firstSeq = seq }
        lastSeq = seq
        if seq > countAbove { counted += 1 }
    }

    static func seq(in l: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = seqKey
        let limit = min(l.count, 160) - key.count
        guard limit >= 0 else { return nil }
        var i = 0
        while i <= limit {
            if l[i] == key[0] && l[i + 1] == key[1] && l[i + 2] == key[2] && l[i + 3] == key[3] && l[i + 4] == key[4] && l[i + 5] == key[5] {
                var j = i + key.count, value = 0, digits = 0
                while j < l.count, l[j] >= 0x30, l[j] <= 0x39 {
                    value = value * 10 + Int(l[j] - 0x30)
                    j += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }
}
