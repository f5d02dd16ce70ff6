import Testing
import ScandCore
import ScandDecoding
@testable import ScandCommands

/// The comparison bench's parts: libzbar really reads, the generated frames are deterministic and valid.
@Suite struct CompareBenchTests {
    @Test func libzbarReadsAGeneratedCode() throws {
        var page = LumaImage(width: 400, height: 300, fill: 230)
        let qr = try SymbolWriter.render(.qrCode, text: "zbar sees me", moduleSize: 4)
        page.paste(qr, x: 100, y: 60)
        #expect(ZBarReader().read(page) == ["zbar sees me"])
        #expect(ZBarReader().read(LumaImage(width: 64, height: 64, fill: 200)).isEmpty)
    }

    @Test func samplesAreTheSameEveryRunAndCarryValidPayloads() throws {
        let a = try CompareBench.samples(count: 9, width: 640, height: 360)
        let b = try CompareBench.samples(count: 9, width: 640, height: 360)
        #expect(a.map(\.image) == b.map(\.image))
        #expect(a.map(\.expected) == b.map(\.expected))
        #expect(CompareBench.withCheckDigit("400638133393") == "4006381333931")
        #expect(CompareBench.ean8(0).count == 8)
    }
}
