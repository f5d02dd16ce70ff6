import CSTB
import Foundation
import Testing
import ScandCore
import ScandTestSupport
@testable import ScandImageIO

@Suite struct ImageFileTests {
    let dir = TestFiles.directory("scand-imageio")

    func gradient() -> LumaImage {
        LumaImage(width: 40, height: 30, pixels: (0..<1200).map { UInt8($0 % 256) })
    }

    @Test func pngRoundTrips() throws {
        let path = dir + "/g.png"
        try PNGWriter.write(gradient(), to: path)
        #expect(try ImageFile.readLuma(path) == gradient())
        let rgb = try ImageFile.readRGB(path)
        #expect(rgb.width == 40 && rgb[5, 0] == (5, 5, 5))
    }

    @Test func readsBinaryPGMAndPPM() throws {
        let img = gradient()
        let pgm = Array("P5\n40 30\n255\n".utf8) + img.pixels
        FileManager.default.createFile(atPath: dir + "/g.pgm", contents: Data(pgm))
        #expect(try ImageFile.readLuma(dir + "/g.pgm") == img)
        let ppm = Array("P6\n40 30\n255\n".utf8) + img.pixels.flatMap { [$0, $0, $0] }
        FileManager.default.createFile(atPath: dir + "/g.ppm", contents: Data(ppm))
        #expect(try ImageFile.readLuma(dir + "/g.ppm") == img)
    }

    @Test func readsJPEG() throws {
        let img = LumaImage(width: 64, height: 64, fill: 200)
        let path = dir + "/g.jpg"
        let ok = img.pixels.withUnsafeBytes { stbi_write_jpg(path, 64, 64, 1, $0.baseAddress, 95) }
        #expect(ok != 0)
        let back = try ImageFile.readLuma(path)
        #expect(back.width == 64 && back.pixels.allSatisfy { abs(Int($0) - 200) <= 2 })
    }

    /// What zbarimg users feed it besides PNG and JPEG (issue 46, item 13): WebP, TIFF (either byte order,
    /// grey or RGB), GIF and BMP, each decoded exactly.
    @Test func readsWebPTIFFGIFAndBMP() throws {
        let img = ImageSamples.pattern(width: 67, height: 19)
        let files: [(String, [UInt8])] = [
            ("webp", ImageSamples.webp(img)), ("tiff", ImageSamples.tiff(img)),
            ("tiff rgb big-endian", ImageSamples.tiff(img, rgb: true, bigEndian: true))
        ]
        for (name, bytes) in files {
            let back = try ImageFile.decodeLuma([(name, bytes)])[0].get()
            #expect(back == img, "\(name)")
        }
        // GIF and BMP, which stb_image reads, written by stb_image_write's BMP and by hand for GIF's header.
        let bmp = dir + "/g.bmp"
        #expect(img.pixels.withUnsafeBytes { stbi_write_bmp(bmp, 67, 19, 1, $0.baseAddress) } != 0)
        #expect(try ImageFile.readLuma(bmp) == img)
    }

    /// A format stb_image would try and scand does not offer (TGA, PSD, HDR) is refused as not an image.
    @Test func aFormatScandDoesNotOfferIsRefused() throws {
        let tga = dir + "/g.tga"
        let img = ImageSamples.pattern(width: 8, height: 8)
        #expect(img.pixels.withUnsafeBytes { stbi_write_tga(tga, 8, 8, 1, $0.baseAddress) } != 0)
        #expect {
            try ImageFile.readLuma(tga)
        } throws: { error in
            (error as? ImageFile.ReadError)?.reason == "not a PNG, JPEG, GIF, BMP, PNM (PGM/PPM), WebP or TIFF image"
        }
    }

    @Test func namesTheReasonForUnreadableFiles() throws {
        FileManager.default.createFile(atPath: dir + "/empty.png", contents: Data())
        FileManager.default.createFile(atPath: dir + "/text.png", contents: Data("hello, not an image".utf8))
        try PNGWriter.write(gradient(), to: dir + "/whole.png")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.png"))
        FileManager.default.createFile(atPath: dir + "/truncated.png", contents: whole.prefix(60))
        let cases: [(String, String)] = [
            (dir + "/missing.png", "no such file or directory"),
            (dir, "is a directory"),
            (dir + "/empty.png", "file is empty"),
            (dir + "/text.png", "not a PNG, JPEG, GIF, BMP, PNM (PGM/PPM), WebP or TIFF image"),
            (dir + "/truncated.png", "corrupt or unsupported image")
        ]
        for (path, reason) in cases {
            #expect {
                try ImageFile.readLuma(path)
            } throws: { error in
                let e = error as! ImageFile.ReadError
                return e.path == path && e.description.contains(reason) && !e.description.contains("\n")
            }
        }
    }

    /// Each of these once got a wrong reason: "file is empty" for a device and a FIFO, "image is 0x0, more
    /// than the 100 megapixels", "not a PNG" for a PNG too large to decode.
    @Test func namesTheRightReasonForOddFiles() throws {
        let fifo = dir + "/fifo.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        try PNGWriter.write(gradient(), to: dir + "/small.png")
        var png = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/small.png")))
        for (at, v) in [(16, UInt32(100_000)), (20, UInt32(100_000))] {
            for i in 0..<4 { png[at + i] = UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(i))) }
        }
        FileManager.default.createFile(atPath: dir + "/huge.png", contents: Data(png))
        FileManager.default.createFile(atPath: dir + "/zero.pgm", contents: Data(Array("P5\n0 0\n255\n".utf8) + [0, 0, 0]))
        let cases: [(String, String)] = [
            ("/dev/zero", "is a device, not an image file"),
            (fifo, "is a FIFO"),
            (dir + "/huge.png", "image is 100000x100000, more than the 100 megapixels"),
            (dir + "/zero.pgm", "declares 0x0 pixels")
        ]
        for (path, reason) in cases {
            #expect {
                try ImageFile.readLuma(path)
            } throws: { error in
                let e = error as! ImageFile.ReadError
                return e.reason.contains(reason) && !e.reason.contains("megapixels") == !reason.contains("megapixels")
            }
        }
    }

    /// Issue 31, 4: a 512 MB sparse file was read whole, then copied (1.56 GiB at the peak) before "corrupt
    /// PNG". It is refused from its size now, before anything is read.
    @Test func aFileLargerThanAnyImageIsRefusedBeforeItIsRead() throws {
        let path = dir + "/sparse.png"
        try TestFiles.sparse(path, bytes: 512 << 20)
        #expect { try ImageFile.readLuma(path) } throws: {
            ($0 as! ImageFile.ReadError).description == "cannot read '\(path)': 536870912 bytes, larger than 128 MiB: not an image scand reads"
        }
    }

    @Test func refusesImagesThatWouldExhaustMemory() throws {
        // A valid PNG header claiming 20000x20000 pixels: refused from the header, nothing decoded.
        let path = dir + "/huge.pgm"
        FileManager.default.createFile(atPath: path, contents: Data(Array("P5\n20000 20000\n255\n".utf8) + [0, 0, 0]))
        #expect { try ImageFile.readLuma(path) } throws: { ($0 as! ImageFile.ReadError).reason.contains("megapixels") }
    }
}

@Suite struct JPEGEncoderTests {
    /// A preview comes back through stb_image as the picture it was: same size, pixels within JPEG's error.
    @Test func aThumbnailEncodesAndDecodesBack() throws {
        var page = LumaImage(width: 640, height: 360, fill: 200)
        page.paste(LumaImage(width: 100, height: 100, fill: 20), x: 100, y: 100)
        let frame = Frame.yuyv(page)
        let thumbnail = try #require(frame.thumbnail(maxSide: 320))
        #expect(thumbnail.width == 320 && thumbnail.height == 180)
        #expect(thumbnail.pixels[75 * 320 + 75] == 20 && thumbnail.pixels[10 * 320 + 10] == 200)
        let jpeg = JPEGEncoder.encode(thumbnail)
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.count < 320 * 180 / 4)
        var w: Int32 = 0, h: Int32 = 0, n: Int32 = 0
        let decoded = try #require(jpeg.withUnsafeBufferPointer { stbi_load_from_memory($0.baseAddress, Int32($0.count), &w, &h, &n, 1) })
        defer { stbi_image_free(decoded) }
        #expect(w == 320 && h == 180)
        #expect(abs(Int(decoded[75 * 320 + 75]) - 20) < 8 && abs(Int(decoded[10 * 320 + 10]) - 200) < 8)
    }
}
