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
        var out = [UInt8](repeating: 0, count: Self.columns * Self.rows)
        let bw = max(1, f.width / Self.columns), bh = max(1, f.height / Self.rows)
        let step = max(1, min(bw, bh) / 8)
        frame.withUnsafeBytes { p in
            for r in 0..<Self.rows {
                for c in 0..<Self.columns {
                    var sum = 0, n = 0
                    var y = r * bh
                    while y < min(f.height, (r + 1) * bh) {
                        var x = c * bw
                        let row = y * f.bytesPerLine + layout.offset
                        while x < min(f.width, (c + 1) * bw) {
                            sum += Int(p[row + x * layout.pixelStride])
                            n += 1
                            x += step
                        }
                        y += step
                    }
                    out[r * Self.columns + c] = UInt8(n > 0 ? sum / n : 0)
                }
            }
        }
        cells = out
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
