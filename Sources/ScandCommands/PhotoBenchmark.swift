import Foundation
import ScandCore
import ScandDecoding
import ScandImageIO

/// Accuracy on real photos with known answers (zxing-cpp's test images: NAME.png|jpg with NAME.txt
/// holding the expected text or NAME.bin the expected bytes). Counts, per folder, the images whose
/// payload was found and the reads that match no answer (misreads).
public struct PhotoBenchmark: Sendable {
    public struct Sample: Sendable {
        public var path: String
        /// Expected text (from .txt) or bytes (from .bin); nil in a false-positive folder.
        public var expectedText: String?
        public var expectedBytes: [UInt8]?
    }

    public struct Score: Sendable, Equatable {
        public var folder: String
        public var images = 0
        public var correct = 0
        public var misreads = 0
        /// Images where the reader crashed or could not run.
        public var failures = 0
        public var seconds = 0.0
        /// CPU time of this process and its reaped children (the isolated decoder's forks).
        public var cpuSeconds = 0.0
    }

    public enum Reader: String, Sendable, CaseIterable {
        /// scand's still-image strategy.
        case scand
        /// One zxing-cpp 1.4 ReadBarcodes call with default hints (isolated: an abort finds nothing).
        case zxingDefaults = "zxing-defaults"
        /// zbarimg, zbarcam's engine on still images.
        case zbarimg
    }

    /// The default location of the shared photos, beside the project's checkout.
    public static func defaultRoot(from directory: String = FileManager.default.currentDirectoryPath) -> String {
        (directory as NSString).appendingPathComponent("../shared/testdata/zxing-cpp-1.4.0-samples")
    }

    /// Folders (sorted) with their samples; empty when `root` does not exist.
    public static func load(root: String) -> [(folder: String, samples: [Sample])] {
        let fm = FileManager.default
        guard let folders = try? fm.contentsOfDirectory(atPath: root) else { return [] }
        var out: [(String, [Sample])] = []
        for folder in folders.sorted() {
            let dir = (root as NSString).appendingPathComponent(folder)
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else { continue }
            var samples: [Sample] = []
            for name in names.sorted() where ["png", "jpg", "jpeg", "pgm", "ppm"].contains((name as NSString).pathExtension.lowercased()) {
                let base = (dir as NSString).appendingPathComponent((name as NSString).deletingPathExtension)
                var s = Sample(path: (dir as NSString).appendingPathComponent(name))
                if let d = fm.contents(atPath: base + ".txt") { s.expectedText = String(decoding: d, as: UTF8.self) }
                else if let d = fm.contents(atPath: base + ".bin") { s.expectedBytes = Array(d) }
                else if !folder.hasPrefix("falsepositives") { continue }
                samples.append(s)
            }
            if !samples.isEmpty { out.append((folder, samples)) }
        }
        return out
    }

    public init() {}

    public func score(_ reader: Reader, folder: String, samples: [Sample]) -> Score {
        var score = Score(folder: folder)
        let start = Date(), cpuBefore = FramesBench.cpuSeconds()
        // scand as `scand scan` runs: one persistent decoder process for all images, ended (and its CPU time
        // counted) before the clock stops.
        let still = reader == .scand ? StillImageDecoder(decoder: ZXingDecoder(worker: DecoderWorker(lanes: 1))) : nil
        for sample in samples {
            score.images += 1
            guard let reads = self.reads(reader, sample.path, still: still) else {
                score.failures += 1
                continue
            }
            var hit = false
            for read in reads {
                if read.matches(sample) { hit = true } else { score.misreads += 1 }
            }
            if hit { score.correct += 1 }
        }
        still?.decoder.worker?.retire()
        score.seconds = Date().timeIntervalSince(start)
        score.cpuSeconds = FramesBench.cpuSeconds() - cpuBefore
        return score
    }

    struct Read {
        var text: String
        var bytes: [UInt8]
        /// Other spellings of the same payload under the reader's conventions (zbar's, see ZBarImg).
        var equivalents: [String] = []

        func matches(_ sample: Sample) -> Bool {
            if let bytes = sample.expectedBytes { return self.bytes == bytes }
            guard let expected = sample.expectedText else { return false }
            return text == expected || equivalents.contains { ZBarImg.expectedSpellings(expected).contains($0) }
        }
    }

    /// The payloads one reader finds in one image; nil when the reader failed on it.
    func reads(_ reader: Reader, _ path: String, still: StillImageDecoder? = nil) -> [Read]? {
        switch reader {
        case .scand:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            let still = still ?? StillImageDecoder()
            // The answers leave out EAN add-ons, which scand reads: the main number is the same payload.
            return still.decode(image).detections.map { d in
                Read(text: d.text, bytes: d.bytes, equivalents: d.addOn == nil ? [] : [String(decoding: d.mainBytes, as: UTF8.self)])
            }
        case .zxingDefaults:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            let report = ZXingDecoder().decode(image, passes: [.zxingDefaults(width: image.width, height: image.height)])
            return report.failures.isEmpty ? report.detections.map { Read(text: $0.text, bytes: $0.bytes) } : nil
        case .zbarimg:
            return ZBarImg.reads(path)
        }
    }
}

/// Runs `zbarimg --xml` (Debian's zbar-tools) on one file.
enum ZBarImg {
    static var available: Bool { executable != nil }

    static let executable: String? = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func reads(_ path: String) -> [PhotoBenchmark.Read]? {
        guard let exe = executable else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["--xml", "-q", path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        // 0: found, 4: nothing found; anything else is a failure.
        guard p.terminationStatus == 0 || p.terminationStatus == 4 else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// zbar spells some payloads differently from zxing and the test answers: Codabar keeps its start
    /// and stop characters, UPC-A and UPC-E come out as EAN-13, DataBar carries its "01" application
    /// identifier, DataBar Expanded has no parentheses. These are the same payloads, not misreads.
    static func conventions(_ text: String, type: String) -> [String] {
        switch type.uppercased() {
        case "CODABAR" where text.count >= 2: [String(text.dropFirst().dropLast())]
        case "EAN-13" where text.hasPrefix("0"): [String(text.dropFirst())]
        case "DATABAR" where text.hasPrefix("01"): [String(text.dropFirst(2))]
        // zbar marks the end of a variable-length element with GS (FNC1); the answers do not.
        case "DATABAR-EXP": [text.filter { $0 != "\u{1d}" }]
        default: []
        }
    }

    /// The answer file's text in the spellings `conventions` produces.
    static func expectedSpellings(_ expected: String) -> [String] {
        var out = [expected, expected.filter { $0 != "(" && $0 != ")" }]
        if let upcA = expandUPCE(expected) { out.append(upcA) }
        return out
    }

    /// UPC-E (8 digits with number system and check digit) → UPC-A (12 digits).
    static func expandUPCE(_ e: String) -> String? {
        let d = Array(e)
        guard d.count == 8, d.allSatisfy(\.isNumber), d[0] == "0" || d[0] == "1" else { return nil }
        let m = String(d[1...6]), c = Array(m), check = String(d[7]), ns = String(d[0])
        let body: String
        switch c[5] {
        case "0", "1", "2": body = "\(c[0])\(c[1])\(c[5])0000\(c[2])\(c[3])\(c[4])"
        case "3": body = "\(c[0])\(c[1])\(c[2])00000\(c[3])\(c[4])"
        case "4": body = "\(c[0])\(c[1])\(c[2])\(c[3])00000\(c[4])"
        default: body = "\(c[0])\(c[1])\(c[2])\(c[3])\(c[4])0000\(c[5])"
        }
        return ns + body + check
    }

    static func parse(_ xml: String) -> [PhotoBenchmark.Read] {
        var reads: [PhotoBenchmark.Read] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<data") {
            let type = rest[..<open.lowerBound].range(of: "type='", options: .backwards).map { r in
                String(rest[r.upperBound...].prefix { $0 != "'" })
            } ?? ""
            let tagEnd = rest[open.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let isBase64 = rest[open.upperBound..<tagEnd].contains("base64")
            guard let cdata = rest.range(of: "<![CDATA[", range: tagEnd..<rest.endIndex),
                  let close = rest.range(of: "]]></data>", range: cdata.upperBound..<rest.endIndex) else { break }
            let body = String(rest[cdata.upperBound..<close.lowerBound])
            // zbar writes payloads with control characters (a GS in GS1 data) as base64.
            if isBase64, let bytes = Base64.decode(body.filter { !$0.isWhitespace }) {
                let text = String(decoding: bytes, as: UTF8.self)
                reads.append(.init(text: text, bytes: bytes, equivalents: conventions(text, type: type)))
            } else {
                reads.append(.init(text: body, bytes: Array(body.utf8), equivalents: conventions(body, type: type)))
            }
            rest = rest[close.upperBound...]
        }
        return reads
    }
}
