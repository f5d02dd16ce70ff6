import ScandCore
import ScandZXingShim

/// zxing's writer (zint, inside zxing-cpp 3): draws a payload as a symbol, for generated test images,
/// benchmarks and `scand encode`. It writes every format scand reads.
public enum SymbolWriter {
    public static let writable = BarcodeFormats.all

    /// Linear formats zxing draws with rows of their own; the others are one row stretched tall.
    static let stacked = BarcodeFormats([.dataBarStacked, .dataBarExpandedStacked])

    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The symbol's modules, one pixel each, dark = 0, light = 255, with `quietZone` light modules around it.
    /// Linear symbols other than the stacked ones come out one row high; `render` gives them height.
    /// `options` is zxing's creator options string ("ecLevel=H", …).
    public static func modules(_ format: BarcodeFormat, text: String, quietZone: Int = 4, options: String = "") throws(WriteError) -> LumaImage {
        var matrix: UnsafeMutablePointer<UInt8>?
        var w: Int32 = 0, h: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { mb in
            szx_write(Int32(format.rawValue), text, options, &matrix, &w, &h, mb.baseAddress, mb.count)
        }
        guard status == 0, let m = matrix else {
            throw WriteError(description: "cannot write '\(text)' as \(format.name): \(String(fixedCString: message))")
        }
        defer { szx_free(m) }
        let oneRow = format.isLinear && !stacked.contains(format)
        let rows = oneRow ? 1 : Int(h)
        var image = LumaImage(width: Int(w) + 2 * quietZone, height: rows + (oneRow ? 0 : 2 * quietZone))
        let top = oneRow ? 0 : quietZone
        // A one-row symbol is its middle row: EAN add-on bars start below the main symbol's top.
        let first = oneRow ? Int(h) / 2 : 0
        for y in 0..<rows {
            for x in 0..<Int(w) where m[(first + y) * Int(w) + x] != 0 { image[x + quietZone, y + top] = 0 }
        }
        return image
    }

    /// The symbol at `moduleSize` pixels a module; linear symbols `barHeight` modules tall (default: a
    /// third of their width, at least 24 modules), matrix and stacked symbols as drawn.
    public static func render(
        _ format: BarcodeFormat, text: String, moduleSize: Int, quietZone: Int = 6,
        barHeight: Int? = nil, options: String = ""
    ) throws(WriteError) -> LumaImage {
        let m = try modules(format, text: text, quietZone: quietZone, options: options)
        guard format.isLinear, !stacked.contains(format) else { return m.scaled(by: moduleSize) }
        let rows = (barHeight ?? max(24, m.width / 3)) + 2 * quietZone
        var tall = LumaImage(width: m.width, height: rows)
        for y in quietZone..<(rows - quietZone) {
            for x in 0..<m.width { tall[x, y] = m[x, 0] }
        }
        return tall.scaled(by: moduleSize)
    }
}
