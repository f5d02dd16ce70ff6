/// What zxing does with an EAN-2/EAN-5 add-on beside an EAN/UPC code.
public enum EANAddOn: Int32, Sendable, Hashable {
    case ignore = 0, read = 1, require = 2
}
