extension Frame {
    /// The frame's luma shrunk by a whole factor until it is at most `maxSide` pixels wide and high, each
    /// pixel the mean of its block: a preview costs one pass over the frame, not a copy of it. nil when the
    /// format has no luma scand reads, or the frame is short.
    public func thumbnail(maxSide: Int) -> LumaImage? {
        guard let layout = format.lumaLayout, maxSide > 0 else { return nil }
        let w = format.width, h = format.height, stride = format.bytesPerLine
        let factor = max(1, (max(w, h) + maxSide - 1) / maxSide)
        let tw = w / factor, th = h / factor
        guard tw > 0, th > 0 else { return nil }
        return withUnsafeBytes { bytes -> LumaImage? in
            guard format.isComplete(bytes.count) else { return nil }
            var out = LumaImage(width: tw, height: th, fill: 0)
            let area = factor * factor
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for ty in 0..<th {
                    for tx in 0..<tw {
                        var sum = 0
                        for y in (ty * factor)..<(ty * factor + factor) {
                            var i = y * stride + layout.offset + tx * factor * layout.pixelStride
                            for _ in 0..<factor {
                                sum += Int(bytes[i])
                                i += layout.pixelStride
                            }
                        }
                        dst[ty * tw + tx] = UInt8(sum / area)
                    }
                }
            }
            return out
        }
    }
}
