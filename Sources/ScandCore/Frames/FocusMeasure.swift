/// How sharp a frame's rect of interest is, for a person focusing the camera: the mean gradient energy
/// (squared differences to the right and below neighbours) of its luma, on every second pixel of every
/// second row. It rises as edges get crisp; only comparisons on the same scene mean anything.
public enum FocusMeasure {
    /// nil when the frame has no luma scand reads or the rect is under 4x4 pixels.
    public static func sharpness(of frame: Frame, in rect: PixelRect) -> Double? {
        let f = frame.format
        guard let layout = f.lumaLayout, f.isComplete(frame.byteCount) else { return nil }
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: f.width, height: f.height))
        guard r.width >= 4, r.height >= 4 else { return nil }
        return frame.withUnsafeBytes { p -> Double in
            var sum = 0, n = 0
            let s = layout.pixelStride
            var y = r.y
            while y < r.maxY - 1 {
                let row = y * f.bytesPerLine + layout.offset, below = row + f.bytesPerLine
                var x = r.x
                while x < r.maxX - 1 {
                    let here = Int(p[row + x * s])
                    let dx = Int(p[row + (x + 1) * s]) - here, dy = Int(p[below + x * s]) - here
                    sum += dx * dx + dy * dy
                    n += 1
                    x += 2
                }
                y += 2
            }
            return Double(sum) / Double(max(n, 1))
        }
    }
}
