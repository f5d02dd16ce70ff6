import Foundation
import ScandCore
import ScandProtocol

/// The last seq the daemon published, kept in a small file beside the journal (`published-seq`) and
/// written before each event is published. SQLite drops a damaged or cut write-ahead log from its first
/// bad frame, silently; this file does not go through SQLite, so at the next start the daemon knows how far
/// it had numbered, numbers on from there (never handing out a seq twice) and says which events the
/// journal lost. Written with one `pwrite` of a fixed-width record and no fsync: it survives the daemon
/// being killed, as the journal's commits do (`synchronous = NORMAL`).
final class PublishedSeqFile: @unchecked Sendable {  // an open descriptor; the caller serializes `record`
    static let fileName = "published-seq"
    /// 20 digits and a newline: any seq fits, and every write replaces the whole record.
    private static let width = 21

    let path: String
    private let fd: Int32

    /// The seq in the file when it was opened: 0 when there was none, nil when the file said something
    /// else (`problem` says what).
    let lastSeq: Int?
    let problem: String?

    /// Opens (or creates) `<directory>/published-seq`; nil, with the reason, when it cannot be.
    static func open(directory: String) -> Result<PublishedSeqFile, PublishedSeqFileError> {
        let path = directory + "/" + fileName
        let fd = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard fd >= 0 else { return .failure(PublishedSeqFileError(path: path, errno: errno)) }
        return .success(PublishedSeqFile(path: path, fd: fd))
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
        // Read with a bound: the record is 21 bytes; anything longer is not ours.
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        switch Self.parse(n > 0 ? Array(buffer[0..<n]) : []) {
        case .success(let seq):
            lastSeq = seq
            problem = nil
        case .failure(let why):
            lastSeq = nil
            problem = "\(path) \(why): ignored"
        }
    }

    deinit { close(fd) }

    /// The seq a record holds: 0 for an empty file, a failure saying why for anything but digits and a
    /// newline within 1…`EventPosition.maxSeq`.
    static func parse(_ bytes: [UInt8]) -> Result<Int, PublishedSeqFileError.Content> {
        guard !bytes.isEmpty else { return .success(0) }
        guard bytes.count <= width, bytes.last == 0x0A else { return .failure(.init(description: "is not a 21-byte record")) }
        let digits = bytes.dropLast()
        guard !digits.isEmpty, digits.count <= 20, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return .failure(.init(description: "holds no seq"))
        }
        // 20 digits can exceed Int: compared as text before converting.
        let text = String(decoding: digits.drop { $0 == 0x30 }, as: UTF8.self)
        guard text.count <= String(EventPosition.maxSeq).count, let seq = Int(text.isEmpty ? "0" : text), seq <= EventPosition.maxSeq else {
            return .failure(.init(description: "holds a seq beyond \(EventPosition.maxSeq)"))
        }
        return .success(seq)
    }

    static func record(_ seq: Int) -> [UInt8] {
        let digits = String(seq)
        return Array((String(repeating: "0", count: max(0, width - 1 - digits.utf8.count)) + digits + "\n").utf8)
    }

    /// Writes `seq` as the last published; the errno when the write failed (said by the caller).
    func record(_ seq: Int) -> Int32? {
        let bytes = Self.record(seq)
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return n == bytes.count ? nil : (n < 0 ? errno : ENOSPC)
    }
}

/// Why the published-seq file could not be opened or read.
struct PublishedSeqFileError: Error, CustomStringConvertible {
    var description: String

    init(path: String, errno code: Int32) {
        description = "cannot open \(path): \(String(cString: strerror(code)))"
    }

    struct Content: Error, CustomStringConvertible {
        var description: String
    }
}
