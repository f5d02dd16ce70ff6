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
        /// One zxing-cpp ReadBarcodes call with its default options (isolated: an abort finds nothing).
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
                if let d = fm.contents(atPath: base + ".txt") {
                    s.expectedText = String(decoding: d, as: UTF8.self)
                } else if let d = fm.contents(atPath: base + ".bin") {
                    s.expectedBytes = Array(d)
                } else if !folder.hasPrefix("falsepositives") {
                    continue
                }
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
        // scand as `scand scan` runs, and zxing's defaults likewise: one persistent isolated decoder process for
        // all images (a fork per image would weigh on both), ended (its CPU time then counted) before the clock
        // stops.
        let decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))
        for sample in samples {
            score.images += 1
            guard let reads = self.reads(reader, sample.path, decoder: decoder) else {
                score.failures += 1
                continue
            }
            var hit = false
            for read in reads {
                if read.matches(sample) { hit = true } else { score.misreads += 1 }
            }
            if hit { score.correct += 1 }
        }
        decoder.worker?.retire()
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
    func reads(_ reader: Reader, _ path: String, decoder: ZXingDecoder = ZXingDecoder()) -> [Read]? {
        switch reader {
        case .scand:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            // The answers leave out EAN add-ons, which scand reads: the main number is the same payload.
            return StillImageDecoder(decoder: decoder).decode(image).detections.map { d in
                Read(text: d.text, bytes: d.bytes, equivalents: d.addOn == nil ? [] : [String(decoding: d.mainBytes, as: UTF8.self)])
            }
        case .zxingDefaults:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            let report = decoder.decode(image, passes: [.zxingDefaults(width: image.width, height: image.height)])
            return report.failures.isEmpty ? report.detections.map { Read(text: $0.text, bytes: $0.bytes) } : nil
        case .zbarimg:
            return ZBarImg.reads(path)
        }
    }
}
