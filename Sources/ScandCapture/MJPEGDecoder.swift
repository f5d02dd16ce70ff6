import CTurboJPEG

/// libjpeg-turbo's decompressor for MJPEG frames, straight to 8-bit grey: only the Y component is decoded,
/// no chroma is upsampled or converted. A frame that is corrupt or cut short (webcams send them) is refused
/// with its reason, never half-decoded: libjpeg-turbo's warnings stop the decode too.
/// After a failure the decompressor is made anew: libjpeg-turbo 2.1's handle can stay broken by some
/// corrupt input ("Bogus marker length" for every later frame). Not thread-safe: one per thread that decodes (the hand-off's consumer makes its own).
public final class MJPEGDecoder {
    private var handle: tjhandle

    public init() { handle = Self.makeHandle() }

    // tjInitDecompress fails only when malloc does.
    private static func makeHandle() -> tjhandle {
        guard let handle = tjInitDecompress() else { fatalError("tjInitDecompress: \(String(cString: tjGetErrorStr()))") }
        return handle
    }

    deinit { tjDestroy(handle) }

    /// Decodes `jpeg`, which must be a `width`×`height` picture, into the first `width`·`height` bytes of
    /// `destination` (rows back to back). Returns nil when done, else why the frame is unusable.
    public func decodeGrey(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int, into destination: UnsafeMutableRawBufferPointer) -> String? {
        guard let source = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), !jpeg.isEmpty else { return "an empty frame" }
        guard let out = destination.baseAddress?.assumingMemoryBound(to: UInt8.self), destination.count >= width * height else {
            return "no room for a \(width)x\(height) picture"
        }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &w, &h, &subsampling, &colorspace) == 0 else { return failed() }
        guard Int(w) == width, Int(h) == height else { return "a \(w)x\(h) picture in a \(width)x\(height) stream" }
        // The fast integer IDCT: a pixel a level or two off at most, nothing to a bar's edge, and the decode is
        // about 40% of a panned counter's CPU at 720p (measured: 2–9% less CPU there with it).
        let flags = TJFLAG_STOPONWARNING | TJFLAG_FASTDCT
        guard tjDecompress2(handle, source, UInt(jpeg.count), out, w, Int32(width), h, Int32(TJPF_GRAY.rawValue), flags) == 0 else {
            return failed()
        }
        return nil
    }

    /// The picture at an eighth of its size, grey (libjpeg-turbo's DCT scaling: each pixel about the mean of an
    /// 8×8 block, for a fraction of a whole decode's work): enough to tell whether the scene changed before
    /// decoding a frame whole. nil when it does not decode (the whole decode then says why).
    public func eighth(_ jpeg: UnsafeRawBufferPointer, width: Int, height: Int) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard let source = jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self), !jpeg.isEmpty else { return nil }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, source, UInt(jpeg.count), &w, &h, &subsampling, &colorspace) == 0 else {
            _ = failed()
            return nil
        }
        guard Int(w) == width, Int(h) == height, width >= 8, height >= 8 else { return nil }
        // TJSCALED(dimension, 1/8): libjpeg-turbo picks the scale whose picture fits these.
        let sw = (width + 7) / 8, sh = (height + 7) / 8
        var pixels = [UInt8](repeating: 0, count: sw * sh)
        let rc = pixels.withUnsafeMutableBufferPointer { out in
            tjDecompress2(
                handle, source, UInt(jpeg.count), out.baseAddress, Int32(sw), Int32(sw), Int32(sh), Int32(TJPF_GRAY.rawValue), TJFLAG_STOPONWARNING)
        }
        guard rc == 0 else {
            _ = failed()
            return nil
        }
        return (pixels, sw, sh)
    }

    /// The reason of the last failure; the handle is replaced by a fresh one.
    private func failed() -> String {
        let reason = String(cString: tjGetErrorStr2(handle))
        tjDestroy(handle)
        handle = Self.makeHandle()
        return reason
    }
}
