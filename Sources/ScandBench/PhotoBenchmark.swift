import Foundation
import ScandCore
import ScandDecoding
import ScandCapture
import ScandImageIO
import ScandPipeline

/// Accuracy on real photos with known answers (zxing-cpp's test images: NAME.png|jpg with NAME.txt
/// holding the expected text or NAME.bin the expected bytes, in folders; quagga2's photos: one folder with a
/// gt.csv of image,format,payload, an empty payload for a photo without a code). Counts, per folder, the
/// images whose payload was found, the reads that match no answer (misreads), among them the EAN/UPC reads
/// with another main number (the worst kind: another product), and any read of a photo without a code.
public struct PhotoBenchmark: Sendable {
    public struct Sample: Sendable {
        public var path: String
        /// Expected text (from .txt) or bytes (from .bin); nil in a false-positive folder.
        public var expectedText: String?
        public var expectedBytes: [UInt8]?
        /// Characters the answer leaves out, removed from a read before comparing (gt.csv's note "compare after
        /// removing I/O/Q": the import marker "I" some VIN Code 39 symbols start with).
        public var ignoredCharacters: Set<Character> = []
    }

    public struct Score: Sendable, Equatable {
        public var folder: String
        public var images = 0
        public var correct = 0
        public var misreads = 0
        /// Images where the reader crashed or could not run.
        public var failures = 0
        /// Misreads that are EAN/UPC main numbers other than the answer's.
        public var wrongMainNumbers = 0
        /// Reads of photos without a code (counted among the misreads too).
        public var negativeReads = 0
        public var seconds = 0.0
        /// CPU time of this process and its reaped children (the isolated decoder's forks).
        public var cpuSeconds = 0.0
        /// The photos (file names) whose payload the reader found: what one reader missed that another read.
        public var found: Set<String> = []
    }

    public enum Reader: String, Sendable, CaseIterable {
        /// scand's still-image strategy.
        case scand
        /// One zxing-cpp ReadBarcodes call with its default options (isolated: an abort finds nothing).
        case zxingDefaults = "zxing-defaults"
        /// zbarimg, zbarcam's engine on still images.
        case zbarimg
        /// scand's live pipeline with the photo held still before the camera: the same frame `heldFrames` times,
        /// each decoded or skipped as a static scene, the codes being what it reports (SCAN).
        case scandHeld = "scand-live-held"
    }

    /// Frames a photo is held for by `Reader.scandHeld`: a second and a half at 30 fps.
    public static let heldFrames = 45

    /// The shared sets the bench runs by default, beside the project's checkout: zxing-cpp's samples and
    /// quagga2's development half.
    public static func defaultRoots(from directory: String = FileManager.default.currentDirectoryPath) -> [String] {
        ["zxing-cpp-1.4.0-samples", "quagga2-dev"].map { (directory as NSString).appendingPathComponent("../shared/testdata/" + $0) }
    }

    /// Folders (sorted) with their samples; empty when `root` does not exist. A root with a gt.csv is one folder.
    public static func load(root: String) -> [(folder: String, samples: [Sample])] {
        let fm = FileManager.default
        if let csv = fm.contents(atPath: (root as NSString).appendingPathComponent("gt.csv")) {
            let samples = loadGroundTruth(String(decoding: csv, as: UTF8.self), root: root)
            return samples.isEmpty ? [] : [((root as NSString).lastPathComponent, samples)]
        }
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

    /// Samples from a gt.csv (image,format,payload,…; a header line; an empty payload: no code in the photo).
    /// Its payloads have no commas or quotes; later columns, which may, are not read.
    static func loadGroundTruth(_ csv: String, root: String) -> [Sample] {
        csv.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let fields = line.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, !fields[0].isEmpty else { return nil }
            var sample = Sample(
                path: (root as NSString).appendingPathComponent(String(fields[0])), expectedText: fields[2].isEmpty ? nil : String(fields[2]))
            if fields.count > 3, fields[3].contains("removing I/O/Q") { sample.ignoredCharacters = ["I", "O", "Q"] }
            return sample
        }
    }

    public init() {}

    public func score(_ reader: Reader, folder: String, samples: [Sample]) async -> Score {
        var score = Score(folder: folder)
        let start = Date(), cpuBefore = FramesBench.cpuSeconds()
        // scand as `scand scan` runs, and zxing's defaults likewise: one persistent isolated decoder process for
        // all images (a fork per image would weigh on both), ended (its CPU time then counted) before the clock
        // stops.
        let decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))
        for sample in samples {
            score.images += 1
            guard let reads = await self.reads(reader, sample.path, decoder: decoder) else {
                score.failures += 1
                continue
            }
            var hit = false
            for read in reads {
                if read.matches(sample) {
                    hit = true
                } else if !read.isPartial(of: sample) {
                    score.misreads += 1
                    if sample.expectedText == nil && sample.expectedBytes == nil { score.negativeReads += 1 }
                    if read.hasWrongMainNumber(for: sample) { score.wrongMainNumbers += 1 }
                }
            }
            if hit {
                score.correct += 1
                score.found.insert((sample.path as NSString).lastPathComponent)
            }
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
        /// An EAN/UPC read's main number (without add-on), as the reader spells it.
        var mainNumber: String?

        /// An EAN/UPC main number read without the add-on the answer has: not the whole payload, not another one.
        func isPartial(of sample: Sample) -> Bool {
            guard let main = mainNumber, let expected = sample.expectedText else { return false }
            return ZBarImg.expectedSpellings(expected).contains { e in
                [2, 5].contains(e.count - main.count) && e.hasPrefix(main)
            }
        }

        /// An EAN/UPC read whose main number is not the answer's: another product.
        func hasWrongMainNumber(for sample: Sample) -> Bool {
            guard let main = mainNumber else { return false }
            guard let expected = sample.expectedText else { return true }
            let spellings = ZBarImg.expectedSpellings(expected)
            // zbar spells a UPC-A as an EAN-13 with a leading 0.
            let mains = main.hasPrefix("0") && main.count == 13 ? [main, String(main.dropFirst())] : [main]
            return !spellings.contains { e in mains.contains { e.hasPrefix($0) } }
        }

        func matches(_ sample: Sample) -> Bool {
            if let bytes = sample.expectedBytes { return self.bytes == bytes }
            guard let expected = sample.expectedText else { return false }
            let spellings = ZBarImg.expectedSpellings(expected)
            let text = sample.ignoredCharacters.isEmpty ? text : self.text.filter { !sample.ignoredCharacters.contains($0) }
            return text == expected || spellings.contains(text) || equivalents.contains { spellings.contains($0) }
        }
    }

    /// The payloads one reader finds in one image; nil when the reader failed on it.
    func reads(_ reader: Reader, _ path: String, decoder: ZXingDecoder = ZXingDecoder()) async -> [Read]? {
        switch reader {
        case .scand:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            return StillImageDecoder(decoder: decoder).decode(image).detections.map(Read.init)
        case .zxingDefaults:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            let report = decoder.decode(image, passes: [.zxingDefaults(width: image.width, height: image.height)])
            return report.failures.isEmpty
                ? report.detections.map { Read(text: $0.text, bytes: $0.bytes, mainNumber: $0.format.mainNumberLength == nil ? nil : $0.text) } : nil
        case .zbarimg:
            return ZBarImg.reads(path)
        case .scandHeld:
            guard let image = try? ImageFile.readLuma(path) else { return nil }
            return await Self.held(image, decoder: decoder).map(Read.init)
        }
    }

    /// What the live pipeline reports (SCAN) for `image` held still for `heldFrames` frames, in lockstep: every
    /// frame is decoded or skipped as a static scene, none dropped, each stamped as a 30 fps camera stamps it (a
    /// slow decode, as the first one on a loaded machine, is no time the photo was out of view).
    static func held(_ image: LumaImage, frames: Int = heldFrames, decoder: ZXingDecoder) async -> [Detection] {
        let frame = Frame(
            format: .packed(.grey, width: image.width, height: image.height), bytes: image.pixels, sequence: 0, timestampMicroseconds: 0)
        let scans = ScanLog()
        var options = CaptureSession.Options()
        options.delivery = .every
        let pipeline = LivePipeline(
            source: SyntheticSource(frames: [frame], count: frames, framesPerSecond: 0, stampedEvery: 33_333),
            decoder: FrameDecoder(decoder: decoder),
            output: OutputSink(event: { scans.add($0) }, log: { _ in }),
            captureOptions: options, clock: ReplaySource.Pace.lockstep.clock)
        await pipeline.run()
        return await scans.all().map(\.detection)
    }
}

extension PhotoBenchmark.Read {
    /// A scand read. The answers leave out EAN add-ons, which scand reads: the main number is the same payload.
    init(_ d: Detection) {
        let main = String(decoding: d.mainBytes, as: UTF8.self)
        self.init(text: d.text, bytes: d.bytes, equivalents: d.addOn == nil ? [] : [main], mainNumber: d.format.mainNumberLength == nil ? nil : main)
    }
}
