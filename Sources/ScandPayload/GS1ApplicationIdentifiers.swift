import ScandCore

/// One component of a GS1 Application Identifier's value, as in the GS1 syntax dictionary
/// (`N14,csum`, `X..20`, `N6,yymmd0` …). Only the last component of an AI may vary in length.
struct GS1Component: Sendable {
    enum Charset: Sendable {
        /// Digits.
        case numeric
        /// GS1 AI encodable character set 82 (ISO 646 subset).
        case cset82
        /// Character set 39: A–Z, 0–9, `#`, `-`, `/`.
        case cset39
    }

    enum Check: Sendable {
        case none
        /// GS1 mod-10 check digit over the whole component.
        case mod10
        /// YYMMDD, a real date.
        case yymmdd
        /// YYMMDD where DD may be 00 ("the month").
        case yymmd0
        /// YYMMDDHH[MM[SS]].
        case dateTime
    }

    var charset: Charset
    var minLength: Int
    var maxLength: Int
    var check: Check = .none

    /// `N<length>`: fixed-length digits.
    static func n(_ length: Int, _ check: Check = .none) -> GS1Component {
        GS1Component(charset: .numeric, minLength: length, maxLength: length, check: check)
    }
    /// `N..<max>`.
    static func n(upTo max: Int, from min: Int = 1, _ check: Check = .none) -> GS1Component {
        GS1Component(charset: .numeric, minLength: min, maxLength: max, check: check)
    }
    /// `X..<max>`.
    static func x(upTo max: Int) -> GS1Component { GS1Component(charset: .cset82, minLength: 1, maxLength: max) }
    /// `Y..<max>`.
    static func y(upTo max: Int) -> GS1Component { GS1Component(charset: .cset39, minLength: 1, maxLength: max) }
}

/// An Application Identifier's data title and value format.
struct GS1AISpec: Sendable {
    var title: String
    var components: [GS1Component]

    var minLength: Int { components.reduce(0) { $0 + $1.minLength } }
    var maxLength: Int { components.reduce(0) { $0 + $1.maxLength } }
    /// The value has one length and needs no separator to end it.
    var isFixedLength: Bool { minLength == maxLength }
}

/// A curated table of the commonly used Application Identifiers (GS1 General Specifications, section 3).
/// An AI not listed here makes the element string invalid, and the payload falls back to text: a wrong
/// guess at an unknown AI's length would misread every element after it.
enum GS1ApplicationIdentifiers {
    static func spec(_ ai: String) -> GS1AISpec? { table[ai] }

    /// The AIs whose first two digits are in the General Specifications' table of predefined lengths: an
    /// element string needs no FNC1 after them. Every other AI is followed by one (unless it ends the string),
    /// even one of fixed length (7003, 8001, 422 …): a reader may know only that table.
    static func hasPredefinedLength(_ ai: String) -> Bool {
        predefinedLengthPrefixes.contains(String(ai.prefix(2)))
    }

    static let predefinedLengthPrefixes: Set<String> = [
        "00", "01", "02", "03", "04", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "31", "32", "33", "34", "35", "36", "41"
    ]

    /// AIs are two to four digits and prefix-free, so at most one of the 2-, 3- and 4-digit prefixes is an AI.
    static let table: [String: GS1AISpec] = {
        var t: [String: GS1AISpec] = [:]
        func add(_ ai: String, _ title: String, _ components: [GS1Component]) { t[ai] = GS1AISpec(title: title, components: components) }
        let date = [GS1Component.n(6, .yymmd0)]
        let gln = [GS1Component.n(13, .mod10)]

        add("00", "SSCC", [.n(18, .mod10)])
        add("01", "GTIN", [.n(14, .mod10)])
        add("02", "CONTENT", [.n(14, .mod10)])
        add("03", "MTO GTIN", [.n(14, .mod10)])
        add("10", "BATCH/LOT", [.x(upTo: 20)])
        add("11", "PROD DATE", date)
        add("12", "DUE DATE", date)
        add("13", "PACK DATE", date)
        add("15", "BEST BEFORE or BEST BY", date)
        add("16", "SELL BY", date)
        add("17", "USE BY OR EXPIRY", date)
        add("20", "VARIANT", [.n(2)])
        add("21", "SERIAL", [.x(upTo: 20)])
        add("22", "CPV", [.x(upTo: 20)])
        add("235", "TPX", [.x(upTo: 28)])
        add("240", "ADDITIONAL ID", [.x(upTo: 30)])
        add("241", "CUST. PART No.", [.x(upTo: 30)])
        add("242", "MTO VARIANT", [.n(upTo: 6)])
        add("243", "PCN", [.x(upTo: 20)])
        add("250", "SECONDARY SERIAL", [.x(upTo: 30)])
        add("251", "REF. TO SOURCE", [.x(upTo: 30)])
        add("253", "GDTI", [.n(13, .mod10), .x(upTo: 17)])
        add("254", "GLN EXTENSION COMPONENT", [.x(upTo: 20)])
        add("255", "GCN", [.n(13, .mod10), .n(upTo: 12)])
        add("30", "VAR. COUNT", [.n(upTo: 8)])
        add("37", "COUNT", [.n(upTo: 8)])

        // Trade measures: the fourth digit is the decimal point position (0…5).
        let measures: [(String, String)] = [
            ("310", "NET WEIGHT (kg)"), ("311", "LENGTH (m)"), ("312", "WIDTH (m)"), ("313", "HEIGHT (m)"),
            ("314", "AREA (m2)"), ("315", "NET VOLUME (l)"), ("316", "NET VOLUME (m3)"),
            ("320", "NET WEIGHT (lb)"), ("321", "LENGTH (in)"), ("322", "LENGTH (ft)"), ("323", "LENGTH (yd)"),
            ("324", "WIDTH (in)"), ("325", "WIDTH (ft)"), ("326", "WIDTH (yd)"), ("327", "HEIGHT (in)"),
            ("328", "HEIGHT (ft)"), ("329", "HEIGHT (yd)"),
            ("330", "GROSS WEIGHT (kg)"), ("331", "LENGTH (m), log"), ("332", "WIDTH (m), log"),
            ("333", "HEIGHT (m), log"), ("334", "AREA (m2), log"), ("335", "VOLUME (l), log"),
            ("336", "VOLUME (m3), log"), ("337", "KG PER m2"),
            ("340", "GROSS WEIGHT (lb)"), ("341", "LENGTH (in), log"), ("342", "LENGTH (ft), log"),
            ("343", "LENGTH (yd), log"), ("344", "WIDTH (in), log"), ("345", "WIDTH (ft), log"),
            ("346", "WIDTH (yd), log"), ("347", "HEIGHT (in), log"), ("348", "HEIGHT (ft), log"),
            ("349", "HEIGHT (yd), log"),
            ("350", "AREA (in2)"), ("351", "AREA (ft2)"), ("352", "AREA (yd2)"), ("353", "AREA (in2), log"),
            ("354", "AREA (ft2), log"), ("355", "AREA (yd2), log"), ("356", "NET WEIGHT (t oz)"),
            ("357", "NET VOLUME (oz)"),
            ("360", "NET VOLUME (qt)"), ("361", "NET VOLUME (gal.)"), ("362", "VOLUME (qt), log"),
            ("363", "VOLUME (gal.), log"), ("364", "VOLUME (in3)"), ("365", "VOLUME (ft3)"), ("366", "VOLUME (yd3)"),
            ("367", "VOLUME (in3), log"), ("368", "VOLUME (ft3), log"), ("369", "VOLUME (yd3), log")
        ]
        for (prefix, title) in measures {
            for d in 0...5 { add(prefix + String(d), title, [.n(6)]) }
        }
        for d in 0...9 {
            add("390\(d)", "AMOUNT", [.n(upTo: 15)])
            add("391\(d)", "AMOUNT", [.n(3), .n(upTo: 15)])  // ISO 4217 currency, then the amount
            add("392\(d)", "PRICE", [.n(upTo: 15)])
            add("393\(d)", "PRICE", [.n(3), .n(upTo: 15)])
        }
        for d in 0...3 { add("394\(d)", "PRCNT OFF", [.n(4)]) }
        for d in 0...5 { add("395\(d)", "PRICE/UoM", [.n(6)]) }

        add("400", "ORDER NUMBER", [.x(upTo: 30)])
        add("401", "GINC", [.x(upTo: 30)])
        add("402", "GSIN", [.n(17, .mod10)])
        add("403", "ROUTE", [.x(upTo: 30)])
        add("410", "SHIP TO LOC", gln)
        add("411", "BILL TO", gln)
        add("412", "PURCHASE FROM", gln)
        add("413", "SHIP FOR LOC", gln)
        add("414", "LOC No.", gln)
        add("415", "PAY TO", gln)
        add("416", "PROD/SERV LOC", gln)
        add("417", "PARTY", gln)
        add("420", "SHIP TO POST", [.x(upTo: 20)])
        add("421", "SHIP TO POST", [.n(3), .x(upTo: 9)])  // ISO 3166 country, then the postcode
        add("422", "ORIGIN", [.n(3)])
        add("423", "COUNTRY - INITIAL PROCESS.", [.n(3), .n(upTo: 12, from: 0)])
        add("424", "COUNTRY - PROCESS.", [.n(3)])
        add("425", "COUNTRY - DISASSEMBLY", [.n(3), .n(upTo: 12, from: 0)])
        add("426", "COUNTRY - FULL PROCESS", [.n(3)])
        add("427", "ORIGIN SUBDIVISION", [.x(upTo: 3)])

        add("7001", "NSN", [.n(13)])
        add("7002", "MEAT CUT", [.x(upTo: 30)])
        add("7003", "EXPIRY TIME", [.n(10, .dateTime)])
        add("7004", "ACTIVE POTENCY", [.n(upTo: 4)])
        add("7005", "CATCH AREA", [.x(upTo: 12)])
        add("7006", "FIRST FREEZE DATE", [.n(6, .yymmdd)])
        add("7007", "HARVEST DATE", [.n(6, .yymmdd), .n(upTo: 6, from: 0, .yymmdd)])  // a date or a range
        add("7008", "AQUATIC SPECIES", [.x(upTo: 3)])
        add("7009", "FISHING GEAR TYPE", [.x(upTo: 10)])
        add("7010", "PROD METHOD", [.x(upTo: 2)])
        add("7020", "REFURB LOT", [.x(upTo: 20)])
        add("7021", "FUNC STAT", [.x(upTo: 20)])
        add("7022", "REV STAT", [.x(upTo: 20)])
        add("7023", "GIAI - ASSEMBLY", [.x(upTo: 30)])
        add("7040", "UIC+EXT", [.n(1), .x(upTo: 1), .x(upTo: 1), .x(upTo: 1)])  // a Digital Link qualifier of 414, 417, 8004
        for s in 0...9 { add("703\(s)", "PROCESSOR # \(s)", [.n(3), .x(upTo: 27)]) }
        add("710", "NHRN PZN", [.x(upTo: 20)])
        add("711", "NHRN CIP", [.x(upTo: 20)])
        add("712", "NHRN CN", [.x(upTo: 20)])
        add("713", "NHRN DRN", [.x(upTo: 20)])
        add("714", "NHRN AIM", [.x(upTo: 20)])
        add("715", "NHRN NDC", [.x(upTo: 20)])

        add("8001", "DIMENSIONS", [.n(14)])
        add("8002", "CMT No.", [.x(upTo: 20)])
        add("8003", "GRAI", [.n(14, .mod10), .x(upTo: 16)])
        add("8004", "GIAI", [.x(upTo: 30)])
        add("8005", "PRICE PER UNIT", [.n(6)])
        add("8006", "ITIP", [.n(14, .mod10), .n(2), .n(2)])
        add("8007", "IBAN", [.x(upTo: 34)])
        add("8008", "PROD TIME", [.n(upTo: 12, from: 8, .dateTime)])
        add("8009", "OPTSEN", [.x(upTo: 50)])
        add("8010", "CPID", [.y(upTo: 30)])
        add("8011", "CPID SERIAL", [.n(upTo: 12)])
        add("8012", "VERSION", [.x(upTo: 20)])
        add("8013", "GMN", [.x(upTo: 25)])
        add("8017", "GSRN - PROVIDER", [.n(18, .mod10)])
        add("8018", "GSRN - RECIPIENT", [.n(18, .mod10)])
        add("8019", "SRIN", [.n(upTo: 10)])
        add("8020", "REF No.", [.x(upTo: 25)])
        add("8026", "ITIP CONTENT", [.n(14, .mod10), .n(2), .n(2)])
        add("8110", "COUPON", [.x(upTo: 70)])
        add("8111", "POINTS", [.n(4)])
        add("8112", "PAPERLESS COUPON", [.x(upTo: 70)])
        add("8200", "PRODUCT URL", [.x(upTo: 70)])
        add("90", "INTERNAL", [.x(upTo: 30)])
        for d in 1...9 { add("9\(d)", "INTERNAL", [.x(upTo: 90)]) }
        return t
    }()
}
