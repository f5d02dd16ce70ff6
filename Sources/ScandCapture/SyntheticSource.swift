import Glibc
import ScandCore

/// Plays given frames in a loop at a fixed rate, stamped with the time they are handed out: a camera
/// for benchmarks that needs no device and no file.
public final class SyntheticSource: FrameSource {
    public let name: String
    public var waitsForDevice: Bool { false }
    private let frames: [Frame]
    private let count: Int
    private let intervalMicroseconds: UInt64
    private var produced = 0
    private var nextDue: UInt64 = 0
    private var lumaMemory: FrameMemoryAllocator?

    /// - Parameters: frames: played in order, over and over; count: frames in all; framesPerSecond: 0 for no pacing.
    public init(name: String = "synthetic", frames: [Frame], count: Int, framesPerSecond: Int) {
        precondition(!frames.isEmpty)
        self.name = name
        self.frames = frames
        self.count = count
        self.intervalMicroseconds = framesPerSecond > 0 ? UInt64(1_000_000 / framesPerSecond) : 0
    }

    public func open() throws(CaptureError) -> FrameFormat {
        produced = 0
        nextDue = Monotonic.microseconds()
        return frames[0].format
    }

    public func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
        guard produced < count else { throw CaptureError(.endOfStream, path: name) }
        let now = Monotonic.microseconds()
        if nextDue > now { usleep(UInt32(min(nextDue - now, UInt64(timeoutMilliseconds) * 1000))) }
        if Monotonic.microseconds() < nextDue { return nil }
        nextDue += intervalMicroseconds
        var frame = frames[produced % frames.count]
        frame.sequence = UInt64(produced)
        frame.timestampMicroseconds = Monotonic.microseconds()
        produced += 1
        // Like a camera's: one copy, into the decoder's memory when it offers some.
        if let allocate = lumaMemory, let memory = allocate(frame.format.width * frame.format.height),
            let captured = frame.withUnsafeBytes({
                Frame.capturingLuma(
                    of: $0, format: frame.format, into: memory, sequence: frame.sequence,
                    timestampMicroseconds: frame.timestampMicroseconds)
            })
        {
            return captured
        }
        return frame
    }

    public func captureLuma(into allocate: @escaping FrameMemoryAllocator) { lumaMemory = allocate }

    public func close() {}
}
