import Foundation
import ScandCore
import ScandDecoding
import ScandFiles
import ScandImageIO
import ScandProtocol
import ScandPipeline

/// `scand scan`: decodes still images and prints one SCAN object per code (or its text alone). Exit status
/// as zbarimg's, which scripts test: 0 when every image held a code, 4 when one or more held none, 1 when an
/// input could not be read (or not whole: as many codes as one pass returns) or an annotated copy not
/// written (ahead of 4).
public struct ScanRunner: Sendable {
    public enum ExitStatus: Int32, Sendable {
        case found = 0
        case failed = 1
        case nothingFound = 4
    }

    /// The name that reads standard input, as zbarimg's.
    public static let standardInput = "-"
    /// The most codes zxing-cpp returns from one pass over an image (its `maxNumberOfSymbols` is a byte):
    /// an image with that many read may hold more, which must not pass for a whole read.
    public static let symbolLimit = 255

    public var formats: BarcodeFormats = .all
    public var regionOfInterest: NormalizedRect = .full
    /// Annotated copy: a file path for one input, or a directory for several.
    public var annotatePath: String?
    /// The text of each code alone, one per line (zbarimg's `--raw`), control characters escaped.
    public var raw = false
    /// Errors only on stderr: no "no code found", no decoder warnings (zbarimg's `-q`).
    public var quiet = false
    /// One persistent sandboxed decoder process for the whole run (a process per image costs more than many
    /// reads); a process per call when it cannot be made.
    public var decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))
    /// Standard input's bytes, with the bound of an image file.
    public var readStandardInput: @Sendable () throws(BoundedFile.Failure) -> [UInt8] = {
        () throws(BoundedFile.Failure) in try BoundedFile.read(descriptor: 0, maxBytes: ImageFile.maxFileBytes)
    }

    public init() {}

    public func run(files: [String], output: OutputSink) -> ExitStatus {
        var everyFileHadACode = true, failed = false
        let still = StillImageDecoder(formats: formats, decoder: decoder)
        for file in files {
            let image: LumaImage
            do {
                image = try read(file)
            } catch {
                output.logger("\(error)", .error)
                failed = true
                continue
            }
            let report = still.decode(image, regionOfInterest: regionOfInterest)
            if !quiet {
                for failure in report.failures {
                    output.logger("'\(file)': \(failure)" + (failure.kind == .crashed ? "; its fallback passes ran instead" : ""), .warning)
                }
            }
            for d in report.detections {
                let code = ImageCode(file: file, detection: d, imageWidth: image.width, imageHeight: image.height)
                if raw { output.line(d.text.escapingControlCharacters()) } else { output.event(.imageScan(code)) }
            }
            if report.detections.count >= Self.symbolLimit {
                output.logger(
                    "'\(file)': \(report.detections.count) codes read, as many as one pass returns (\(Self.symbolLimit)): the image may hold more; scan parts of it with --roi",
                    .error)
                failed = true
            }
            if report.detections.isEmpty {
                everyFileHadACode = false
                if !quiet { output.logger("'\(file)': no code found", .notice) }
            }
            if let target = annotatePath {
                do {
                    let path = annotationPath(target, for: file, of: files.count)
                    // Standard input cannot be read twice: its copy is drawn on the grey image decoded.
                    let canvas = file == Self.standardInput ? RGBImage(image) : try ImageFile.readRGB(file)
                    try PNGWriter.write(Annotator(imageWidth: max(canvas.width, canvas.height)).annotate(canvas, report.detections), to: path)
                } catch {
                    output.logger("\(error)", .error)
                    failed = true
                }
            }
        }
        if failed { return .failed }
        return everyFileHadACode ? .found : .nothingFound
    }

    /// Why standard input gave no image to decode.
    struct StandardInputError: Error, CustomStringConvertible {
        var description: String
    }

    /// The image of a file, or of standard input for `-`.
    func read(_ file: String) throws -> LumaImage {
        guard file == Self.standardInput else { return try ImageFile.readLuma(file) }
        let bytes: [UInt8]
        do { bytes = try readStandardInput() } catch {
            let reason = error.kind == .tooLarge ? "\(error.reason): not an image scand reads" : error.reason
            throw StandardInputError(description: "cannot read standard input: \(reason)")
        }
        guard !bytes.isEmpty else { throw StandardInputError(description: "cannot read standard input: it is empty") }
        return try ImageFile.decodeLuma([(file, bytes)])[0].get()
    }

    func annotationPath(_ target: String, for file: String, of count: Int) -> String {
        var isDirectory: ObjCBool = false
        guard count > 1 || (FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && isDirectory.boolValue) else {
            return target
        }
        let base = file == Self.standardInput ? "stdin" : ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return (target as NSString).appendingPathComponent(base + ".annotated.png")
    }
}
