import CZBar
import ScandCore

/// libzbar on a luminance image, in this process: zbarcam's engine, for `scand bench compare`.
final class ZBarReader {
    private let scanner: OpaquePointer

    init() {
        scanner = zbar_image_scanner_create()
        // Every symbology zbar has, as zbarcam enables them.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// The payloads zbar finds.
    func read(_ image: LumaImage) -> [String] {
        guard let img = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(img) }
        // "Y800": 8-bit grey.
        zbar_image_set_format(img, UInt(UInt32(ascii: "Y") | UInt32(ascii: "8") << 8 | UInt32(ascii: "0") << 16 | UInt32(ascii: "0") << 24))
        zbar_image_set_size(img, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBytes { raw -> [String] in
            zbar_image_set_data(img, raw.baseAddress, UInt(raw.count), nil)
            guard zbar_scan_image(scanner, img) > 0 else { return [] }
            var out: [String] = []
            var symbol = zbar_image_first_symbol(img)
            while let s = symbol {
                if let data = zbar_symbol_get_data(s) {
                    out.append(String(decoding: UnsafeRawBufferPointer(start: data, count: Int(zbar_symbol_get_data_length(s))), as: UTF8.self))
                }
                symbol = zbar_symbol_next(s)
            }
            return out
        }
    }
}

extension UInt32 {
    init(ascii c: Unicode.Scalar) { self = c.value }
}
