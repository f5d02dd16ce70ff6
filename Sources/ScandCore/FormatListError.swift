/// A `--formats` list named a format scand does not know.
public struct FormatListError: Error, CustomStringConvertible, Equatable {
    public let item: String
    public init(item: String) { self.item = item }
    public var description: String {
        let names = BarcodeFormat.allCases.map(\.name)
        let guess = EditDistance.nearest(BarcodeFormat.key(item), in: names.map(BarcodeFormat.key)).flatMap { key in
            names.first { BarcodeFormat.key($0) == key }
        }
        return "unknown barcode format '\(item)'" + (guess.map { "; did you mean \($0)?" } ?? "")
            + " (known: \(names.joined(separator: ", ")); case, '-' and '_' aside, so ean13 is EAN-13; also qr, microqr, dm, i25; or all, linear, matrix)"
    }
}
