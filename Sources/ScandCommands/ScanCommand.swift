import ArgumentParser
import Foundation
import ScandCore

struct ScanCommand: ParsableCommand {
    /// zbarimg's status for a bad command line, as for a file it cannot read (other commands keep sysexits' 64).
    static let usageStatus: Int32 = ScanRunner.ExitStatus.failed.rawValue

    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Decode every barcode in still images (PNG, JPEG, GIF, BMP, PGM/PPM, WebP, TIFF).",
        discussion: """
            Prints one JSON object per code found, one per line (--raw: its text alone). `-` reads an image from \
            standard input. Exit status as zbarimg's: 0 when every image held a code, 4 when one or more held \
            none, 1 when an input could not be read (or not whole: 255 codes, the most one pass returns) or for \
            bad options (and 72 when scand-decoder, the program \
            images are decoded in, is missing).
            """
    )

    @Option(name: .long, help: ArgumentHelp("Formats to look for, comma-separated (e.g. qr,ean13; or all, linear, matrix).", valueName: "LIST"))
    var formats: String = "all"

    @Option(name: .long, help: ArgumentHelp("Rect of interest x,y,w,h, normalized 0…1; only this region is decoded.", valueName: "x,y,w,h"))
    var roi: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Write a copy of the image with each code outlined and labelled (a directory for several inputs).", valueName: "OUT"))
    var annotate: String?

    @Flag(name: .long, help: "Print only the text of each code, one per line (control characters escaped), as zbarimg --raw.")
    var raw = false

    @Flag(name: .shortAndLong, help: "Print errors only on stderr: not \"no code found\" nor decoder warnings, as zbarimg -q.")
    var quiet = false

    @Argument(help: ArgumentHelp("Image files; - reads one from standard input.", valueName: "image"))
    var files: [String]

    func validate() throws {
        do { _ = try BarcodeFormats.parse(formats) } catch { throw ValidationError("--formats: lists an \(error.description)") }
        if let roi {
            do { _ = try NormalizedRect.parse(roi) } catch { throw ValidationError("--roi: \(error.description)") }
        }
        if files.isEmpty { throw ValidationError("no image files given: scand scan FILE…, or - for standard input") }
        if files.filter({ $0 == ScanRunner.standardInput }).count > 1 { throw ValidationError("standard input (-) can be read once") }
        if let annotate, files.count > 1 {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: annotate, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--annotate must name an existing directory when several images are given")
            }
        }
    }

    func run() throws {
        try requireDecoderExecutable()
        var runner = ScanRunner()
        runner.formats = try BarcodeFormats.parse(formats)
        if let roi { runner.regionOfInterest = try NormalizedRect.parse(roi) }
        runner.annotatePath = annotate
        runner.raw = raw
        runner.quiet = quiet
        let status = runner.run(files: files, output: .standard())
        throw ExitCode(status.rawValue)
    }
}
