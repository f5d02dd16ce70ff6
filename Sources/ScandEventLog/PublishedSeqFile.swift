import Foundation
import ScandCore
import ScandJournal
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
    static let width = 21

    let path: String
    private let fd: Int32
    /// The file is not exactly one record (a byte too many, say): the next write cuts it to one, or the
    /// record written would be followed by the stray bytes and be refused at every start.
    private var mustTruncate: Bool

    /// The seq in the file when it was opened: 0 when there was none, nil when the file said something
    /// else (`problem` says what).
    let lastSeq: Int?
    let problem: String?

    /// Opens (or creates) `<directory>/published-seq`; nil, with the reason, when it cannot be.
    static func open(directory: String) -> Result<PublishedSeqFile, PublishedSeqFileError> {
        let path = directory + "/" + fileName
        let fd = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o640)
        guard fd >= 0 else { return .failure(PublishedSeqFileError(path: path, errno: errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            return .failure(PublishedSeqFileError(path: path, errno: code))
        }
        // /dev/null there reads as empty and keeps nothing: the loss check would be off without a word.
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            let kind = [S_IFCHR: "a device", S_IFBLK: "a device", S_IFIFO: "a FIFO", S_IFSOCK: "a socket"][st.st_mode & S_IFMT] ?? "not a file"
            return .failure(PublishedSeqFileError(description: "\(path) is \(kind), not a regular file"))
        }
        return .success(PublishedSeqFile(path: path, fd: fd, size: Int(st.st_size)))
    }

    private init(path: String, fd: Int32, size: Int) {
        self.path = path
        self.fd = fd
        mustTruncate = size != 0 && size != Self.width
        switch Self.read(fd, size: size) {
        case .success(let seq):
            lastSeq = seq
            problem = nil
        case .failure(let why):
            lastSeq = nil
            problem = "\(path) \(why): ignored (events the journal lost before this start cannot be told), and written again whole"
        }
    }

    deinit { close(fd) }

    /// The record of a file of `size` bytes, read strictly: one that is longer is refused unread.
    private static func read(_ fd: Int32, size: Int) -> Result<Int, PublishedSeqFileError.Content> {
        guard size <= width else { return .failure(.init(description: "is \(size) bytes, not one \(width)-byte record")) }
        var buffer = [UInt8](repeating: 0, count: width)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { return .failure(.init(description: "cannot be read (\(String(cString: strerror(errno))))")) }
        return parse(Array(buffer[0..<n]))
    }

    /// The seq a record holds: 0 for an empty file; a failure saying why for anything but 20 digits and a
    /// newline, or a seq beyond `EventJournal.maxResumeSeq` (numbering on from it could run past what clients
    /// accept).
    static func parse(_ bytes: [UInt8]) -> Result<Int, PublishedSeqFileError.Content> {
        guard !bytes.isEmpty else { return .success(0) }
        guard bytes.count == width, bytes.last == 0x0A else {
            return .failure(.init(description: "is \(bytes.count) bytes, not one \(width)-byte record"))
        }
        let digits = bytes.dropLast()
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return .failure(.init(description: "holds no seq")) }
        // 20 digits can exceed Int: compared as text before converting.
        let text = String(decoding: digits.drop { $0 == 0x30 }, as: UTF8.self)
        let most = EventJournal.maxResumeSeq
        guard text.utf8.count <= String(most).utf8.count, let seq = Int(text.isEmpty ? "0" : text), seq <= most else {
            return .failure(.init(description: "holds a seq beyond \(most), too near 2^53−1 to number on from"))
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
        guard n == bytes.count else { return n < 0 ? errno : ENOSPC }
        if mustTruncate {
            guard ftruncate(fd, off_t(Self.width)) == 0 else { return errno }
            mustTruncate = false
        }
        return nil
    }
}

/// Why the published-seq file could not be opened or read.
struct PublishedSeqFileError: Error, CustomStringConvertible {
    var description: String

    init(path: String, errno code: Int32) {
        description = "cannot open \(path): \(String(cString: strerror(code)))"
    }

    init(description: String) { self.description = description }

    struct Content: Error, CustomStringConvertible {
        var description: String
    }
}
