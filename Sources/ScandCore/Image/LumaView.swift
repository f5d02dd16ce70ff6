/// 8-bit luma read in place, without a copy: pixels `pixelStride` bytes apart, rows `rowStride` apart (the Y
/// of a YUYV frame at 2, a grey frame or `LumaImage` at 1). It holds a pointer: make it inside the
/// `withUnsafeBytes` scope of the memory it reads (`LumaImage.withView`, `Frame.withLumaView`), use it there
/// synchronously, and never keep it past that scope, which is why it is not `Sendable`.
///
/// It does not check its geometry against the buffer: each reader checks what it reads (`ZXingDecoder` throws,
/// the localizers return nothing, `sample` returns nil outside).
public struct LumaView {
    public let buffer: UnsafeRawBufferPointer
    public let width: Int
    public let height: Int
    public let rowStride: Int
    public let pixelStride: Int

    public init(_ buffer: UnsafeRawBufferPointer, width: Int, height: Int, rowStride: Int, pixelStride: Int) {
        self.buffer = buffer
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.pixelStride = pixelStride
    }

    /// The first pixel, for loops that walk rows by pointer (nil for an empty buffer).
    public var base: UnsafePointer<UInt8>? { buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) }

    /// Whether the buffer holds every pixel the geometry names.
    public var holdsEveryPixel: Bool { buffer.count >= (height - 1) * rowStride + (width - 1) * pixelStride + 1 }

    /// The pixel at (x, y); the buffer's own bounds check traps outside it.
    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 { buffer[y * rowStride + x * pixelStride] }

    /// The pixel at (x, y), white past the buffer's end: for probes that follow a line to the frame's edge.
    public func pixelOrWhite(_ x: Int, _ y: Int) -> UInt8 {
        let i = y * rowStride + x * pixelStride
        return i < buffer.count ? buffer[i] : 255
    }

    /// Bilinear sample at (x, y), pixel centres at whole numbers; nil outside the image.
    @inlinable
    public func sample(_ x: Double, _ y: Double) -> Double? {
        guard x >= 0, y >= 0, x <= Double(width - 1), y <= Double(height - 1) else { return nil }
        let x0 = min(Int(x), width - 2), y0 = min(Int(y), height - 2)
        guard x0 >= 0, y0 >= 0 else { return nil }
        let fx = x - Double(x0), fy = y - Double(y0)
        func v(_ x: Int, _ y: Int) -> Double { Double(buffer[y * rowStride + x * pixelStride]) }
        return (v(x0, y0) * (1 - fx) + v(x0 + 1, y0) * fx) * (1 - fy) + (v(x0, y0 + 1) * (1 - fx) + v(x0 + 1, y0 + 1) * fx) * fy
    }
}
