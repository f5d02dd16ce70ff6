import Foundation
import Testing
import ScandCore
import ScandDecoding
@testable import ScandBench
import ScandTestSupport

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
        #expect(CompareBench.ean8(0).count == 8)
    }

    @Test func benchRunsEveryBenchmarkInOneRunAndWritesOneJSON() throws {
        let dir = ScandBinary.temporaryDirectory()
        let json = dir + "/bench.json"
        let r = try ScandBinary.run([
            "bench", "--seconds", "1", "--scenes", "ticket,busy", "--sizes", "640x480", "--compare-frames", "9",
            "--till-items", "2",
            "--root", dir + "/no-photos", "--json", json
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("## frames") && r.stdout.contains("## compare") && r.stdout.contains("## photos\n\nskipped"))
        let data = try #require(FileManager.default.contents(atPath: json))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let machine = try #require(object["machine"] as? [String: Any])
        #expect(machine["cores"] as? Int == ProcessInfo.processInfo.activeProcessorCount && machine["zxing"] as? String == "3.1.1")
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.map { $0["scene"] as? String } == ["ticket", "busy"])
        #expect((frames[0]["decoded"] as? Int ?? 0) > 0 && (frames[0]["codes"] as? Int ?? 0) > 0)
        // The busy surface changes every frame: none is skipped as static, and no code is made up.
        #expect(frames[1]["skippedStatic"] as? Int == 0 && frames[1]["codes"] as? Int == 0 && (frames[1]["decoded"] as? Int ?? 0) > 0)
        let compare = try #require(object["compare"] as? [[String: Any]])
        #expect(compare.map { $0["frames"] as? Int } == [9, 9, 9, 9])
        #expect(compare.map { $0["framesPerSample"] as? Int } == [1, ExtraPassSchedule.kinds, 1, 1])
        #expect(compare.allSatisfy { ($0["found"] as? Int ?? -1) >= 0 && $0["misreadDetails"] is [Any] })
        #expect(object["photos"] == nil, "no photos, no photo rows")
    }
}
