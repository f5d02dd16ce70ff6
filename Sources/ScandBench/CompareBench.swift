import ArgumentParser
import Foundation
import ScandBenchScenes
import ScandCore
import ScandProtocol
import ScandDecoding

/// `scand bench compare`: the same generated camera frames (noise, blur, tilt, uneven light) through scand's
/// live decoder, zxing-cpp with its default options, and libzbar (zbarcam's engine), in one run: codes
/// found, misreads and CPU time per frame.
struct CompareBench: Bench {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Codes found and CPU per frame: scand vs zxing's default hints vs libzbar, on generated frames."
    )

    @Option(name: .long, help: "Number of frames.")
    var frames: Int = 180

    @Option(name: .long, help: "Frame size WIDTHxHEIGHT.")
    var size: String = "1280x720"

    @OptionGroup var output: BenchOutput

    struct Sample {
        var image: LumaImage
        /// The same picture as a camera frame, made before timing starts.
        var frame: Frame
        var format: BarcodeFormat
        var expected: String
    }

    struct Score {
        var reader: String
        /// Frames decoded per sample: a code held up to a camera is in many.
        var framesPerSample = 1
        var found = 0
        var misreads = 0
        var cpuSeconds = 0.0
        /// Frames whose code was found, per format.
        var foundByFormat: [BarcodeFormat: Int] = [:]
        /// What each misread was: the frame's format, its payload, what was read.
        var misreadDetails: [(format: BarcodeFormat, expected: String, read: String)] = []

        func cpuMsPerFrame(_ samples: Int) -> Double { cpuSeconds * 1000 / Double(samples * framesPerSample) }
    }

    static let formats: [(BarcodeFormat, @Sendable (Int) -> String)] = [
        (.qrCode, { "https://example.org/t/\($0)" }), (.ean13, { ean13($0) }), (.code128, { "TICKET-\($0)" }),
        (.dataMatrix, { "DM-\($0)" }), (.code39, { "C39-\($0)" }), (.pdf417, { "PDF417 pass \($0)" }),
        (.aztec, { "AZ-\($0)" }), (.ean8, { ean8($0) }), (.itf, { String(format: "%014d", 10_000_000 + $0 * 7) })
    ]

    func report() throws -> BenchReport? {
        guard let (w, h) = ScandConfig.parseSize(size) else { throw ValidationError("--size must be WIDTHxHEIGHT, e.g. 1280x720; got '\(size)'") }
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        let samples = try Self.samples(count: frames, width: w, height: h)
        var scores: [Score] = []

        // Samples are unrelated: a fresh live decoder each (nothing carried over), one worker. Shown for one frame,
        // scand runs its cheap passes; shown for as many frames as there are kinds of expensive pass, every kind
        // comes round once (the schedule's budget is lifted, so the run is the same on every machine).
        let kinds = ExtraPassSchedule.kinds
        for frames in [1, kinds] {
            scores.append(
                Self.measure(frames == 1 ? "scand, first frame" : "scand, \(frames) frames", samples, framesPerSample: frames) {
                    let worker = ZXingDecoder(passTimeoutMilliseconds: 2000, worker: DecoderWorker())
                    return { sample in
                        var live = FrameDecoder(itfLengths: ScandConfig().itfLengths, decoder: worker)
                        live.extraPassBudgetMilliseconds = frames == 1 ? 0 : .infinity
                        var texts: [String] = []
                        for _ in 0..<frames {
                            for t in (try? live.decode(sample.frame).detections.map(\.text)) ?? [] where !texts.contains(t) { texts.append(t) }
                        }
                        return texts
                    }
                })
        }
        let zxing = ZXingDecoder()
        scores.append(
            Self.measure("zxing-cpp \(ZXingDecoder.libraryVersion) defaults", samples) {
                { sample in
                    let image = sample.image
                    return zxing.decode(image, passes: [.zxingDefaults(width: image.width, height: image.height)]).detections.map(\.text)
                }
            })
        let zbar = ZBarReader()
        scores.append(Self.measure("libzbar 0.23", samples) { { zbar.read($0.image) } })

        var lines = ["| reader | frames | codes found | misreads | CPU ms per frame |", "|---|---|---|---|---|"]
        for s in scores {
            lines.append(
                "| \(s.reader) | \(samples.count) | \(s.found) | \(s.misreads) | " + String(format: "%.1f", s.cpuMsPerFrame(samples.count)) + " |")
        }
        let formats = Self.formats.map(\.0)
        lines.append("")
        lines.append("| found per format | " + formats.map(\.name).joined(separator: " | ") + " |")
        lines.append("|---|" + formats.map { _ in "---|" }.joined())
        let shown = Dictionary(grouping: samples, by: \.format).mapValues(\.count)
        for score in scores {
            let cells = formats.map { f in "\(score.foundByFormat[f] ?? 0) / \(shown[f] ?? 0)" }
            lines.append("| \(score.reader) | " + cells.joined(separator: " | ") + " |")
        }
        for s in scores where !s.misreadDetails.isEmpty {
            lines.append("")
            lines.append(
                "\(s.reader) misread: "
                    + s.misreadDetails.map { "\($0.format.name) \"\($0.expected)\" as \"\($0.read.escapingControlCharacters())\"" }
                    .joined(separator: "; "))
        }
        let value = JSONValue.array(
            scores.map { score in
                let byFormat = JSONValue.object(formats.map { f in (f.name, JSONValue.int(score.foundByFormat[f] ?? 0)) })
                return .object([
                    ("reader", .string(score.reader)), ("frames", .int(samples.count)), ("found", .int(score.found)),
                    ("misreads", .int(score.misreads)),
                    ("framesPerSample", .int(score.framesPerSample)),
                    ("cpuMsPerFrame", JSONValue.number(score.cpuMsPerFrame(samples.count), places: 2)),
                    ("foundByFormat", byFormat),
                    (
                        "misreadDetails",
                        .array(
                            score.misreadDetails.map {
                                .object([("format", .string($0.format.name)), ("expected", .string($0.expected)), ("read", .string($0.read))])
                            })
                    )
                ])
            })
        return BenchReport(name: "compare", table: lines.joined(separator: "\n"), rows: value)
    }

    /// `makeReader` builds the reader inside the measurement and it is released before the end: scand's
    /// decoder worker process then exits and its CPU time counts among this process's children.
    static func measure(_ name: String, _ samples: [Sample], framesPerSample: Int = 1, _ makeReader: () -> (Sample) -> [String]) -> Score {
        var score = Score(reader: name, framesPerSample: framesPerSample)
        let before = FramesBench.cpuSeconds()
        do {
            let read = makeReader()
            for s in samples {
                var hit = false
                for text in read(s) {
                    // zbar writes UPC-A as EAN-13 with a leading zero: the same payload.
                    if text == s.expected || text == "0" + s.expected {
                        hit = true
                    } else {
                        score.misreads += 1
                        score.misreadDetails.append((s.format, s.expected, text))
                    }
                }
                if hit {
                    score.found += 1
                    score.foundByFormat[s.format, default: 0] += 1
                }
            }
        }
        score.cpuSeconds = FramesBench.cpuSeconds() - before
        return score
    }

    /// One code a frame, of each format in turn, at a random place, size and tilt, with sensor noise, blur
    /// on every other frame and light falling off across the frame. Seeded: the same frames every run.
    static func samples(count: Int, width: Int, height: Int) throws -> [Sample] {
        var rng = Xorshift(seed: 2026)
        var out: [Sample] = []
        for i in 0..<count {
            let (format, payload) = formats[i % formats.count]
            let text = payload(i)
            let symbol = try SymbolWriter.render(format, text: text, moduleSize: 2 + Int(rng.next() % 3))
            var page = LumaImage(width: width, height: height, fill: UInt8(150 + rng.next() % 90))
            let margin = Double(max(symbol.width, symbol.height)) / 2 + 10
            let x = margin + Double(rng.next() % UInt64(max(1, Int(Double(width) - 2 * margin))))
            let y = margin + Double(rng.next() % UInt64(max(1, Int(Double(height) - 2 * margin))))
            page.paste(
                symbol, centerX: min(x, Double(width) - margin), centerY: min(y, Double(height) - margin),
                degrees: Double(Int(rng.next() % 41) - 20))
            if i % 2 == 1 { page = boxBlur(page) }
            let dark = 0.55 + Double(rng.next() % 30) / 100
            for py in 0..<height {
                for px in 0..<width {
                    let light = 1 - (1 - dark) * Double(px) / Double(width)
                    let noise = Double(Int(rng.next() % 17) - 8)
                    page[px, py] = UInt8(clamping: Int(Double(page[px, py]) * light + noise))
                }
            }
            out.append(Sample(image: page, frame: Frame.yuyv(page), format: format, expected: text))
        }
        return out
    }

    static func boxBlur(_ img: LumaImage) -> LumaImage {
        var out = img
        for y in 1..<(img.height - 1) {
            for x in 1..<(img.width - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(img[x + dx, y + dy]) } }
                out[x, y] = UInt8(sum / 9)
            }
        }
        return out
    }

    static func ean13(_ n: Int) -> String { GS1Number.withCheckDigit(String(format: "400638%06d", n % 1_000_000)) }
    static func ean8(_ n: Int) -> String { GS1Number.withCheckDigit(String(format: "9638%03d", n % 1000)) }
}
