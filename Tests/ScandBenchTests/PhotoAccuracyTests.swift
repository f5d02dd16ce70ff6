import Foundation
import Testing
@testable import ScandBench

/// On zxing-cpp's own test photos (../shared, when present): per folder, scand finds at least as many
/// correct payloads as zxing-cpp 3.1 with its default options, with no more misreads, and nothing at all
/// in the false-positive folder.
@Suite struct PhotoAccuracyTests {
    static let root: String = {
        // This file is Tests/ScandBenchTests/…; the package root is three levels up.
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        dir.appendPathComponent("../shared/testdata/zxing-cpp-1.4.0-samples")
        return dir.standardized.path
    }()

    static let folders = PhotoBenchmark.load(root: root)

    @Test(
        .enabled(if: !folders.isEmpty, "needs ../shared/testdata/zxing-cpp-1.4.0-samples"),
        arguments: folders.map(\.folder))
    func atLeastZXingDefaults(_ folder: String) throws {
        let samples = try #require(Self.folders.first { $0.folder == folder }).samples
        let bench = PhotoBenchmark()
        let scand = bench.score(.scand, folder: folder, samples: samples)
        if folder.hasPrefix("falsepositives") {
            #expect(scand.misreads == 0 && scand.correct == 0)
            return
        }
        let zxing = bench.score(.zxingDefaults, folder: folder, samples: samples)
        #expect(scand.correct >= zxing.correct, "\(folder): scand \(scand.correct), zxing defaults \(zxing.correct)")
        #expect(scand.misreads <= zxing.misreads, "\(folder): scand misreads \(scand.misreads), zxing \(zxing.misreads)")
        #expect(scand.failures == 0)
    }

    @Test func zbarConventionsAreNotMisreads() {
        #expect(ZBarImg.conventions("A1234567890A", type: "Codabar") == ["1234567890"])
        #expect(ZBarImg.conventions("10ABC\u{1d}2112", type: "DataBar-Exp") == ["10ABC2112"])
        #expect(ZBarImg.expandUPCE("01234565") == "012345000065")
        #expect(ZBarImg.expectedSpellings("(01)123").contains("01123"))
        let reads = ZBarImg.parse(
            "<symbol type='QR-Code'><data><![CDATA[a\nb]]></data></symbol><symbol type='Codabar'><data><![CDATA[A1B]]></data></symbol>")
        #expect(reads.map(\.text) == ["a\nb", "A1B"])
        #expect(reads[1].equivalents == ["1"])
        let gs1 = ZBarImg.parse("<symbol type='DataBar-Exp'><data format='base64' length='7'><![CDATA[\nMTA1NjcdMTE=\n]]></data></symbol>")
        #expect(gs1.first?.equivalents == ["1056711"])
    }
}
