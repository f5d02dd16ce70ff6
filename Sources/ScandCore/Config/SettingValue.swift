/// A setting's value as the file or the command line gave it, once its type is known: the one currency
/// between the two front ends and `Setting.apply`.
public enum SettingValue: Sendable, Equatable {
    case text(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case texts([String])
    case numbers([Double])

    public enum Kind: Sendable, Equatable {
        case text, integer, number, boolean, texts, numbers

        /// As a message says what was expected: "must be an integer".
        public var expected: String {
            switch self {
            case .text: "a string"
            case .integer: "an integer"
            case .number: "a number"
            case .boolean: "true or false"
            case .texts: "an array of strings"
            case .numbers: "an array of numbers"
            }
        }
    }

    /// A command-line value read as `kind`: lists are comma-separated ("qr,ean13", "0.5,0,0.5,1"; empty
    /// is the empty list). A `.boolean` flag takes no value and is `true` when given.
    public init(commandLine text: String, as kind: Kind) throws(Setting.Problem) {
        func items() -> [String] { text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmedSpaces() } }
        func number(_ s: String) -> Double? { Double(s).flatMap { $0.isFinite ? $0 : nil } }
        switch kind {
        case .text: self = .text(text)
        case .integer:
            guard let n = Int(text) else { throw Setting.Problem("must be an integer, got '\(text)'") }
            self = .integer(n)
        case .number:
            guard let d = number(text) else { throw Setting.Problem("must be a number, got '\(text)'") }
            self = .number(d)
        case .boolean:
            throw Setting.Problem("takes no value, got '\(text)'")
        case .texts: self = .texts(items())
        case .numbers:
            var out: [Double] = []
            for item in items() {
                guard let d = number(item) else { throw Setting.Problem("must be comma-separated numbers, got '\(text)'") }
                out.append(d)
            }
            self = .numbers(out)
        }
    }

    public var kind: Kind {
        switch self {
        case .text: .text
        case .integer: .integer
        case .number: .number
        case .boolean: .boolean
        case .texts: .texts
        case .numbers: .numbers
        }
    }

    /// As a message quotes it and a user would type it after the flag: `640x480`, `0.5`, `qr,ean13`.
    public var commandLineText: String {
        switch self {
        case .text(let s): s
        case .integer(let n): String(n)
        case .number(let d): Self.shortest(d)
        case .boolean(let b): String(b)
        case .texts(let items): items.joined(separator: ",")
        case .numbers(let items): items.map { Self.shortest($0) }.joined(separator: ",")
        }
    }

    /// As the configuration file writes it: `"640x480"`, `0.5`, `["qr", "ean13"]`.
    public var tomlText: String {
        func quoted(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        switch self {
        case .text(let s): return quoted(s)
        case .integer(let n): return String(n)
        case .number(let d): return Self.shortest(d, float: true)
        case .boolean(let b): return String(b)
        case .texts(let items): return "[" + items.map(quoted).joined(separator: ", ") + "]"
        // Whole numbers as integers (itf_lengths = [14], not [14.0]): the file reads either as a number.
        case .numbers(let items): return "[" + items.map { Self.shortest($0) }.joined(separator: ", ") + "]"
        }
    }

    /// "0.5", "2" (or "2.0" where TOML needs a float's point to read a number back as one).
    public static func shortest(_ d: Double, float: Bool = false) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + (float ? ".0" : "") }
        return String(d)
    }

    // The value of the kind a setting declared (`Setting.apply` has checked it).

    public func integer() throws(Setting.Problem) -> Int {
        guard case .integer(let n) = self else { throw Setting.Problem("must be an integer") }
        return n
    }

    public func number() throws(Setting.Problem) -> Double {
        guard case .number(let d) = self else { throw Setting.Problem("must be a number") }
        return d
    }

    public func text() throws(Setting.Problem) -> String {
        guard case .text(let s) = self else { throw Setting.Problem("must be a string") }
        return s
    }

    public func texts() throws(Setting.Problem) -> [String] {
        guard case .texts(let items) = self else { throw Setting.Problem("must be a list of strings") }
        return items
    }

    public func numbers() throws(Setting.Problem) -> [Double] {
        guard case .numbers(let items) = self else { throw Setting.Problem("must be a list of numbers") }
        return items
    }

    public func boolean() throws(Setting.Problem) -> Bool {
        guard case .boolean(let b) = self else { throw Setting.Problem("must be true or false") }
        return b
    }
}
