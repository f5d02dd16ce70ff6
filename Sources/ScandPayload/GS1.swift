import ScandCore

extension Payload {
    /// A GS1 element string (GS1-128, GS1 DataMatrix/QR, DataBar) or GS1 Digital Link URI: Application
    /// Identifiers and their values, every one checked against the AI table.
    public struct GS1: Sendable, Equatable {
        public var elements: [GS1Element]
        /// A Digital Link's URI stem: scheme, host and any path before the primary key
        /// (`https://id.gs1.org`); nil for an element string.
        public var resolver: String?

        /// The value of the first element with `ai`.
        public func value(_ ai: String) -> String? { elements.first { $0.ai == ai }?.value }

        /// AI 01, the trade item (GTIN-14).
        public var gtin: String? { value("01") }
        /// AI 17 as YYYY-MM-DD (day 00 read as the month's last day).
        public var expiry: String? { value("17").flatMap { GS1Dates.iso(Array($0.utf8)[...]) } }
        /// AI 10.
        public var batch: String? { value("10") }
        /// AI 21.
        public var serial: String? { value("21") }

        /// The elements as GS1-128 or GS1 DataMatrix carry them, as zxing renders those: each AI and its value,
        /// and a GS (FNC1) after each value whose AI is not of predefined length, but the last
        /// (`0109506000134352` `10ABC` GS `17270101`).
        public var elementString: String {
            var s = ""
            for (k, e) in elements.enumerated() {
                s += e.ai + e.value
                if k < elements.count - 1, !GS1ApplicationIdentifiers.hasPredefinedLength(e.ai) { s += "\u{1D}" }
            }
            return s
        }
    }

    public struct GS1Element: Sendable, Equatable {
        /// "01", "17", "3103", …
        public var ai: String
        /// The GS1 data title: "GTIN", "USE BY OR EXPIRY", "BATCH/LOT", …
        public var title: String
        /// As encoded (dates stay YYMMDD, measures keep their implied decimal point).
        public var value: String
    }
}
