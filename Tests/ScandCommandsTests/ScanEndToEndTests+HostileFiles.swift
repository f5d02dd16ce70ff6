import CSTB
import Foundation
import Testing
import ScandCore
import ScandImageIO
import ScandTestSupport

extension ScanEndToEndTests {
    /// A JPEG of a generated gradient, through stb_image_write.
    func jpeg() -> [UInt8] {
        let pixels = (0..<64 * 48).map { UInt8(truncatingIfNeeded: ($0 % 64) * 3 + ($0 / 64) * 2) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        _ = pixels.withUnsafeBytes { raw in
            stbi_write_jpg_to_func(
                { context, data, size in
                    Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue().bytes += UnsafeRawBufferPointer(start: data, count: Int(size))
                }, Unmanaged.passUnretained(sink).toOpaque(), 64, 48, 1, raw.baseAddress, 80)
        }
        return sink.bytes
    }

    /// Hostile files between good ones: each costs one line on stderr naming it, the run goes on, exit status 1.
    /// The PNG's size once overflowed the too-large check and trapped `scand scan` itself (found by
    /// ImageDecodingFuzzTests); the JPEG's frame header claims 12-bit samples.
    @Test func hostileFilesCostOneLineEachNotTheRun() throws {
        let first = try page([(.qrCode, "before", 450, 200)], name: "before.png")
        // A PNG whose header declares 4294967295 x 4294967295 pixels.
        var png = Array(try Data(contentsOf: URL(fileURLWithPath: try page([], width: 40, height: 30, name: "small.png"))))
        png.replaceSubrange(16..<24, with: [UInt8](repeating: 0xFF, count: 8))
        let huge = dir + "/overflow.png"
        FileManager.default.createFile(atPath: huge, contents: Data(png))
        var mutated = jpeg()
        let frame = try #require((0..<mutated.count - 4).first { mutated[$0] == 0xFF && mutated[$0 + 1] == 0xC0 }, "a baseline frame header")
        mutated[frame + 4] = 12  // sample precision, after the marker and the segment's length
        let bad = dir + "/mutated.jpg"
        FileManager.default.createFile(atPath: bad, contents: Data(mutated))
        let last = try page([(.qrCode, "after", 450, 200)], name: "after.png")

        let r = try ScandBinary.run(["scan", first, huge, bad, last])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(try r.lines.map { try json($0)["text"] as? String } == ["before", "after"])
        let errors = r.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(r.stderr)")
        #expect(
            errors.first?.contains("overflow.png") == true && errors.first?.contains("4294967295x4294967295, more than the 100 megapixels") == true)
        #expect(errors.last?.contains("mutated.jpg") == true && errors.last?.contains("corrupt or unsupported") == true)
    }
}
