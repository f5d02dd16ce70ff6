import ScandCore
import ScandDecoding
import ScandTestSupport
import Testing

/// The frame the setup page's layout test replays: an EAN-13 at 4 px a module (readable: no size hint, its
/// outline over its bars), every linear format at 1 px a module (each too small, its bars said 1 px wide)
/// and a QR code at 4 px (no hint), packed into 640×360 without overlapping.
struct SetupPageScene {
    static let width = 640, height = 360
    /// The readable EAN-13's payload: not the 1 px one's, or the daemon would take them for one code.
    static let readable = "5901234123457"

    var page: LumaImage
    /// Where the readable EAN-13's bars are, in camera pixels: left, top, right, bottom.
    var bars: (left: Int, top: Int, right: Int, bottom: Int)
    /// Every linear format's name as events spell it.
    var linear: [String]

    /// A symbol and where it goes (its top-left corner), and what to place: widest rows first.
    private struct Item {
        var symbol: LumaImage
        var x = 0, y = 0
    }

    /// Bars of the 1D symbols drawn at 1 px: zxing's writer (24 modules) makes them as short as a row allows.
    static func make() throws -> SetupPageScene {
        let quiet = 6
        let ean = try SymbolWriter.render(.ean13, text: readable, moduleSize: 4, quietZone: quiet, barHeight: 30)
        var items = [Item(symbol: ean), Item(symbol: try SymbolWriter.render(.qrCode, text: "scand web test", moduleSize: 4, quietZone: 1))]
        let formats = BarcodeFormats.linear.members
        for format in formats {
            let text = try #require(Scene.samplePayloads[format], "no sample payload for \(format.name)")
            items.append(Item(symbol: try SymbolWriter.render(format, text: text, moduleSize: 1, quietZone: quiet, barHeight: 24)))
        }
        try pack(&items)
        var page = LumaImage(width: width, height: height, fill: 235)
        for item in items { page.paste(item.symbol, x: item.x, y: item.y) }
        let q = quiet * 4
        let bars = (items[0].x + q, items[0].y + q, items[0].x + ean.width - q, items[0].y + ean.height - q)
        return SetupPageScene(page: page, bars: bars, linear: formats.map(\.name))
    }

    /// Shelves, tallest symbols first, each in the first shelf with room (4 px between symbols).
    private static func pack(_ items: inout [Item]) throws {
        let gap = 4
        var shelves: [(y: Int, height: Int, used: Int)] = []
        for i in items.indices.sorted(by: { items[$0].symbol.height > items[$1].symbol.height }) {
            let s = items[i].symbol
            if let j = shelves.firstIndex(where: { $0.used + s.width <= width && s.height <= $0.height }) {
                (items[i].x, items[i].y) = (shelves[j].used, shelves[j].y)
                shelves[j].used += s.width + gap
            } else {
                let y = shelves.last.map { $0.y + $0.height + gap } ?? 0
                try #require(y + s.height <= height && s.width <= width, "the scene's symbols do not fit in \(width)x\(height)")
                (items[i].x, items[i].y) = (0, y)
                shelves.append((y, s.height, s.width + gap))
            }
        }
    }
}
