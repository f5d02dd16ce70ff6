import ArgumentParser
import ScandCore
import ScandDecoding
import ScandImageIO

/// Draws test codes with zxing's writer: for integrators checking a kiosk, and for our own fixtures.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write a barcode image (PNG) with zxing's writer.",
        discussion: "Writable formats: \(SymbolWriter.writable.members.map(\.name).joined(separator: ", "))."
    )

    @Option(name: .long, help: ArgumentHelp("Barcode format, e.g. QRCode, EAN-13, Code128.", valueName: "FORMAT"))
    var format: String

    @Option(name: .long, help: ArgumentHelp("Payload text.", valueName: "TEXT"))
    var text: String

    @Option(name: .long, help: ArgumentHelp("Pixels per module.", valueName: "N"))
    var moduleSize: Int = 4

    @Flag(name: .long, help: "Light on dark.")
    var invert = false

    @Argument(help: "Output PNG file.")
    var output: String

    func validate() throws {
        guard BarcodeFormat(name: format) != nil else { throw ValidationError("--format: \(FormatListError(item: format).description)") }
        guard (1...64).contains(moduleSize) else { throw ValidationError("--module-size must be 1…64") }
    }

    func run() throws {
        let f = BarcodeFormat(name: format)!
        var image: LumaImage
        do { image = try SymbolWriter.render(f, text: text, moduleSize: moduleSize) } catch {
            throw ValidationError(error.description)
        }
        if invert { image = image.inverted() }
        do { try PNGWriter.write(image, to: output) } catch {
            printErr("\(error)")
            throw ExitCode(ExitStatus.ioError)
        }
    }
}
