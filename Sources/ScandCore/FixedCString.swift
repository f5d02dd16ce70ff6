extension String {
    /// A C `char name[N]` field (imported as a tuple) up to its NUL, as UTF-8 (invalid bytes repaired).
    public init<T>(fixedCString tuple: T) {
        self = withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// A C character buffer held in an array, up to its NUL.
    public init(fixedCString chars: [CChar]) {
        self = String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
