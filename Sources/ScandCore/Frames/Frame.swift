/// One captured frame: its bytes as the camera delivered them, or its luma alone when it was captured
/// into the decoder's shared memory (one copy out of the driver's buffer either way).
public struct Frame: Sendable {
    public var format: FrameFormat
    public var storage: Storage
    /// The driver's frame counter; gaps mean frames the driver itself dropped.
    public var sequence: UInt64
    /// Capture time, microseconds on the monotonic clock (CLOCK_MONOTONIC, as V4L2 stamps buffers); at
    /// most `maxTimestampMicroseconds`.
    public var timestampMicroseconds: UInt64

    /// The latest stamp a frame may carry: 2^53 µs, 285 years of uptime. Stamps from outside (a recording,
    /// a driver) beyond it are refused where they are read, so the pipeline's sums and `Duration`s of them
    /// cannot overflow.
    public static let maxTimestampMicroseconds: UInt64 = 1 << 53

    /// A driver's `timeval` in microseconds; nil when it is negative or beyond `maxTimestampMicroseconds`.
    public static func timestampMicroseconds(seconds: Int, microseconds: Int) -> UInt64? {
        guard seconds >= 0, microseconds >= 0, microseconds < 1_000_000, seconds <= Int(maxTimestampMicroseconds / 1_000_000) else { return nil }
        let stamp = UInt64(seconds) * 1_000_000 + UInt64(microseconds)
        return stamp <= maxTimestampMicroseconds ? stamp : nil
    }

    public enum Storage: Sendable {
        case array([UInt8])
        case shared(any FrameMemory)
    }

    public init(format: FrameFormat, bytes: [UInt8], sequence: UInt64, timestampMicroseconds: UInt64) {
        self.init(format: format, storage: .array(bytes), sequence: sequence, timestampMicroseconds: timestampMicroseconds)
    }

    public init(format: FrameFormat, storage: Storage, sequence: UInt64, timestampMicroseconds: UInt64) {
        self.format = format
        self.storage = storage
        self.sequence = sequence
        self.timestampMicroseconds = timestampMicroseconds
    }

    /// The bytes as an array (a copy when they live in shared memory): for recordings and tests.
    public var bytes: [UInt8] {
        get {
            switch storage {
            case .array(let a): a
            case .shared(let m): Array(UnsafeRawBufferPointer(m.bytes))
            }
        }
        set { storage = .array(newValue) }
    }

    public var byteCount: Int {
        switch storage {
        case .array(let a): a.count
        case .shared(let m): m.bytes.count
        }
    }

    /// The bytes where they are, without a copy.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .array(let a): try a.withUnsafeBytes(body)
        case .shared(let m): try withExtendedLifetime(m) { try body(UnsafeRawBufferPointer(m.bytes)) }
        }
    }

    /// The luma plane in place, without a copy, for `body` (which must not keep the view); nil when the frame's
    /// format has no luma plane or the frame does not hold all of it.
    public func withLumaView<R>(_ body: (LumaView) throws -> R) rethrows -> R? {
        let f = format
        guard let layout = f.lumaLayout, f.isComplete(byteCount) else { return nil }
        return try withUnsafeBytes { raw in
            try body(
                LumaView(
                    UnsafeRawBufferPointer(rebasing: raw[layout.offset...]), width: f.width, height: f.height, rowStride: f.bytesPerLine,
                    pixelStride: layout.pixelStride))
        }
    }

    /// The luma plane as a dense image (a copy), for orientation changes and tests.
    public func luma() -> LumaImage? {
        var pixels = [UInt8](repeating: 0, count: format.width * format.height)
        let copied = withUnsafeBytes { source in pixels.withUnsafeMutableBytes { Self.copyLuma(of: source, format: format, into: $0) } }
        return copied ? LumaImage(width: format.width, height: format.height, pixels: pixels) : nil
    }

    /// A YUYV frame with the given luma and neutral chroma: what generated test frames look like.
    public static func yuyv(_ luma: LumaImage, sequence: UInt64 = 0, timestampMicroseconds: UInt64 = 0) -> Frame {
        var bytes = [UInt8](repeating: 128, count: luma.width * luma.height * 2)
        for i in 0..<luma.pixels.count { bytes[2 * i] = luma.pixels[i] }
        return Frame(
            format: .packed(.yuyv, width: luma.width, height: luma.height), bytes: bytes, sequence: sequence,
            timestampMicroseconds: timestampMicroseconds)
    }

    /// The luma of a frame in `format` read from `source`, captured densely into `memory` as a GREY frame:
    /// the one copy a frame takes on its way from the driver to the decoder. nil when the format has no luma
    /// scand can read, the bytes are short, or the memory is too small.
    public static func capturingLuma(
        of source: UnsafeRawBufferPointer, format: FrameFormat, into memory: any FrameMemory,
        sequence: UInt64, timestampMicroseconds: UInt64
    ) -> Frame? {
        guard copyLuma(of: source, format: format, into: memory.bytes) else { return nil }
        return Frame(
            format: .packed(.grey, width: format.width, height: format.height), storage: .shared(memory), sequence: sequence,
            timestampMicroseconds: timestampMicroseconds)
    }

    /// Copies the luma of a frame in `format` from `source` densely (row after row, no padding) into
    /// `destination`; false when the format has no luma scand can read, the bytes are short, or the
    /// destination is too small.
    static func copyLuma(of source: UnsafeRawBufferPointer, format: FrameFormat, into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard let layout = format.lumaLayout, format.isComplete(source.count) else { return false }
        let w = format.width, h = format.height
        guard destination.count >= w * h, let out = destination.baseAddress, let base = source.baseAddress else { return false }
        for y in 0..<h {
            let row = base + y * format.bytesPerLine + layout.offset, to = out + y * w
            if layout.pixelStride == 1 {
                to.copyMemory(from: row, byteCount: w)
            } else {
                let s = layout.pixelStride, from = row.assumingMemoryBound(to: UInt8.self), into = to.assumingMemoryBound(to: UInt8.self)
                for x in 0..<w { into[x] = from[x * s] }
            }
        }
        return true
    }
}
