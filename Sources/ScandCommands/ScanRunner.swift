import Foundation
import ScandService
import ScandCore
import ScandProtocol
import ScandDecoding
import ScandImageIO

/// `scand scan`: decodes still images and prints one SCAN object per code. Exit status as zbarimg's, which
/// scripts test: 0 when every image held a code, 4 when one or more held none, 2 when an input could not be
/// read (ahead of 4).
public struct ScanRunner: Sendable {
    public enum ExitStatus: Int32, Sendable {
        case found = 0
        case unreadable = 2
        case nothingFound = 4
    }

    public var formats: BarcodeFormats = .all
    public var regionOfInterest: NormalizedRect = .full
    /// Annotated copy: a file path for one input, or a directory for several.
    public var annotatePath: String?
    /// One persistent sandboxed decoder process for the whole run (a process per image costs more than many
    /// reads); a process per call when it cannot be made.
    public var decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))

    public init() {}

    public func run(files: [String], output: OutputSink) -> ExitStatus {
        var everyFileHadACode = true, unreadable = false
        let still = StillImageDecoder(formats: formats, decoder: decoder)
        for file in files {
            let image: LumaImage
            do {
                image = try ImageFile.readLuma(file)
            } catch {
                output.log(error.description, .error)
                unreadable = true
                continue
            }
            let report = still.decode(image, regionOfInterest: regionOfInterest)
            for failure in report.failures {
                output.log("'\(file)': \(failure)" + (failure.kind == .crashed ? "; its fallback passes ran instead" : ""), .warning)
            }
            for d in report.detections {
                output.event(.imageScan(ImageCode(file: file, detection: d, imageWidth: image.width, imageHeight: image.height)))
            }
            if report.detections.isEmpty { everyFileHadACode = false }
            if let target = annotatePath {
                do {
                    try annotate(file: file, detections: report.detections, to: annotationPath(target, for: file, of: files.count))
                } catch {
                    output.log("\(error)", .error)
                    unreadable = true
                }
            }
        }
        if unreadable { return .unreadable }
        return everyFileHadACode ? .found : .nothingFound
    }

    func annotationPath(_ target: String, for file: String, of count: Int) -> String {
        var isDirectory: ObjCBool = false
        guard count > 1 || (FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) && isDirectory.boolValue) else {
            return target
        }
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        return (target as NSString).appendingPathComponent(base + ".annotated.png")
    }

    func annotate(file: String, detections: [Detection], to path: String) throws {
        let rgb = try ImageFile.readRGB(file)
        try PNGWriter.write(Annotator(imageWidth: max(rgb.width, rgb.height)).annotate(rgb, detections), to: path)
    }
}
