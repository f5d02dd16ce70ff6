import Foundation
import ScandCore

/// The keyboard layout of the kiosk's session, as far as typing text goes: which key, with which modifiers,
/// types a character, and which dead keys compose accented letters. The kernel sends key codes only; the
/// session's layout turns them into characters, so the wedge must press what that layout expects.
/// Modeled on Debian's XKB symbols (xkb-data: /usr/share/X11/xkb/symbols/{us,gb,de,fr}) and the dead-key
/// compositions of its Compose table; `XKBCrossCheckTests` checks every entry against xkbcommon.
public struct KeyboardLayout: Sendable {
    /// A layout as `[wedge] layout` names it.
    public typealias Name = WedgeSettings.Layout

    /// A dead key: it types nothing itself, and composes its accent with the next letter.
    public struct DeadKey: Sendable, Hashable {
        /// The accent as a combining mark (U+0302 for a dead circumflex).
        public var mark: Unicode.Scalar
        public var stroke: KeyStroke
        /// What the dead key followed by space types (XKB's Compose: `<dead_circumflex> <space>` is "^").
        public var spacing: Character
    }

    public let name: Name
    /// Characters typed by one stroke, the one of the lowest level where there are several.
    public let strokes: [Character: KeyStroke]
    public let deadKeys: [DeadKey]
    /// What each stroke types, for reading key events back (`decode`).
    let characters: [KeyStroke: Character]

    /// One group of keys and what each types on each level: `levels[0]` unshifted, `[1]` with Shift, `[2]`
    /// with AltGr, `[3]` with both; a space in a level's string means that key types nothing there (a dead
    /// key, or nothing), since only the space bar types a space.
    struct Keys {
        var keys: [KeyCode]
        var levels: [String]

        init(_ keys: [KeyCode], _ levels: String...) {
            self.keys = keys
            self.levels = levels
        }

        init(_ key: KeyCode, _ levels: String...) {
            self.keys = [key]
            self.levels = levels
        }
    }

    static let levelModifiers: [KeyStroke.Modifiers] = [[], .shift, .altGr, [.shift, .altGr]]

    init(_ name: Name, _ groups: [Keys], deadKeys: [DeadKey] = []) {
        var strokes: [Character: KeyStroke] = [" ": KeyStroke(.space)]
        var characters: [KeyStroke: Character] = [KeyStroke(.space): " "]
        for group in groups {
            for (level, text) in group.levels.enumerated() {
                let chars = Array(text)
                precondition(chars.count == group.keys.count, "\(name): level \(level + 1) of \(group.keys) lists \(chars.count) characters")
                for (key, char) in zip(group.keys, chars) where char != " " {
                    let stroke = KeyStroke(key, Self.levelModifiers[level])
                    characters[stroke] = char
                    // The lowest level first (Shift before AltGr: uk's @ is Shift+', not AltGr+Q), then the first listed.
                    if let known = strokes[char], known.modifiers.level <= stroke.modifiers.level { continue }
                    strokes[char] = stroke
                }
            }
        }
        self.name = name
        self.strokes = strokes
        self.characters = characters
        self.deadKeys = deadKeys
    }

    public static func named(_ name: Name) -> KeyboardLayout {
        switch name {
        case .us: .us
        case .uk: .uk
        case .de: .de
        case .fr: .fr
        }
    }

    /// Every key this layout presses, modifiers and Enter and Tab included: what the virtual keyboard declares.
    public var keys: [KeyCode] {
        let used = Set(strokes.values.map(\.key)).union(deadKeys.map(\.stroke.key)).union([.leftShift, .rightAlt, .enter, .tab, .space])
        return used.sorted()
    }

    /// The strokes that type `character` here: one key, a dead key and space for a lone accent the layout
    /// has only as a dead key (de's ^), or a dead key and a letter (ê under fr). nil when it cannot.
    public func strokes(for character: Character) -> [KeyStroke]? {
        if let stroke = strokes[character] { return [stroke] }
        if let dead = deadKeys.first(where: { $0.spacing == character }), let space = strokes[" "] { return [dead.stroke, space] }
        // A letter and one accent (NFD), the letter typed plainly after the accent's dead key.
        let parts = Array(String(character).decomposedStringWithCanonicalMapping.unicodeScalars)
        guard parts.count == 2, parts[0].isASCII, parts[0].properties.isAlphabetic,
            let dead = deadKeys.first(where: { $0.mark == parts[1] }), let letter = strokes[Character(parts[0])]
        else { return nil }
        return [dead.stroke, letter]
    }

    /// The text key events type under this layout: modifiers tracked, a dead key composed with what follows,
    /// Enter as "\n" and Tab as "\t". The inverse of planning, for tests and `scand wedge --dry-run`.
    public func decode(_ events: [KeyEvent]) -> String {
        var held: KeyStroke.Modifiers = []
        var pendingDead: DeadKey?
        var text = ""
        for event in events {
            switch event.key {
            case .leftShift: if event.pressed { held.insert(.shift) } else { held.remove(.shift) }
            case .rightAlt: if event.pressed { held.insert(.altGr) } else { held.remove(.altGr) }
            default:
                guard event.pressed else { continue }
                if event.key == .enter { text.append("\n"); continue }
                if event.key == .tab { text.append("\t"); continue }
                let stroke = KeyStroke(event.key, held)
                if let dead = deadKeys.first(where: { $0.stroke == stroke }) {
                    pendingDead = dead
                    continue
                }
                guard let typed = characters[stroke] else { text.append("\u{FFFD}"); continue }
                if let dead = pendingDead {
                    pendingDead = nil
                    if typed == " " { text.append(dead.spacing); continue }
                    let composed = (String(typed) + String(dead.mark)).precomposedStringWithCanonicalMapping
                    text.append(composed.count == 1 ? composed : "\u{FFFD}")
                    continue
                }
                text.append(typed)
            }
        }
        return text
    }
}
