/// One symbol decoded in one image or frame, in the coordinates of the full image.
public struct Detection: Sendable, Hashable {
    public enum ContentType: String, Sendable, Hashable {
        case text = "Text", binary = "Binary", mixed = "Mixed", gs1 = "GS1", iso15434 = "ISO15434",
            unknownECI = "UnknownECI"
    }

    /// Structured append: this symbol is `index` (0-based) of `count` symbols sharing `id`.
    public struct Sequence: Sendable, Hashable {
        public var count: Int
        public var index: Int
        public var id: String
        public init(count: Int, index: Int, id: String) {
            self.count = count
            self.index = index
            self.id = id
        }
    }

    public var format: BarcodeFormat
    /// The payload as UTF-8 text (zxing's rendering; binary content appears as Latin-1/ECI-decoded text).
    public var text: String
    /// The payload bytes as encoded in the symbol, before any character-set interpretation.
    public var bytes: [UInt8]
    /// Outline in pixels of the full image.
    public var corners: Quadrilateral
    /// Rotation of the symbol in degrees, as zxing reports it.
    public var orientation: Int
    /// ISO/IEC 15424 symbology identifier, e.g. "]Q1", "]E0".
    public var symbologyIdentifier: String
    public var hasECI: Bool
    /// Error-correction level where the symbology has one ("M", "25%", …); empty otherwise.
    public var ecLevel: String
    /// Read from its mirror image (printed or shown mirrored).
    public var mirrored: Bool
    /// Read as light-on-dark.
    public var inverted: Bool
    public var contentType: ContentType
    public var sequence: Sequence?
    public var readerInit: Bool
    /// How many scan lines agreed (linear codes); 0 for matrix codes. Evidence for conflicts.
    public var lineCount: Int
    /// Reads of this symbol in this image that agree and are independent of each other: groups of scan lines
    /// apart across the bars, whichever pass read them (`DetectionMerger`, `ScanLineEvidence`). A frame's
    /// own second opinion, as a laser scanner counts its scan lines. 1 for a single read.
    public var agreeingReads: Int
    /// An EAN/UPC code read without its add-on shows add-on-like bars just after its end guard, where an
    /// EAN-2/EAN-5 is printed: a later frame may read it, and the tracker waits a little for one.
    public var addOnBarsBeside: Bool
    /// An EAN/UPC code read without its add-on ends so near the frame's edge that an add-on after it would lie
    /// outside the frame: whether one is printed cannot be seen (a code brought in end first), and the tracker
    /// waits as it does for bars beside, without taking it for an add-on shown.
    public var addOnBeyondEdge = false
    /// Read only from pixels the decoder made up: a band with a smear or defocus undone (a guess at the blur),
    /// or a crop enlarged by interpolation. Such a read is half a look (`ScanLineEvidence`).
    public var reconstructed = false
    /// The smear (pixels of the image, along the code across its bars) that the band this was read from had
    /// undone: the code moved that far in the exposure, as the decoder guessed. 0 for a read of pixels as they
    /// are. The second look at its bars (`BarPatternCheck`) models the smear rather than undoing it.
    public var smear = 0.0
    /// An EAN/UPC read held against its own bars in the frame's pixels (`BarPatternCheck`): true when they show
    /// its number's pattern, quiet zones clear; false when they show another character somewhere, or bars where
    /// a quiet zone must be; nil when not checked (another format, or bars that could not be measured).
    public var barsAgree: Bool?
    /// The same for its EAN-2/EAN-5 add-on, once the main number's bars agree: false when another character
    /// explains the add-on's bars clearly better; nil when not checked. A contradicted add-on gets no vote.
    public var addOnBarsAgree: Bool?

    public init(
        format: BarcodeFormat, text: String, bytes: [UInt8], corners: Quadrilateral, orientation: Int = 0,
        symbologyIdentifier: String = "", hasECI: Bool = false, ecLevel: String = "", mirrored: Bool = false,
        inverted: Bool = false, contentType: ContentType = .text, sequence: Sequence? = nil,
        readerInit: Bool = false, lineCount: Int = 0, agreeingReads: Int = 1, addOnBarsBeside: Bool = false
    ) {
        self.format = format
        self.text = text
        self.bytes = bytes
        self.corners = corners
        self.orientation = orientation
        self.symbologyIdentifier = symbologyIdentifier
        self.hasECI = hasECI
        self.ecLevel = ecLevel
        self.mirrored = mirrored
        self.inverted = inverted
        self.contentType = contentType
        self.sequence = sequence
        self.readerInit = readerInit
        self.lineCount = lineCount
        self.agreeingReads = agreeingReads
        self.addOnBarsBeside = addOnBarsBeside
    }

    /// The EAN-2/EAN-5 add-on read with an EAN/UPC code: the digits after its main number.
    public var addOn: String? {
        guard let main = format.mainNumberLength, [main + 2, main + 5].contains(bytes.count),
            bytes.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return String(decoding: bytes[main...], as: UTF8.self)
    }

    /// The payload without an add-on: what identifies the code whether or not its add-on was read.
    public var mainBytes: ArraySlice<UInt8> {
        guard let addOn else { return bytes[...] }
        return bytes.dropLast(addOn.utf8.count)
    }

    /// The same code read once with its add-on and once without, in the same place.
    public func isAddOnVariant(of other: Detection) -> Bool {
        format == other.format && bytes != other.bytes && mainBytes == other.mainBytes && corners.overlaps(other.corners)
    }

    /// Same payload in the same place: one symbol seen by two passes.
    public func isSameSymbol(as other: Detection) -> Bool {
        format == other.format && bytes == other.bytes && corners.overlaps(other.corners)
    }
}
