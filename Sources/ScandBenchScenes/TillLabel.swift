import Foundation
import ScandCore
import ScandDecoding

/// An item's face as the camera sees it when upright and still: the code printed on a label, on a
/// package with print of its own around it, wrapped round a can, under a glare spot, defocused. Made once
/// per item; each frame only turns, moves and smears it.
package enum TillLabel {
    /// The symbol alone, dark 0 and light 255, `moduleSize` px a module, before printing.
    static func symbol(_ item: TillItem) throws -> LumaImage {
        try SymbolWriter.render(
            item.format, text: item.written, moduleSize: item.moduleSize, quietZone: 8, barHeight: item.barHeight, options: item.options)
    }

    package static func make(_ item: TillItem) throws -> LumaImage {
        var rng = Xorshift(seed: item.seed)
        func uniform(_ r: ClosedRange<Double>) -> Double { TillMix.uniform(r, &rng) }
        let symbol = try symbol(item)
        // Print: ink 25–70 on paper 185–235.
        var ink = 25 + Int(rng.next() % 46), paper = 185 + Int(rng.next() % 51)
        // Faint print: drawn from the same draws, so the rest of the label stays as it was.
        if item.lowContrast { (ink, paper) = (80 + (ink - 25) * 35 / 45, 150 + (paper - 185) * 35 / 50) }
        // The package around the label: its own grey, with lines of print (text-like strokes a localizer may take for bars).
        let margin = 24 + Int(rng.next() % 40)
        let package = UInt8(70 + rng.next() % 140)
        var face = LumaImage(width: symbol.width + 2 * margin, height: symbol.height + 2 * margin, fill: package)
        let strokeInk = package > 128 ? UInt8(package - 90) : UInt8(package + 90)
        for row in stride(from: 4, to: face.height - 8, by: 11) where row < margin - 8 || row > margin + symbol.height + 2 {
            var x = 4 + Int(rng.next() % 8)
            while x < face.width - 8 {
                let w = 2 + Int(rng.next() % 4)
                if rng.next() % 5 != 0 {
                    for y in row..<(row + 7) {
                        for dx in 0..<w where x + dx < face.width { face[x + dx, y] = strokeInk }
                    }
                }
                x += w + 1 + Int(rng.next() % 3)
            }
        }
        for y in 0..<symbol.height {
            for x in 0..<symbol.width { face[margin + x, margin + y] = UInt8(ink + Int(symbol[x, y]) * (paper - ink) / 255) }
        }
        // A can's radius: the code's half-width turns it 20–35° (a 37 mm EAN-13 on a 33 mm can turns it 32°).
        if item.onCan { face = wrappedRoundACan(face, radius: Double(symbol.width) / (2 * uniform(0.35...0.6))) }
        if item.glare {
            // A glare spot over part of the code: the light's reflection, up to near white.
            let cx = uniform(0.25...0.75) * Double(face.width), cy = uniform(0.3...0.7) * Double(face.height)
            let radius = uniform(0.08...0.2) * Double(face.width), strength = uniform(0.6...0.95)
            for y in 0..<face.height {
                for x in 0..<face.width {
                    let d2 = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)) / (radius * radius)
                    guard d2 < 9 else { continue }
                    let g = strength * exp(-d2 / 2)
                    face[x, y] = UInt8(clamping: Int((Double(face[x, y]) + (250 - Double(face[x, y])) * g).rounded()))
                }
            }
        }
        // The lens: a little blur always; defocused, a Gaussian of 0.3–0.45 of a module (at least a pixel), which
        // leaves the narrowest bars 45–70% of their contrast.
        let sigma = item.defocused ? max(1, uniform(0.3...0.45) * Double(item.moduleSize)) : uniform(0.5...0.8)
        return blurred(face, sigma: sigma)
    }

    /// The face on a cylinder seen from the front: columns squeezed towards its edges (x = R·sin φ for a label
    /// column at arc length R·φ) and darker there, as a can's label is.
    /// The package's edges beyond 80° round the can are out of sight.
    static func wrappedRoundACan(_ face: LumaImage, radius: Double) -> LumaImage {
        let halfAngle = min(Double(face.width) / (2 * radius), 1.4)
        let width = max(1, Int(2 * radius * sin(halfAngle)))
        var out = LumaImage(width: width, height: face.height)
        for u in 0..<width {
            let along = min(1, max(-1, (Double(u) + 0.5 - Double(width) / 2) / radius))
            let phi = asin(along)
            let sx = min(Double(face.width - 1), max(0, phi * radius + Double(face.width) / 2 - 0.5))
            let shade = 0.6 + 0.4 * cos(phi)
            for y in 0..<face.height { out[u, y] = UInt8(clamping: Int((Double(face.sample(sx, Double(y))) * shade).rounded())) }
        }
        return out
    }

    /// Gaussian blur, rows then columns, edges clamped.
    static func blurred(_ image: LumaImage, sigma: Double) -> LumaImage {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        let w = image.width, h = image.height
        var out = image
        for horizontal in [true, false] {
            let source = out.pixels
            out.pixels.withUnsafeMutableBufferPointer { dst in
                source.withUnsafeBufferPointer { src in
                    for y in 0..<h {
                        for x in 0..<w {
                            var v = 0.0
                            for k in -radius...radius {
                                let i = horizontal ? y * w + min(max(x + k, 0), w - 1) : min(max(y + k, 0), h - 1) * w + x
                                v += kernel[k + radius] * Double(src[i])
                            }
                            dst[y * w + x] = UInt8(clamping: Int(v.rounded()))
                        }
                    }
                }
            }
        }
        return out
    }
}
