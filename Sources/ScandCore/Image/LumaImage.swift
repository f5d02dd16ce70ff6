import Foundation  // cos, sin

/// An 8-bit greyscale image, densely packed row by row.
public struct LumaImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "pixel count must be width*height")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy of the luma a decoder reads in place.
    public init(_ view: LumaView) {
        let width = view.width, height = view.height, rowStride = view.rowStride, pixelStride = view.pixelStride, buffer = view.buffer
        precondition(width > 0 && height > 0 && view.holdsEveryPixel)
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = y * rowStride
                if pixelStride == 1 {
                    for x in 0..<width { out[y * width + x] = buffer[row + x] }
                } else {
                    for x in 0..<width { out[y * width + x] = buffer[row + x * pixelStride] }
                }
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixels as a view (rows `width` apart) for `body`, which must not keep it.
    public func withView<R>(_ body: (LumaView) throws -> R) rethrows -> R {
        try pixels.withUnsafeBytes { try body(LumaView($0, width: width, height: height, rowStride: width, pixelStride: 1)) }
    }

    public init(width: Int, height: Int, fill: UInt8 = 255) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    public func inverted() -> LumaImage {
        LumaImage(width: width, height: height, pixels: pixels.map { 255 - $0 })
    }

    public func mirrored() -> LumaImage {
        var out = self
        for y in 0..<height {
            for x in 0..<width { out[width - 1 - x, y] = self[x, y] }
        }
        return out
    }

    /// Copies `image` into this one with its top-left at (x, y); parts outside are clipped.
    public mutating func paste(_ image: LumaImage, x: Int, y: Int) {
        for sy in 0..<image.height where (0..<height).contains(y + sy) {
            for sx in 0..<image.width where (0..<width).contains(x + sx) {
                self[x + sx, y + sy] = image[sx, sy]
            }
        }
    }

    /// Pastes `image` rotated by `degrees` (clockwise) about its centre, which lands at (cx, cy).
    /// Bilinear sampling; pixels of the destination outside the rotated image stay as they are.
    public mutating func paste(_ image: LumaImage, centerX cx: Double, centerY cy: Double, degrees: Double) {
        let a = degrees * Double.pi / 180
        let c = cos(a), s = sin(a)
        let hw = Double(image.width) / 2, hh = Double(image.height) / 2
        let r = (hw * hw + hh * hh).squareRoot()
        let x0 = max(0, Int(cx - r)), x1 = min(width - 1, Int(cx + r) + 1)
        let y0 = max(0, Int(cy - r)), y1 = min(height - 1, Int(cy + r) + 1)
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                // Inverse rotation of the destination pixel centre into source coordinates.
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let sx = c * dx + s * dy + hw - 0.5, sy = -s * dx + c * dy + hh - 0.5
                guard sx >= -0.5, sy >= -0.5, sx <= Double(image.width) - 0.5, sy <= Double(image.height) - 0.5 else { continue }
                self[x, y] = image.sample(sx, sy)
            }
        }
    }

    /// Bilinear sample at continuous pixel-centre coordinates, clamped at the edges.
    public func sample(_ x: Double, _ y: Double) -> UInt8 {
        let fx = min(max(x, 0), Double(width - 1)), fy = min(max(y, 0), Double(height - 1))
        let x0 = Int(fx), y0 = Int(fy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let tx = fx - Double(x0), ty = fy - Double(y0)
        let top = Double(self[x0, y0]) * (1 - tx) + Double(self[x1, y0]) * tx
        let bottom = Double(self[x0, y1]) * (1 - tx) + Double(self[x1, y1]) * tx
        return UInt8(clamping: Int((top * (1 - ty) + bottom * ty).rounded()))
    }

    /// Nearest-neighbour enlargement by an integer factor (module matrices to pixels).
    public func scaled(by factor: Int) -> LumaImage {
        precondition(factor >= 1)
        var out = LumaImage(width: width * factor, height: height * factor)
        for y in 0..<out.height {
            for x in 0..<out.width { out[x, y] = self[x / factor, y / factor] }
        }
        return out
    }
}
