import Foundation
import Testing
import ScandCore
import ScandDecoding
import ScandImageIO
import ScandTestSupport

/// `scand scan` as a user runs it: the real binary, generated images, stdout and exit status.
@Suite struct ScanEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    func page(_ items: [(BarcodeFormat, String, Double, Double)], width: Int = 900, height: Int = 400, name: String) throws -> String {
        let page = Scene.page(width: width, height: height, background: 240, items.map { (Scene.symbol($0, $1), x: $2, y: $3, degrees: 0) })
        let path = dir + "/" + name
        try PNGWriter.write(page, to: path)
        return path
    }

    func json(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func printsOneScanObjectPerCode() throws {
        let path = try page([(.qrCode, "https://example.org/a", 220, 200), (.code128, "TICKET-0042", 900, 200)], width: 1400, name: "two.png")
        let r = try ScandBinary.run(["scan", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2)
        let objects = try r.lines.map(json)
        let byFormat = Dictionary(uniqueKeysWithValues: objects.map { ($0["format"] as! String, $0) })
        let qr = try #require(byFormat["QRCode"])
        #expect(qr["class"] as? String == "SCAN")
        #expect(qr["file"] as? String == path)
        #expect(qr["text"] as? String == "https://example.org/a")
        #expect(Data(base64Encoded: qr["bytes"] as! String).map { [UInt8]($0) } == Array("https://example.org/a".utf8))
        let corners = try #require(qr["corners"] as? [[Double]])
        #expect(corners.count == 4 && corners.allSatisfy { $0.count == 2 })
        #expect(corners.allSatisfy { abs($0[0] - 220) < 120 && abs($0[1] - 200) < 120 })
        #expect(byFormat["Code128"]?["text"] as? String == "TICKET-0042")
        // Each object is on its own line and starts with its class.
        #expect(r.lines.allSatisfy { $0.hasPrefix(#"{"class":"SCAN""#) })
    }

    @Test func formatsAndRegionOfInterestRestrictTheSearch() throws {
        let path = try page([(.qrCode, "left", 220, 200), (.qrCode, "right", 680, 200), (.code128, "BAR", 450, 340)], name: "three.png")
        let onlyBar = try ScandBinary.run(["scan", "--formats", "code128", path])
        #expect(try onlyBar.lines.map { try json($0)["text"] as? String } == ["BAR"])
        let right = try ScandBinary.run(["scan", "--roi", "0.5,0,0.5,0.7", path])
        let objects = try right.lines.map(json)
        #expect(objects.map { $0["text"] as? String } == ["right"])
        let corners = try #require(objects.first?["corners"] as? [[Double]])
        #expect(corners.allSatisfy { $0[0] > 450 }, "corners are in full-image pixels")
        let normalized = try #require(objects.first?["normalized"] as? [[Double]])
        #expect(normalized.allSatisfy { $0[0] > 0.5 && $0[0] < 1 })
    }

    @Test func exitStatusLikeZbarimg() throws {
        let blank = try page([], name: "blank.png")
        let none = try ScandBinary.run(["scan", blank])
        #expect(none.status == 4 && none.stdout.isEmpty)

        // As zbarimg: 0 only when every image held a code; one without makes it 4, the codes still printed.
        let code = try page([(.qrCode, "still read", 450, 200)], name: "code.png")
        let all = try ScandBinary.run(["scan", code, code])
        #expect(all.status == 0 && all.lines.count == 2)
        let some = try ScandBinary.run(["scan", code, blank])
        #expect(some.status == 4 && some.lines.count == 1)

        let garbage = dir + "/garbage.jpg"
        FileManager.default.createFile(atPath: garbage, contents: Data("definitely not a jpeg".utf8))
        let mixed = try ScandBinary.run(["scan", garbage, code, dir + "/missing.png"])
        #expect(mixed.status == 1, "zbarimg's status for I/O and image errors")
        #expect(mixed.lines.count == 1, "the readable file is still scanned")
        let errors = mixed.stderr.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors[0].contains(garbage) && errors[0].contains("not a PNG, JPEG, GIF, BMP, PNM (PGM/PPM), WebP or TIFF image"))
        #expect(errors[1].contains("missing.png") && errors[1].contains("no such file"))
    }

    @Test func badOptionsAreRefusedWithTheReason() throws {
        let r = try ScandBinary.run(["scan", "--formats", "qr,bogus", "x.png"])
        #expect(r.status == 1, "zbarimg's usage status")
        #expect(r.stderr.contains("unknown barcode format 'bogus'"))
        let roi = try ScandBinary.run(["scan", "--roi", "0.5,0.5,0.9,0.1", "x.png"])
        #expect(roi.status == 1 && roi.stderr.contains("rect of interest"))
        let none = try ScandBinary.run(["scan"])
        #expect(none.status == 1 && none.stderr.contains("missing expected argument '<image> ...' (see scand scan --help)"), "\(none.stderr)")
        let unknown = try ScandBinary.run(["scan", "--bogus", "x.png"])
        #expect(unknown.status == 1)
    }

    @Test func controlBytesNeverReachTheTerminalRaw() throws {
        let hostile = "pay\u{1b}]0;pwned\u{7}\u{1b}[2J"
        let path = try page([(.code128, hostile, 600, 200)], width: 1200, name: "hostile.png")
        let r = try ScandBinary.run(["scan", path])
        #expect(r.status == 0)
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(r.stdout.contains(#"pay\u001b]0;pwned\u0007\u001b[2J"#))
        #expect(try json(r.lines[0])["text"] as? String == hostile)
    }

    @Test func annotateWritesAnOutlinedCopy() throws {
        let path = try page([(.qrCode, "outlined", 450, 200)], name: "annotate.png")
        let out = dir + "/annotated.png"
        let r = try ScandBinary.run(["scan", "--annotate", out, path])
        #expect(r.status == 0)
        let rgb = try ImageFile.readRGB(out)
        #expect(rgb.width == 900 && rgb.height == 400)
        let corners = try #require(try json(r.lines[0])["corners"] as? [[Double]])
        let mid = (Int((corners[0][0] + corners[1][0]) / 2), Int((corners[0][1] + corners[1][1]) / 2))
        #expect(rgb[mid.0, mid.1] == Annotator.green)
    }

    @Test func encodeThenScanRoundTrips() throws {
        let out = dir + "/encoded.png"
        let e = try ScandBinary.run(["encode", "--format", "DataMatrix", "--text", "kiosk 7", out])
        #expect(e.status == 0, "\(e.stderr)")
        let r = try ScandBinary.run(["scan", out])
        #expect(try json(r.lines[0])["text"] as? String == "kiosk 7")
        let bad = try ScandBinary.run(["encode", "--format", "EAN-13", "--text", "not digits", out])
        #expect(bad.status == 64 && bad.stderr.contains("cannot write 'not digits' as EAN-13"), "\(bad.stderr)")
    }
}
