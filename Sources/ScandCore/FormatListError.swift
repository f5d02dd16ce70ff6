/// A `--formats` list named a format scand does not know.
public struct FormatListError: Error, CustomStringConvertible, Equatable {
    public let item: String
    public init(item: String) { self.item = item }
    public var description: String {
        "unknown barcode format '\(item)' (known: \(BarcodeFormat.allCases.map(\.name).joined(separator: ", ")), or all, linear, matrix)"
    }
}
