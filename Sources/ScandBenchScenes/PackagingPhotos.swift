import Foundation
import ScandCore
import ScandDecoding

/// Generated photos of retail codes on packaging, the two cases issue 45 found real photos of and scand did
/// not read: bars that bend and stretch unevenly (a crumpled bag, film wrap: each module moved along the code by
/// a sum of two smooth waves, which shift down the bars so that they bend), and codes whose quiet zone the
/// photo's edge cuts (0–3 modules of it left, at either end), and both. EAN-13s (first digit not 0), UPC-As and
/// EAN-8s, 2–4 px a module, faint or dark, blurred, with sensor noise. Seeded: the same photos every run.
package enum PackagingPhotos {
    package enum Kind: String, CaseIterable {
        case crumpled
        case cut = "cut-quiet-zone"
        case crumpledCut = "crumpled-and-cut"
    }

    package struct Photo {
        package var image: LumaImage
        package var format: BarcodeFormat
        /// The payload as zxing-cpp's sample answers spell it (a UPC-A's 12 digits).
        package var answer: String
    }

    /// `count` photos of `kind`, from `seed`.
    package static func make(_ kind: Kind, count: Int, seed: UInt64) throws -> [Photo] {
        var rng = Xorshift(seed: seed ^ 0x9ACC_A61E ^ UInt64(Kind.allCases.firstIndex(of: kind) ?? 0) << 32)
        return try (0..<count).map { _ in try photo(kind, &rng) }
    }

    static func photo(_ kind: Kind, _ rng: inout Xorshift) throws -> Photo {
        func uniform(_ r: ClosedRange<Double>) -> Double { TillMix.uniform(r, &rng) }
        let (format, text, answer) = number(&rng)
        let modules = try SymbolWriter.modules(format, text: text, quietZone: 0)
        let module = [2.0, 2.5, 3.0, 3.5, 4.0][Int(rng.next() % 5)]
        let crumpled = kind != .cut, cut = kind != .crumpled
        // Two waves along the code (1–2.5 and 3–5 cycles over it), shifting by up to 0.4 and 0.3 cycles down the bars.
        let waves: [(amplitude: Double, along: Double, down: Double, phase: Double)] =
            crumpled
            ? [
                (uniform(0.5...1.5), uniform(1...2.5), uniform(-0.4...0.4), uniform(0...6.28)),
                (uniform(0.1...0.4), uniform(3...5), uniform(-0.3...0.3), uniform(0...6.28))
            ] : []
        let codeWidth = Double(modules.width) * module, barHeight = Int(module * uniform(22...40))
        // The quiet zone left at the cut end (modules), and the margin elsewhere (a quiet zone and some label).
        let kept = Double(rng.next() % 4), cutsLeft = rng.next() % 2 == 0
        let margin = { (r: inout Xorshift) in (12 + Double(r.next() % 30)) * module }
        let left = cut && cutsLeft ? kept * module : margin(&rng), right = cut && !cutsLeft ? kept * module : margin(&rng)
        let width = Int(left + codeWidth + right), height = barHeight + 30 + Int(rng.next() % 90)
        let paper = uniform(170...235), ink = uniform(20...70), top = (height - barHeight) / 2
        var page = [Double](repeating: paper, count: width * height)
        for row in 0..<barHeight {
            let down = Double(row) / Double(barHeight)
            for x in 0..<width {
                let along = (Double(x) + 0.5 - left) / codeWidth
                var m = (Double(x) + 0.5 - left) / module
                for w in waves { m += w.amplitude * sin(2 * Double.pi * (w.along * along + w.down * down) + w.phase) }
                let i = Int(m.rounded(.down))
                if i >= 0, i < modules.width, modules[i, 0] < 128 { page[(top + row) * width + x] = ink }
            }
        }
        // A lens's blur across the bars (a Gaussian of a quarter to half a module), then sensor noise.
        let sigma = module * uniform(0.25...0.5), reach = Int((3 * sigma).rounded(.up))
        let kernel = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }, total = kernel.reduce(0, +)
        var image = LumaImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var v = 0.0
                for (k, w) in kernel.enumerated() { v += w * page[y * width + min(max(x + k - reach, 0), width - 1)] }
                let noise = Double(Int(rng.next() % 9) + Int(rng.next() % 9) - 8)
                image[x, y] = UInt8(clamping: Int((v / total + noise).rounded()))
            }
        }
        return Photo(image: image, format: format, answer: answer)
    }

    /// A retail number: what to write (with its check digit) and the answer as read.
    static func number(_ rng: inout Xorshift) -> (BarcodeFormat, String, String) {
        switch rng.next() % 4 {
        case 0:
            let upc = TillMix.digits(11, &rng)
            let number = GS1Number.withCheckDigit(upc)
            return (.upcA, number, number)
        case 1:
            let number = GS1Number.withCheckDigit(TillMix.digits(7, &rng))
            return (.ean8, number, number)
        default:
            // A leading 0 would be a UPC-A.
            let number = GS1Number.withCheckDigit(TillMix.digits(12, &rng, firstNonZero: true))
            return (.ean13, number, number)
        }
    }
}
