/// Memory a frame lives in that is not a Swift array: the decoder's shared memory, which its processes
/// read in place. Given back when the last frame that uses it goes away.
public protocol FrameMemory: AnyObject, Sendable {
    /// Written once by whoever captures into it, then only read.
    var bytes: UnsafeMutableRawBufferPointer { get }
}

/// Hands out memory of at least the given size to capture a frame into; nil when none is free (the frame
/// is then captured into an array).
public typealias FrameMemoryAllocator = @Sendable (Int) -> (any FrameMemory)?
