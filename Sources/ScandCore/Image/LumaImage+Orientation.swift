extension LumaImage {
    /// This image as seen through `transform` (rotated clockwise, then mirrored).
    public func oriented(by transform: FrameTransform) -> LumaImage {
        if transform == .identity { return self }
        let size = transform.orientedSize(width: width, height: height)
        var out = LumaImage(width: size.width, height: size.height)
        let w = Double(width), h = Double(height)
        for y in 0..<height {
            for x in 0..<width {
                // Map the pixel's centre, then floor: exact for quarter turns and mirrors.
                let q = transform.apply(Point(Double(x) + 0.5, Double(y) + 0.5), width: w, height: h)
                out[Int(q.x), Int(q.y)] = self[x, y]
            }
        }
        return out
    }
}
