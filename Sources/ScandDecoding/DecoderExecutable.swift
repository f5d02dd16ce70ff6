import ScandZXingShim

/// scand-decoder, the program every isolated read runs in: beside the running executable (a build folder,
/// /usr/local/bin) or in ../libexec/scand from it (the Debian package). Commands that decode check for it
/// first, so that an incomplete install is one clear line, not a failure per pass.
public enum DecoderExecutable {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Its path, or why there is none (where it was looked for).
    public static func path() throws(Missing) -> String {
        var why = [CChar](repeating: 0, count: 512)
        guard let path = szx_decoder_path(&why, why.count) else {
            throw Missing(description: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return String(cString: path)
    }
}
