import Glibc
import ScandRuntime

/// Reads a recording, from a file or a pipe (a FIFO fed by `scand synth` or another program), never
/// blocking longer than it is asked to: the capture session polls its source with a timeout and honours
/// a stop between polls, so a writer that stalls must cost a timeout, not the daemon's SIGTERM. A frame is
/// read in pieces as its bytes arrive and kept between calls; memory grows with what arrived, not with what
/// the file declares.
final class RecordingReader {
    private let fd: Int32
    let isRegularFile: Bool
    /// The file's size when opened (regular files only).
    let size: Int?

    /// The next frame as far as it has arrived.
    private var head: [UInt8] = []
    private var headGot = 0
    private var body: [UInt8] = []
    private var bodyGot = 0
    /// The body's length, once the head says it.
    private var bodySize: Int?
    /// Bytes of a frame's body read at a time before the body has shown it is there.
    static let chunk = 4 << 20

    enum Outcome {
        /// A whole frame: its head and body.
        case frame(head: [UInt8], body: [UInt8])
        /// Nothing more within the time allowed; what arrived is kept for the next call.
        case waiting
        /// The file ended between frames.
        case atEnd
        /// The file ended after `got` bytes of the frame's head.
        case endedInHead(got: Int)
        /// The file ended after `got` bytes of the frame's body of `size`.
        case endedInBody(got: Int, size: Int)
    }

    init(path: String) throws(CaptureError) {
        // Without blocking: opening a FIFO waits for a writer otherwise. A FIFO with no writer yet polls as
        // not readable, so the reads below wait for one in bounded slices.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw CaptureError(.badRecording, path: path, detail: String(cString: strerror(errno)).lowercased()) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw CaptureError(.badRecording, path: path, detail: String(cString: strerror(code)).lowercased())
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFSOCK, S_IFCHR: break
        default:
            close(fd)
            throw CaptureError(.badRecording, path: path, detail: "not a file or a pipe")
        }
        self.fd = fd
        isRegularFile = (st.st_mode & S_IFMT) == S_IFREG
        size = isRegularFile ? Int(st.st_size) : nil
    }

    deinit { close(fd) }

    /// The header line, at most `maxBytes` with its newline, waiting at most `timeoutMilliseconds` for it;
    /// nil when it did not come whole (no newline within the bound, the file ended, or the time ran out).
    func headerLine(maxBytes: Int, timeoutMilliseconds: Int) -> (line: String, bytes: Int)? {
        let deadline = Monotonic.microseconds() + UInt64(max(0, timeoutMilliseconds)) * 1000
        var line: [UInt8] = []
        var byte: UInt8 = 0
        // Byte by byte: the frames right after it must stay unread. A header is about 100 bytes.
        while line.count < maxBytes {
            guard let n = readSome(&byte, 1, deadline: deadline), n == 1 else { return nil }
            line.append(byte)
            if byte == 0x0A { return (String(decoding: line, as: UTF8.self), line.count) }
        }
        return nil
    }

    /// The next frame: `headSize` bytes of head, then as many bytes as `sizeOfBody(head)` says (it throws
    /// when it refuses the head). Waits at most `timeoutMilliseconds` for bytes.
    func nextFrame(
        headSize: Int, timeoutMilliseconds: Int, reuse scratch: inout [UInt8], sizeOfBody: ([UInt8]) throws(CaptureError) -> Int
    ) throws(CaptureError) -> Outcome {
        let deadline = Monotonic.microseconds() + UInt64(max(0, timeoutMilliseconds)) * 1000
        if head.count != headSize {
            head = [UInt8](repeating: 0, count: headSize)
            headGot = 0
        }
        while headGot < headSize {
            switch fill(&head, from: headGot, deadline: deadline) {
            case .some(0): return headGot == 0 ? .atEnd : .endedInHead(got: headGot)
            case .some(let n): headGot += n
            case nil: return .waiting
            }
        }
        if bodySize == nil {
            let size = try sizeOfBody(head)
            self.bodySize = size
            // The common case, frames of one size, reads into the array the previous frame left.
            body = scratch.count == size ? scratch : []
            if !body.isEmpty { scratch = [] }
            bodyGot = 0
        }
        let size = self.bodySize ?? 0
        while bodyGot < size {
            if bodyGot == body.count {
                // Grown with what arrives: doubling, from one chunk, up to the declared size.
                let grown = min(size, max(Self.chunk, body.count * 2))
                body.append(contentsOf: repeatElement(0, count: grown - body.count))
            }
            switch fill(&body, from: bodyGot, deadline: deadline) {
            case .some(0): return .endedInBody(got: bodyGot, size: size)
            case .some(let n): bodyGot += n
            case nil: return .waiting
            }
        }
        defer {
            head = []
            headGot = 0
            body = []
            bodyGot = 0
            bodySize = nil
        }
        return .frame(head: head, body: body)
    }

    /// Reads into `buffer[from...]`: the count read, 0 at the end of the file, nil when nothing came
    /// before `deadline`.
    private func fill(_ buffer: inout [UInt8], from start: Int, deadline: UInt64) -> Int? {
        buffer.withUnsafeMutableBytes { readSome($0.baseAddress! + start, $0.count - start, deadline: deadline) }
    }

    /// One read of at most `count` bytes: the count, 0 at the end (or a read error, which ends the
    /// recording as a cut would), nil when no byte came before `deadline`.
    private func readSome(_ into: UnsafeMutableRawPointer, _ count: Int, deadline: UInt64) -> Int? {
        while true {
            // A pipe is polled first: read() answers 0, as at its end, while no writer has opened it yet;
            // poll() tells that apart (no POLLHUP before a writer came and went).
            if !isRegularFile { guard wait(until: deadline) else { return nil } }
            let n = read(fd, into, count)
            if n >= 0 { return n }
            guard errno == EAGAIN || errno == EINTR else { return 0 }
            if isRegularFile { guard wait(until: deadline) else { return nil } }
        }
    }

    /// Polls for bytes (or the end) until `deadline`, or just looks once it has passed; false when none came.
    private func wait(until deadline: UInt64) -> Bool {
        let now = Monotonic.microseconds()
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = now < deadline ? Int32(min(UInt64(Int32.max), (deadline - now + 999) / 1000)) : 0
        let r = poll(&p, 1, ms)
        return r > 0 || (r < 0 && errno == EINTR && now < deadline)
    }
}
