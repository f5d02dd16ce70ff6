/// A coarse thumbnail of a frame's luma (block means on a fixed grid), cheap enough to take for every
/// frame: two signatures that barely differ mean a static scene, which need not be decoded again when the
/// last decode of it found nothing.
public struct SceneSignature: Sendable, Equatable {
    public static let columns = 32
    public static let rows = 18
    public let cells: [UInt8]

    /// Samples 64 pixels of each block (tens of thousands of reads a frame, microseconds): fewer let a cheap
    /// webcam's noise in a dim room move a block's mean past `isStatic`'s thresholds, and a still scene was
    /// decoded frame after frame.
    public init(frame: Frame) {
        cells = frame.withLumaView(Self.cells) ?? []
    }

    /// Of a grey picture (an MJPEG frame decoded at an eighth of its size, `MJPEGDecoder.eighth`): its block
    /// means are those of the frame, each pixel already the mean of 64. Compare it only with signatures of
    /// such pictures.
    public init(grey pixels: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, pixels.count >= width * height else {
            cells = []
            return
        }
        cells = pixels.withUnsafeBytes { Self.cells(LumaView($0, width: width, height: height, rowStride: width, pixelStride: 1)) }
    }

    /// Of a frame decoded whole, as of its picture at an eighth of the size (`init(grey:)` of
    /// `MJPEGDecoder.eighth`): each 8×8 block's mean, rounded as libjpeg-turbo rounds a block's DC coefficient
    /// when it scales by 1/8, so the two compare. A moving scene's MJPEG frames are decoded whole anyway: their
    /// scene is judged from that picture, without decoding the same Huffman data a second time at an eighth.
    public init(eighthOf frame: Frame) {
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.byteCount), f.width >= 8, f.height >= 8 else {
            self.init(grey: [], width: 0, height: 0)
            return
        }
        let width = f.width, height = f.height, sw = (width + 7) / 8, sh = (height + 7) / 8
        var eighth = [UInt8](repeating: 0, count: sw * sh)
        var sums = [Int](repeating: 0, count: sw)
        frame.withUnsafeBytes { raw in
            // Every pixel of the frame: pointers, not checked subscripts (`isComplete` bounds the reads).
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self).advanced(by: layout.offset) else { return }
            let stride = layout.pixelStride
            // A grey frame's 8 pixels of a block row are one 64-bit word: summed in 16-bit lanes, even and odd
            // bytes apart (8 rows of 2 × 255 fit a lane), then the lanes added by one multiplication.
            let dense = stride == 1 ? width / 8 : 0, lowBytes: UInt64 = 0x00FF_00FF_00FF_00FF
            sums.withUnsafeMutableBufferPointer { sums in
                for by in 0..<sh {
                    sums.update(repeating: 0)
                    let rows = min(8, height - by * 8)
                    for bx in 0..<dense {
                        var lanes: UInt64 = 0
                        for y in by * 8..<by * 8 + rows {
                            let word = UnsafeRawPointer(base + y * f.bytesPerLine + bx * 8).loadUnaligned(as: UInt64.self)
                            lanes &+= (word & lowBytes) &+ ((word >> 8) & lowBytes)
                        }
                        sums[bx] = Int(truncatingIfNeeded: (lanes &* 0x0001_0001_0001_0001) >> 48)
                    }
                    for y in by * 8..<by * 8 + rows {
                        var pixel = base + y * f.bytesPerLine + dense * 8 * stride
                        for bx in dense..<sw {
                            var sum = 0
                            for _ in 0..<min(8, width - bx * 8) {
                                sum &+= Int(pixel.pointee)
                                pixel += stride
                            }
                            sums[bx] &+= sum
                        }
                    }
                    for bx in 0..<sw {
                        let n = rows * min(8, width - bx * 8)
                        eighth[by * sw + bx] = UInt8(min(255, (sums[bx] + n / 2) / n))
                    }
                }
            }
        }
        self.init(grey: eighth, width: sw, height: sh)
    }

    private static func cells(_ luma: LumaView) -> [UInt8] {
        let p = luma.buffer, width = luma.width, height = luma.height, rowStride = luma.rowStride, pixelStride = luma.pixelStride
        var out = [UInt8](repeating: 0, count: columns * rows)
        let bw = max(1, width / columns), bh = max(1, height / rows)
        let step = max(1, min(bw, bh) / 8)
        for r in 0..<rows {
            for c in 0..<columns {
                var sum = 0, n = 0
                var y = r * bh
                while y < min(height, (r + 1) * bh) {
                    var x = c * bw
                    let row = y * rowStride
                    while x < min(width, (c + 1) * bw) {
                        sum += Int(p[row + x * pixelStride])
                        n += 1
                        x += step
                    }
                    y += step
                }
                out[r * columns + c] = UInt8(n > 0 ? sum / n : 0)
            }
        }
        return out
    }

    /// Static: no block changed by more than `blockThreshold` levels and the mean change is under
    /// `meanThreshold` (sensor noise and slow exposure drift stay below both; a hand with a code does not).
    public func isStatic(comparedTo other: SceneSignature, blockThreshold: Int = 10, meanThreshold: Double = 1.5) -> Bool {
        guard cells.count == other.cells.count, !cells.isEmpty else { return false }
        var total = 0
        for i in cells.indices {
            let d = abs(Int(cells[i]) - Int(other.cells[i]))
            if d > blockThreshold { return false }
            total += d
        }
        return Double(total) / Double(cells.count) < meanThreshold
    }
}
