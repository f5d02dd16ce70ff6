import Testing
import ScandCore
@testable import ScandDecoding

/// Every format zxing-cpp 1.4 can write, drawn at several sizes and rotations, reads back exactly.
@Suite struct FormatCoverageTests {
    static let cases: [(BarcodeFormat, Int, Double)] = {
        var out: [(BarcodeFormat, Int, Double)] = []
        for f in SymbolWriter.writable.members {
            for module in [3, 5] {
                for degrees in [0.0, 90, 180, 270] { out.append((f, module, degrees)) }
            }
            out.append((f, 4, 5)) // a slightly skewed hand
            // Tilted further: zxing 1.4 alone misses Aztec and PDF417 here (and cuts ITF short); scand's upright
            // crops around code-like patches read the matrix formats.
            if BarcodeFormats.matrix.contains(f) {
                for degrees in [12.0, 28] { out.append((f, 4, degrees)) }
            }
        }
        return out
    }()

    @Test(arguments: cases)
    func readsBack(_ format: BarcodeFormat, module: Int, degrees: Double) throws {
        let text = try #require(Scene.samplePayloads[format])
        // zxing returns Codabar without its start and stop characters.
        let expected = format == .codabar ? String(text.dropFirst().dropLast()) : text
        let sym = Scene.symbol(format, text, module: module)
        let side = max(sym.width, sym.height) * 3 / 2 + 40
        let image = Scene.page(width: side, height: side, [(sym, Double(side) / 2, Double(side) / 2, degrees)])
        // Upright and quarter turns: one plain zxing pass. Skewed: scand's still-image decoder, whose crops around
        // code-like patches, turned upright, let zxing 1.4's Aztec detector read it (it misses it at 5° otherwise).
        let report = degrees.truncatingRemainder(dividingBy: 90) == 0
            ? ZXingDecoder(isolated: true).decode(image, passes: [Scene.plainPass(image, BarcodeFormats(format))])
            : StillImageDecoder(formats: BarcodeFormats(format)).decode(image)
        #expect(report.failures.isEmpty, "\(report.failures)")
        // Skewed linear symbols also yield partial reads along their edges; scand must report the whole one only.
        #expect(report.detections.filter { $0.format == format }.count == 1, "\(report.detections.map(\.text))")
        let hit = report.detections.first { $0.format == format }
        #expect(hit?.text == expected, "\(format.name) module \(module) at \(degrees)°: \(report.detections.map(\.text))")
        if let hit {
            // Corners lie on the symbol: around the page centre, within the rotated symbol's reach.
            let reach = Double(max(sym.width, sym.height))
            #expect(hit.corners.center.distance(to: Point(Double(side) / 2, Double(side) / 2)) < reach / 2)
            #expect(hit.bytes == Array(expected.utf8))
        }
    }

    @Test func writerRefusesWhatItCannotWrite() {
        #expect(throws: SymbolWriter.WriteError.self) { try SymbolWriter.modules(.itf, text: "ABC") }
        #expect(throws: SymbolWriter.WriteError.self) { try SymbolWriter.modules(.ean13, text: "not digits") }
    }
}
