/// A set of formats.
public struct BarcodeFormats: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ format: BarcodeFormat) { self.rawValue = format.rawValue }
    public init<S: Sequence>(_ formats: S) where S.Element == BarcodeFormat {
        self.rawValue = formats.reduce(0) { $0 | $1.rawValue }
    }

    public static let linear = BarcodeFormats([
        .codabar, .code39, .code93, .code128, .dataBar, .dataBarExpanded, .dataBarLimited, .dataBarStacked,
        .dataBarExpandedStacked, .ean8, .ean13, .itf, .upcA, .upcE
    ])
    public static let matrix = BarcodeFormats([.aztec, .dataMatrix, .maxiCode, .pdf417, .qrCode, .microQRCode, .rmqrCode])
    public static let all = linear.union(matrix)

    public func contains(_ format: BarcodeFormat) -> Bool { rawValue & format.rawValue != 0 }

    public var members: [BarcodeFormat] { BarcodeFormat.allCases.filter(contains) }

    /// Parses a comma-separated list such as "qr,ean13" or "linear,datamatrix". Also takes the group
    /// names "all", "linear" (or "1d") and "matrix" (or "2d").
    public static func parse(_ list: String) throws(FormatListError) -> BarcodeFormats {
        var result = BarcodeFormats()
        for raw in list.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.trimmedSpaces()
            switch BarcodeFormat.key(item) {
            case "all", "any": result.formUnion(.all)
            case "linear", "1d", "linearcodes": result.formUnion(.linear)
            case "matrix", "2d", "matrixcodes": result.formUnion(.matrix)
            default:
                guard let format = BarcodeFormat(name: item) else { throw FormatListError(item: item) }
                result.insert(BarcodeFormats(format))
            }
        }
        if result.isEmpty { throw FormatListError(item: list) }
        return result
    }
}
