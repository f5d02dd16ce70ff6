import ScandTestSupport
import Foundation
import Testing
@testable import ScandImageIO

/// Hostile image files through the real decoding path (stb_image, libwebp and libtiff in the sandboxed
/// child): 102,000 seeded mutations of generated PNG, JPEG, PNM, WebP and TIFF files, in batches of 1,000 a child. None may take scand's process
/// down or hang; each file ends as pixels or one line saying why not. (Whether stb_image asserts on a file
/// depends on what the child decoded before it: it reads memory it never wrote. About one file in 100,000
/// here crashes its child, which costs that file only.)
@Suite struct ImageDecodingFuzzTests {
    let dir = ImageFileTests().dir

    func seeds() throws -> [(name: String, bytes: [UInt8])] {
        let small = ImageSamples.pattern(width: 40, height: 30), odd = ImageSamples.pattern(width: 67, height: 19)
        return [
            ("png", try ImageSamples.png(small, in: dir)),
            ("png odd", try ImageSamples.png(odd, in: dir)),
            ("jpeg grey", ImageSamples.jpeg(small, components: 1, quality: 90)),
            ("jpeg colour", ImageSamples.jpeg(odd, components: 3, quality: 75)),
            ("jpeg colour small", ImageSamples.jpeg(small, components: 3, quality: 30)),
            ("pgm", ImageSamples.pgm(small)),
            ("ppm", ImageSamples.ppm(odd)),
            ("webp", ImageSamples.webp(odd)),
            ("tiff", ImageSamples.tiff(small)),
            ("tiff rgb big-endian", ImageSamples.tiff(odd, rgb: true, bigEndian: true))
        ]
    }

    @Test func mutatedFilesCostOneFileEachNeverTheProcess() throws {
        let seeds = try seeds()
        for (name, bytes) in seeds {
            let result = ImageFile.decodeLuma([(name, bytes)])[0]
            #expect((try? result.get()) != nil, "the unmutated \(name) decodes")
        }
        var rng = SeededRandom(seed: 15)
        var decoded = 0, refused = 0, crashed = 0, other: [String] = []
        for batch in 0..<102 {
            let files = (0..<1000).map { i in
                let seed = seeds[(batch * 1000 + i) % seeds.count]
                return (path: "\(seed.name) #\(batch * 1000 + i)", bytes: ImageMutator.mutate(seed.bytes, &rng))
            }
            let results = ImageFile.decodeLuma(files)
            #expect(results.count == files.count)
            for (file, result) in zip(files, results) {
                switch result {
                case .success(let image):
                    if image.width > 0, image.height > 0, image.pixels.count == image.width * image.height {
                        decoded += 1
                    } else {
                        other.append("\(file.path): bad image")
                    }
                case .failure(let error):
                    if error.path != file.path || error.reason.isEmpty || error.description.contains("\n") {
                        other.append(error.description)
                    } else if error.reason.hasPrefix("crashed (signal") {
                        crashed += 1
                    } else if error.reason.hasPrefix("corrupt") || error.reason.hasPrefix("not a PNG") || error.reason.contains("megapixels") {
                        refused += 1
                    } else {
                        other.append(error.description)
                    }
                }
            }
        }
        #expect(decoded + refused + crashed == 102_000, "no file timed out or failed otherwise: \(other.prefix(5))")
        #expect(decoded > 10_000 && refused > 10_000)
        print("image fuzz: \(decoded) decoded, \(refused) refused, \(crashed) crashed the decoder child")
    }
}
