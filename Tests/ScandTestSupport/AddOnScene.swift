import ScandCore
import ScandDecoding

/// EAN/UPC symbols with an add-on that shows but does not read, as a finger, glare or blur leaves it.
public enum AddOnScene {
    /// `written` (say "4006381333931+51299") at `module` pixels a module, one bar of its add-on erased past the
    /// add-on's first 20 modules: zxing reads the main number alone, and the add-on's first bars still show.
    public static func brokenAddOn(_ format: BarcodeFormat, _ written: String, module: Int, quietZone: Int = 6) throws -> LumaImage {
        let row = try SymbolWriter.modules(format, text: written, quietZone: quietZone)
        var image = try SymbolWriter.render(format, text: written, moduleSize: module, quietZone: quietZone)
        let mainModules = format == .ean8 ? 67 : format == .upcE ? 51 : 95
        // The add-on starts with the first bar after the main symbol's end guard and its gap.
        var x = quietZone + mainModules
        while x < row.width, row[x, 0] != 0 { x += 1 }
        x += 25
        while x < row.width, row[x, 0] != 0 { x += 1 }
        while x < row.width, row[x, 0] == 0 {
            for px in (x * module)..<((x + 1) * module) {
                for y in 0..<image.height { image[px, y] = 255 }
            }
            x += 1
        }
        return image
    }
}
