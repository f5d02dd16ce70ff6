import ScandCore
import ScandZXingShim

/// zxing's writer: draws a payload as a symbol, for generated test images, benchmarks and `scand encode`.
/// zxing-cpp 1.4 writes Aztec, Codabar, Code39, Code93, Code128, DataMatrix, EAN-8, EAN-13, ITF, PDF417,
/// QRCode, UPC-A and UPC-E; it has no writer for DataBar, MaxiCode or Micro QR.
public enum SymbolWriter {
    public static let writable = BarcodeFormats([
        .aztec, .codabar, .code39, .code93, .code128, .dataMatrix, .ean8, .ean13, .itf, .pdf417, .qrCode, .upcA, .upcE,
    ])

    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The symbol's modules, one pixel each, dark = 0, light = 255, with `quietZone` light modules around it.
    /// Linear symbols come out one row high; `render` gives them height.
    public static func modules(_ format: BarcodeFormat, text: String, quietZone: Int = 4, ecLevel: Int? = nil) throws(WriteError) -> LumaImage {
        guard writable.contains(format) else { throw WriteError(description: "zxing-cpp 1.4 cannot write \(format.name)") }
        var matrix: UnsafeMutablePointer<UInt8>?
        var w: Int32 = 0, h: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        // Linear writers take a pixel width and height; 1 row is enough, the width grows to fit.
        let height: Int32 = format.isLinear ? 1 : 0
        let status = message.withUnsafeMutableBufferPointer { mb in
            szx_write(Int32(format.rawValue), text, 0, height, 0, Int32(ecLevel ?? -1), &matrix, &w, &h, mb.baseAddress, mb.count)
        }
        guard status == 0, let m = matrix else {
            throw WriteError(description: "cannot write '\(text)' as \(format.name): \(String(fixedCString: message))")
        }
        defer { szx_free(m) }
        let rows = format.isLinear ? 1 : Int(h)
        var image = LumaImage(width: Int(w) + 2 * quietZone, height: rows + (format.isLinear ? 0 : 2 * quietZone))
        let top = format.isLinear ? 0 : quietZone
        for y in 0..<rows {
            for x in 0..<Int(w) where m[y * Int(w) + x] != 0 { image[x + quietZone, y + top] = 0 }
        }
        return image
    }

    /// The symbol at `moduleSize` pixels a module; linear symbols `barHeight` modules tall (default: a
    /// third of their width, at least 24 modules), matrix symbols as drawn.
    public static func render(_ format: BarcodeFormat, text: String, moduleSize: Int, quietZone: Int = 6,
                              barHeight: Int? = nil) throws(WriteError) -> LumaImage {
        let m = try modules(format, text: text, quietZone: quietZone)
        guard format.isLinear else { return m.scaled(by: moduleSize) }
        let rows = (barHeight ?? max(24, m.width / 3)) + 2 * quietZone
        var tall = LumaImage(width: m.width, height: rows)
        for y in quietZone..<(rows - quietZone) {
            for x in 0..<m.width { tall[x, y] = m[x, 0] }
        }
        return tall.scaled(by: moduleSize)
    }
}
