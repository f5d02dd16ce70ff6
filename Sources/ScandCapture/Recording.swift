import Foundation
import Glibc
import ScandCore
import ScandProtocol
import ScandRuntime

/// scand's recording of frames. Version 1, for raw frames: a first line `SCANDREC1 {json header}` naming
/// the format, then per frame 8 bytes of capture time (µs, little endian), 8 bytes of sequence number and
/// `imageSize` bytes. Version 2, for compressed frames (MJPEG) whose size varies: `SCANDREC2 {json header}`
/// with `imageSize` the largest frame, then per frame the same 16 bytes, 4 bytes of length (little endian)
/// and that many bytes, as the camera sent them. `scand record` and `scand synth` write them, `scand run
/// --source replay:FILE` plays both back through the same pipeline.
public enum Recording {
    static let magic = "SCANDREC1 "
    static let compressedMagic = "SCANDREC2 "

    /// The header line of a recording of frames in `f`: version 2 for compressed formats, else 1.
    public static func header(_ f: FrameFormat) -> String {
        let json = JSONValue.object([
            ("pixelformat", .string(f.fourcc.description)), ("width", .int(f.width)), ("height", .int(f.height)),
            ("bytesPerLine", .int(f.bytesPerLine)), ("imageSize", .int(f.imageSize))
        ])
        return (f.isCompressed ? compressedMagic : magic) + json.serialized() + "\n"
    }

    /// The header's JSON object (any spacing and key order; unknown keys ignored).
    private struct Header: Decodable {
        var pixelformat: String
        var width, height, bytesPerLine, imageSize: Int
    }

    /// Parses the header line; the inverse of `header`. nil for a header that is no JSON object of these
    /// keys, or whose sizes no frame has (`FrameFormat.problem`; a number beyond Int does not decode).
    public static func parseHeader(_ line: String) -> FrameFormat? {
        let compressed = line.hasPrefix(compressedMagic)
        guard line.hasPrefix(magic) || compressed,
            let h = try? JSONDecoder().decode(Header.self, from: Data(line.utf8.dropFirst(magic.utf8.count))),
            (1...4).contains(h.pixelformat.utf8.count)
        else { return nil }
        let f = FrameFormat(fourcc: FourCC(h.pixelformat), width: h.width, height: h.height, bytesPerLine: h.bytesPerLine, imageSize: h.imageSize)
        guard f.problem == nil else { return nil }
        if compressed { return f.isCompressed ? f : nil }
        return h.bytesPerLine > 0 && !f.isCompressed ? f : nil
    }

    /// Appends frames to a file.
    public final class Writer {
        private let file: UnsafeMutablePointer<FILE>
        public let path: String
        public let format: FrameFormat
        /// Without header and frame stamps: frames back to back, as `v4l2-ctl --stream-from` reads them.
        public let raw: Bool

        public init(path: String, format: FrameFormat, raw: Bool = false) throws(CaptureError) {
            guard let f = fopen(path, "wb") else { throw CaptureError(.io, path: path, detail: String(cString: strerror(errno))) }
            self.file = f
            self.path = path
            self.format = format
            self.raw = raw
            if !raw { try write(Array(Recording.header(format).utf8)) }
        }

        deinit { fclose(file) }

        public func append(_ frame: Frame) throws(CaptureError) {
            let bytes = frame.bytes
            if format.isCompressed {
                guard !raw else { throw CaptureError(.io, path: path, detail: "compressed frames need a recording's frame lengths") }
                guard !bytes.isEmpty, bytes.count <= format.imageSize else {
                    throw CaptureError(.io, path: path, detail: "a frame of \(bytes.count) bytes, the recording allows 1…\(format.imageSize)")
                }
            } else {
                guard bytes.count >= format.imageSize else { throw CaptureError(.io, path: path, detail: "short frame") }
            }
            if !raw {
                var stamp = frame.timestampMicroseconds.littleEndian, seq = frame.sequence.littleEndian
                var head = withUnsafeBytes(of: &stamp) { Array($0) } + withUnsafeBytes(of: &seq) { Array($0) }
                if format.isCompressed {
                    var length = UInt32(bytes.count).littleEndian
                    head += withUnsafeBytes(of: &length) { Array($0) }
                }
                try write(head)
            }
            try write(format.isCompressed ? bytes : Array(bytes.prefix(format.imageSize)))
        }

        public func finish() throws(CaptureError) {
            if fflush(file) != 0 { throw CaptureError(.io, path: path, detail: String(cString: strerror(errno))) }
        }

        private func write(_ bytes: [UInt8]) throws(CaptureError) {
            let n = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            if n != bytes.count { throw CaptureError(.io, path: path, detail: String(cString: strerror(errno))) }
        }
    }
}

/// Plays a recording back as a frame source (gpsfake-style): at the pace it was recorded, or as fast as
/// the pipeline takes frames.
public final class ReplaySource: FrameSource {
    public enum Pace: Sendable {
        /// As captured, stamped with the replay's own clock.
        case recorded
        /// As fast as the decoder takes them, none dropped, with the recorded stamps: the same events on
        /// every run (golden tests).
        case lockstep
        /// As fast as frames are read, stamped with the replay's own clock, dropping what the decoder cannot
        /// take: a stress of the dropping, at a pace no camera has (tests).
        case flood

        /// How a capture session hands this pace's frames to the decoder.
        public var delivery: CaptureSession.Delivery {
            switch self {
            case .recorded, .flood: .newest
            case .lockstep: .every
            }
        }

        /// The frames keep their recorded stamps: the pipeline's time is theirs, and it has no clock of its own.
        public var keepsRecordedStamps: Bool { self == .lockstep }

        /// The pipeline's clock at this pace: none but the recorded stamps when the frames keep them.
        public var clock: PipelineClock {
            keepsRecordedStamps ? PipelineClock(now: { nil }) : .monotonic
        }
    }

    public let name: String
    public let pace: Pace
    public var waitsForDevice: Bool { false }
    private var reader: RecordingReader?
    private var format: FrameFormat?
    private var firstStamp: UInt64?
    private var startedAt: UInt64 = 0
    private var lumaMemory: FrameMemoryAllocator?
    /// The file's frame bytes, read into the same array each time when frames go on into shared memory.
    private var scratch: [UInt8] = []
    /// A frame read but not yet due (recorded pace): waits are sliced so that a stop is never held up.
    private var pending: (bytes: [UInt8], sequence: UInt64, stamp: UInt64)?
    /// Frames read so far and the byte offset of the next one, to say where a recording breaks off.
    private var framesRead = 0
    private var offset = 0

    /// How long a pipe's writer may take to send the header: open() cannot be stopped while it waits.
    static let headerPatienceMilliseconds = 10_000

    public init(path: String, pace: Pace = .recorded) {
        self.name = path
        self.pace = pace
    }

    deinit { close() }

    public func open() throws(CaptureError) -> FrameFormat {
        close()
        let reader = try RecordingReader(path: name)
        guard let header = reader.headerLine(maxBytes: 4096, timeoutMilliseconds: Self.headerPatienceMilliseconds),
            let format = Recording.parseHeader(header.line)
        else {
            let waited = reader.isRegularFile ? "" : " within \(Self.headerPatienceMilliseconds / 1000) s"
            throw CaptureError(.badRecording, path: name, detail: "missing or malformed SCANDREC1 or SCANDREC2 header\(waited)")
        }
        offset = header.bytes
        framesRead = 0
        // A header may declare frames of hundreds of MB: a file too short to hold one is refused before
        // anything that size is allocated.
        if let size = reader.size {
            let after = size - offset
            if after > 0 && !format.isCompressed && after < 16 + format.imageSize {
                throw CaptureError(
                    .truncatedRecording, path: name,
                    detail: "in frame 1 at byte \(offset): its header declares frames of \(format.imageSize) bytes, the file holds \(after) after it")
            }
        }
        self.reader = reader
        self.format = format
        firstStamp = nil
        pending = nil
        startedAt = Monotonic.microseconds()
        return format
    }

    public func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
        guard let format else { throw CaptureError(.io, path: name, detail: "not open") }
        if pending == nil { pending = try readFrame(format, timeoutMilliseconds: timeoutMilliseconds) }
        guard let frame = pending else { return nil }
        if pace == .recorded {
            let wait = delay(until: frame.stamp)
            if wait > UInt64(max(1, timeoutMilliseconds)) * 1000 {
                Monotonic.pause(microseconds: UInt64(max(0, timeoutMilliseconds)) * 1000)
                return nil
            }
            if wait > 0 { Monotonic.pause(microseconds: wait) }
        }
        pending = nil
        let time = pace.keepsRecordedStamps ? frame.stamp : Monotonic.microseconds()
        if !format.isCompressed, let memory = lumaMemory?(format.width * format.height) {
            defer { scratch = frame.bytes }
            if let captured = frame.bytes.withUnsafeBytes({
                Frame.capturingLuma(of: $0, format: format, into: memory, sequence: frame.sequence, timestampMicroseconds: time)
            }) {
                return captured
            }
        }
        return Frame(format: format, bytes: frame.bytes, sequence: frame.sequence, timestampMicroseconds: time)
    }

    /// The next frame's stamp, sequence and bytes, nil when it has not all arrived within the timeout (a
    /// pipe's writer is slow: what came is kept); throws `.endOfStream` at a clean end and
    /// `.truncatedRecording`, saying where, when the file ends inside a frame.
    private func readFrame(
        _ format: FrameFormat, timeoutMilliseconds: Int
    ) throws(CaptureError) -> (
        bytes: [UInt8], sequence: UInt64, stamp: UInt64
    )? {
        guard let reader else { throw CaptureError(.io, path: name, detail: "not open") }
        // Version 2 (compressed frames) adds each frame's length to its header.
        let headSize = format.isCompressed ? 20 : 16
        let outcome = try reader.nextFrame(headSize: headSize, timeoutMilliseconds: timeoutMilliseconds, reuse: &scratch) {
            (head) throws(CaptureError) -> Int in
            let stamp = Self.littleEndian(head[0..<8])
            guard stamp <= Frame.maxTimestampMicroseconds else {
                throw CaptureError(
                    .badRecording, path: name,
                    detail: "frame \(framesRead + 1) at byte \(offset) is stamped \(stamp) µs, beyond \(Frame.maxTimestampMicroseconds)")
            }
            guard format.isCompressed else { return format.imageSize }
            let size = Int(Self.littleEndian(head[16..<20]))
            guard (1...format.imageSize).contains(size) else {
                throw CaptureError(
                    .badRecording, path: name,
                    detail: "frame \(framesRead + 1) at byte \(offset) declares \(size) bytes, the header allows 1…\(format.imageSize)")
            }
            return size
        }
        switch outcome {
        case .waiting:
            return nil
        case .atEnd:
            throw CaptureError(.endOfStream, path: name)
        case .endedInHead(let got):
            throw CaptureError(
                .truncatedRecording, path: name,
                detail: "in frame \(framesRead + 1) at byte \(offset): \(got) of its \(headSize) header bytes are there")
        case .endedInBody(let got, let size):
            throw CaptureError(
                .truncatedRecording, path: name,
                detail: "in frame \(framesRead + 1) at byte \(offset): \(got) of its \(size) image bytes are there")
        case .frame(let head, let body):
            framesRead += 1
            offset += headSize + body.count
            return (body, Self.littleEndian(head[8..<16]), Self.littleEndian(head[0..<8]))
        }
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    public func captureLuma(into allocate: @escaping FrameMemoryAllocator) { lumaMemory = allocate }

    public func close() {
        reader = nil
        format = nil
        pending = nil
    }

    /// Microseconds until the frame's offset from the first frame has passed since the replay began.
    private func delay(until stamp: UInt64) -> UInt64 {
        guard let first = firstStamp else {
            firstStamp = stamp
            return 0
        }
        let due = stamp >= first ? stamp - first : 0
        let elapsed = Monotonic.microseconds() - startedAt
        return due > elapsed ? due - elapsed : 0
    }
}
