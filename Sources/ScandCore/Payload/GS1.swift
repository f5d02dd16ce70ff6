extension Payload {
    /// A GS1 element string (GS1-128, GS1 DataMatrix/QR, DataBar): Application Identifiers and their values,
    /// every one checked against the AI table.
    public struct GS1: Sendable, Equatable {
        public var elements: [GS1Element]

        public init(elements: [GS1Element]) { self.elements = elements }

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
    }

    public struct GS1Element: Sendable, Equatable {
        /// "01", "17", "3103", …
        public var ai: String
        /// The GS1 data title: "GTIN", "USE BY OR EXPIRY", "BATCH/LOT", …
        public var title: String
        /// As encoded (dates stay YYMMDD, measures keep their implied decimal point).
        public var value: String

        public init(ai: String, title: String, value: String) {
            self.ai = ai
            self.title = title
            self.value = value
        }
    }
}
