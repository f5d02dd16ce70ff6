import ScandCore

/// A compressed frame as the GREY frame the decoder reads: decoded into the decoder's shared memory when it
/// has some free, else into an array.
enum FrameDecompression {
    /// nil when the frame does not decode (corrupt, cut short, or not the stream's size).
    static func grey(of frame: Frame, with decoder: MJPEGDecoder, into allocate: FrameMemoryAllocator?) -> Frame? {
        let w = frame.format.width, h = frame.format.height
        let format = FrameFormat.packed(.grey, width: w, height: h)
        if let memory = allocate?(w * h) {
            let failure = frame.withUnsafeBytes { decoder.decodeGrey($0, width: w, height: h, into: memory.bytes) }
            guard failure == nil else { return nil }
            return Frame(format: format, storage: .shared(memory), sequence: frame.sequence, timestampMicroseconds: frame.timestampMicroseconds)
        }
        var pixels = [UInt8](repeating: 0, count: w * h)
        let failure = frame.withUnsafeBytes { jpeg in pixels.withUnsafeMutableBytes { decoder.decodeGrey(jpeg, width: w, height: h, into: $0) } }
        guard failure == nil else { return nil }
        return Frame(format: format, bytes: pixels, sequence: frame.sequence, timestampMicroseconds: frame.timestampMicroseconds)
    }
}
