/// A symbology scand can decode. Raw values are the decoder shim's format bits (`szx_format`, which began
/// as zxing-cpp 1.4's), so a set of formats crosses into the decoder as one integer.
public enum BarcodeFormat: Int, CaseIterable, Sendable, Hashable, Comparable {
    case aztec = 0x1
    case codabar = 0x2
    case code39 = 0x4
    case code93 = 0x8
    case code128 = 0x10
    case dataBar = 0x20
    case dataBarExpanded = 0x40
    case dataMatrix = 0x80
    case ean8 = 0x100
    case ean13 = 0x200
    case itf = 0x400
    case maxiCode = 0x800
    case pdf417 = 0x1000
    case qrCode = 0x2000
    case upcA = 0x4000
    case upcE = 0x8000
    case microQRCode = 0x10000
    case rmqrCode = 0x20000
    case dataBarLimited = 0x40000
    case dataBarStacked = 0x80000
    case dataBarExpandedStacked = 0x100000

    /// The name on the wire and on the command line (zxing-cpp's spelling).
    public var name: String {
        switch self {
        case .aztec: "Aztec"
        case .codabar: "Codabar"
        case .code39: "Code39"
        case .code93: "Code93"
        case .code128: "Code128"
        case .dataBar: "DataBar"
        case .dataBarExpanded: "DataBarExpanded"
        case .dataMatrix: "DataMatrix"
        case .ean8: "EAN-8"
        case .ean13: "EAN-13"
        case .itf: "ITF"
        case .maxiCode: "MaxiCode"
        case .pdf417: "PDF417"
        case .qrCode: "QRCode"
        case .upcA: "UPC-A"
        case .upcE: "UPC-E"
        case .microQRCode: "MicroQRCode"
        case .rmqrCode: "rMQRCode"
        case .dataBarLimited: "DataBarLimited"
        case .dataBarStacked: "DataBarStacked"
        case .dataBarExpandedStacked: "DataBarExpandedStacked"
        }
    }

    /// The symbology whatever its layout: a DataBar Stacked is a DataBar's data in two rows, and a tilted DataBar
    /// is read as either (the hard-mix till scanned one twice so); likewise DataBar Expanded and its stacked
    /// form. The tracker's same code is of the same layouts and number.
    public var layouts: BarcodeFormat {
        switch self {
        case .dataBarStacked: .dataBar
        case .dataBarExpandedStacked: .dataBarExpanded
        default: self
        }
    }

    /// One-dimensional (row-scanned) symbologies, including the DataBar family.
    public var isLinear: Bool { BarcodeFormats.linear.contains(self) }

    /// Digits of an EAN/UPC main number as scand spells it (UPC-A 12, UPC-E its 8); nil for other formats.
    /// A read EAN-2/EAN-5 add-on follows these digits in the payload.
    public var mainNumberLength: Int? {
        switch self {
        case .ean13: 13
        case .ean8: 8
        case .upcA: 12
        case .upcE: 8
        default: nil
        }
    }

    /// GS1 DataBar in any of its forms: its payload is always a GS1 element string.
    public var isDataBar: Bool {
        [.dataBar, .dataBarExpanded, .dataBarLimited, .dataBarStacked, .dataBarExpandedStacked].contains(self)
    }

    public static func < (a: BarcodeFormat, b: BarcodeFormat) -> Bool { a.rawValue < b.rawValue }

    /// Accepts zxing's names and common spellings: "EAN-13", "ean13", "qr", "QR_CODE", "rss14", …
    public init?(name: String) {
        let key = BarcodeFormat.key(name)
        if let match = BarcodeFormat.allCases.first(where: { BarcodeFormat.key($0.name) == key }) {
            self = match
            return
        }
        switch key {
        case "qr": self = .qrCode
        case "microqr": self = .microQRCode
        case "rmqr": self = .rmqrCode
        case "databarltd", "rsslimited", "gs1databarlimited": self = .dataBarLimited
        case "databarstk", "rss14stacked", "gs1databarstacked": self = .dataBarStacked
        case "databarexpstk", "rssexpandedstacked", "gs1databarexpandedstacked": self = .dataBarExpandedStacked
        case "datamatrixcode", "dm": self = .dataMatrix
        case "rss14", "gs1databar": self = .dataBar
        case "rssexpanded", "gs1databarexpanded": self = .dataBarExpanded
        case "maxi": self = .maxiCode
        case "itf14", "interleaved2of5", "i25": self = .itf
        default: return nil
        }
    }

    static func key(_ s: String) -> String {
        String(s.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
