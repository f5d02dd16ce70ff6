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
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.byteCount) else {
            cells = []
            return
        }
        cells = frame.withUnsafeBytes { p in
            Self.cells(
                UnsafeRawBufferPointer(rebasing: p[layout.offset...]), width: f.width, height: f.height, rowStride: f.bytesPerLine,
                pixelStride: layout.pixelStride)
        }
    }

    /// Of a grey picture (an MJPEG frame decoded at an eighth of its size, `MJPEGDecoder.eighth`): its block
    /// means are those of the frame, each pixel already the mean of 64. Compare it only with signatures of
    /// such pictures.
    public init(grey pixels: [UInt8], width: Int, height: Int) {
        guard width > 0, height > 0, pixels.count >= width * height else {
            cells = []
            return
        }
        cells = pixels.withUnsafeBytes { Self.cells($0, width: width, height: height, rowStride: width, pixelStride: 1) }
    }

    private static func cells(_ p: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int, pixelStride: Int) -> [UInt8] {
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
