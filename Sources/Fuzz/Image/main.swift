import Foundation
import FuzzSupport
import ScandCore
import ScandImageIO

// A still image as `scand scan FILE` reads it: ImageFile.readLuma, whose PNG, JPEG, GIF, BMP, PNM, WebP or
// TIFF is decoded by stb_image, libwebp or libtiff in a scand-decoder process (beside this executable, as beside scand). stb_image's own faults cost
// that process, not this one; libFuzzer guides by this side's code (the file's checks, the reply's reading,
// the refusal's reason). What is read is a whole image of its declared size; a refusal is one line.

func seeds() -> [Fuzz.Seed] {
    let luma = LumaImage(width: 12, height: 9, pixels: (0..<108).map { UInt8(truncatingIfNeeded: $0 * 29) })
    func png(_ write: (String) throws -> Void) -> [UInt8] {
        let path = Fuzz.file(holding: [], suffix: ".png")
        do { try write(path) } catch { Fuzz.fail("cannot write the seed PNG: \(error)") }
        return Array(FileManager.default.contents(atPath: path) ?? Data())
    }
    let pgm = Array("P5\n# scand\n12 9\n255\n".utf8) + luma.pixels
    let ppm = Array("P6 12 9 255\n".utf8) + RGBImage(luma).pixels
    return [
        (name: "grey.png", bytes: png { try PNGWriter.write(luma, to: $0) }),
        (name: "rgb.png", bytes: png { try PNGWriter.write(RGBImage(luma), to: $0) }),
        (name: "grey.jpg", bytes: JPEGEncoder.encode(luma, quality: 80)),
        (name: "grey.pgm", bytes: pgm), (name: "rgb.ppm", bytes: ppm)
    ]
}

func test(_ input: [UInt8]) {
    let path = Fuzz.file(holding: input, suffix: ".image")
    do {
        let image = try ImageFile.readLuma(path)
        Fuzz.require(
            image.width > 0 && image.height > 0 && image.width * image.height <= ImageFile.maxPixels
                && image.pixels.count == image.width * image.height,
            "a \(image.width)x\(image.height) image of \(image.pixels.count) pixels")
    } catch {
        Fuzz.requireOneLine(error.description)
        Fuzz.require(!error.reason.contains("cannot start the image decoder"), "no scand-decoder beside \(CommandLine.arguments[0])")
    }
}

Fuzz.run(seeds: seeds, test: test)
