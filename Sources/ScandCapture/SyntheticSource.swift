import Glibc
import ScandCore
import ScandRuntime

/// Plays given frames in a loop at a fixed rate, stamped with the time they are handed out: a camera
/// for benchmarks and for `scand run --source demo` that needs no device and no file.
public final class SyntheticSource: FrameSource {
    /// What a synthetic source plays, for `PipelineBuilder`: frames in order, over and over, at a rate.
    /// Frames showing the same picture share their bytes (arrays are copied on write only).
    public struct Playlist: Sendable, Equatable {
        public var name: String
        public var frames: [Frame]
        public var framesPerSecond: Int

        public init(name: String, frames: [Frame], framesPerSecond: Int) {
            self.name = name
            self.frames = frames
            self.framesPerSecond = framesPerSecond
        }

        public static func == (a: Playlist, b: Playlist) -> Bool {
            guard a.name == b.name, a.framesPerSecond == b.framesPerSecond, a.frames.count == b.frames.count else { return false }
            return zip(a.frames, b.frames).allSatisfy { x, y in
                x.format == y.format && x.withUnsafeBytes { p in y.withUnsafeBytes { q in p.elementsEqual(q) } }
            }
        }
    }

    public let name: String
    public var waitsForDevice: Bool { false }
    private let frames: [Frame]
    private let count: Int
    private let intervalMicroseconds: UInt64
    private var produced = 0
    private var nextDue: UInt64 = 0
    private var opened: UInt64 = 0
    private var lumaMemory: FrameMemoryAllocator?
    /// Stamp frame i at i times this after the source opened, as a camera at that rate would, however slowly
    /// they are taken (a lockstep pipeline, whose tracker goes by the stamps alone: a slow first decode must not
    /// read as the code gone from view); nil: stamped when handed out.
    private let stampIntervalMicroseconds: UInt64?

    /// - Parameters: frames: played in order, over and over; count: frames in all; framesPerSecond: 0 for no pacing;
    ///   stampedEvery: µs between the frames' stamps, whenever they are handed out (nil: the time they are).
    public init(name: String = "synthetic", frames: [Frame], count: Int, framesPerSecond: Int, stampedEvery: UInt64? = nil) {
        precondition(!frames.isEmpty)
        self.stampIntervalMicroseconds = stampedEvery
        self.name = name
        self.frames = frames
        self.count = count
        self.intervalMicroseconds = framesPerSecond > 0 ? UInt64(1_000_000 / framesPerSecond) : 0
    }

    /// Plays `playlist` until `count` frames were handed out (by default, for ever).
    public convenience init(_ playlist: Playlist, count: Int = .max) {
        self.init(name: playlist.name, frames: playlist.frames, count: count, framesPerSecond: playlist.framesPerSecond)
    }

    public func open() throws(CaptureError) -> FrameFormat {
        produced = 0
        nextDue = Monotonic.microseconds()
        opened = nextDue
        return frames[0].format
    }

    public func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
        guard produced < count else { throw CaptureError(.endOfStream, path: name) }
        let now = Monotonic.microseconds()
        if nextDue > now { Monotonic.pause(microseconds: min(nextDue - now, UInt64(max(0, timeoutMilliseconds)) * 1000)) }
        if Monotonic.microseconds() < nextDue { return nil }
        nextDue += intervalMicroseconds
        var frame = frames[produced % frames.count]
        frame.sequence = UInt64(produced)
        frame.timestampMicroseconds = stampIntervalMicroseconds.map { opened + UInt64(produced) * $0 } ?? Monotonic.microseconds()
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
