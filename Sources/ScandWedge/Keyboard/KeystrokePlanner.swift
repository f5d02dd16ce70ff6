import ScandCore

/// A SCAN's text as key events under a layout, with what a hand scanner's keyboard-wedge configuration
/// adds: a prefix, a suffix key, and a replacement for the GS (FNC1) separators of GS1 codes. Control
/// characters are never typed: a barcode could otherwise press Enter, Tab or Ctrl-shortcuts in the kiosk's
/// application. A code with a character the layout cannot type is refused whole, not typed half-way.
public struct KeystrokePlanner: Sendable {
    /// The key pressed after each code, as `[wedge] suffix` names it.
    public typealias Suffix = WedgeSettings.Suffix

    public enum Plan: Sendable, Equatable {
        /// `droppedControls`: control characters left out; `replacedSeparators`: GS characters replaced.
        case type([KeyEvent], droppedControls: Int, replacedSeparators: Int)
        /// The layout cannot type this character: nothing of the code is typed.
        case refused(Character)
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// GS, ASCII 29: what zxing writes for FNC1 between a GS1 code's variable-length fields.
    public static let groupSeparator: Character = "\u{1D}"

    public let layout: KeyboardLayout
    let prefix: [KeyEvent]
    let suffix: Suffix
    let separator: [KeyEvent]

    /// Refuses a prefix or a GS replacement that holds a control character or one the layout cannot type:
    /// they are typed with every code, so the problem belongs to the configuration.
    public init(layout: KeyboardLayout, prefix: String = "", suffix: Suffix = .enter, gsReplacement: String = "") throws(Problem) {
        self.layout = layout
        self.suffix = suffix
        func events(_ text: String, _ what: String) throws(Problem) -> [KeyEvent] {
            var out: [KeyEvent] = []
            for character in text {
                if Self.isControl(character) { throw Problem(description: "\(what) must not hold control characters") }
                guard let strokes = layout.strokes(for: character) else {
                    throw Problem(description: "\(what): the \(layout.name.rawValue) layout cannot type \(Self.describe(character))")
                }
                out += strokes.flatMap(\.events)
            }
            return out
        }
        self.prefix = try events(prefix, "prefix")
        separator = try events(gsReplacement, "gs_replacement")
    }

    public func plan(_ text: String) -> Plan {
        var events = prefix
        var dropped = 0, replaced = 0
        for character in text {
            if character == Self.groupSeparator {
                events += separator
                replaced += 1
            } else if Self.isControl(character) {
                dropped += character.unicodeScalars.count
            } else if let strokes = layout.strokes(for: character) {
                events += strokes.flatMap(\.events)
            } else {
                return .refused(character)
            }
        }
        if let key = suffix.key { events += [KeyEvent(key, pressed: true), KeyEvent(key, pressed: false)] }
        return .type(events, droppedControls: dropped, replacedSeparators: replaced)
    }

    /// C0 (CR LF and TAB among them), DEL and C1: never typed. "\r\n" is one Character in Swift, so the
    /// test is on every scalar.
    static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// As a log line names a character: `'é' (U+00E9)`.
    public static func describe(_ character: Character) -> String {
        let codes = character.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(character)' (\(codes.joined(separator: " ")))"
    }
}

extension WedgeSettings.Suffix {
    var key: KeyCode? {
        switch self {
        case .enter: .enter
        case .tab: .tab
        case .none: nil
        }
    }
}

extension WedgeSettings {
    /// The planner these settings describe; refuses a prefix or GS replacement the layout cannot type.
    public func planner() throws(KeystrokePlanner.Problem) -> KeystrokePlanner {
        try KeystrokePlanner(layout: .named(layout), prefix: prefix, suffix: suffix, gsReplacement: gsReplacement)
    }
}
