import Foundation
import ScandWedge
import Testing

/// Each layout plans every printable ASCII character and its own letters, and its plans read back as the
/// same text; a few keys are checked by their evdev codes by hand, so a wrong table cannot pass by agreeing
/// with itself.
@Suite struct KeyboardLayoutTests {
    static let ascii = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
    /// What each layout's users type besides ASCII, and must get.
    static let own: [KeyboardLayout.Name: String] = [
        .us: "",
        .uk: "£€¬¦éèêëáàâäñõæß",
        .de: "äöüÄÖÜß€§°µ²³éèêÉÈÊáàâôûÂ£",
        .fr: "éèçàù²£µ§°€êâîôûÊÂëïüÿËÏÜ"
    ]

    static func press(_ key: UInt16, _ modifiers: [UInt16] = []) -> [KeyEvent] {
        let k = KeyCode(rawValue: key)
        return modifiers.map { KeyEvent(KeyCode(rawValue: $0), pressed: true) } + [KeyEvent(k, pressed: true), KeyEvent(k, pressed: false)]
            + modifiers.reversed().map { KeyEvent(KeyCode(rawValue: $0), pressed: false) }
    }
    static let shift: UInt16 = 42, altGr: UInt16 = 100

    func events(_ layout: KeyboardLayout, _ character: Character) -> [KeyEvent]? { layout.strokes(for: character)?.flatMap(\.events) }

    @Test(arguments: KeyboardLayout.Name.allCases)
    func everyPrintableASCIICharacterAndTheLayoutsOwnRoundTrip(_ name: KeyboardLayout.Name) throws {
        let layout = KeyboardLayout.named(name)
        for character in Self.ascii + Array(Self.own[name]!) {
            let typed = try #require(self.events(layout, character), "\(name) cannot type \(KeystrokePlanner.describe(character))")
            #expect(layout.decode(typed) == String(character), "\(name): \(KeystrokePlanner.describe(character)) as \(typed)")
            // Every key used is one the virtual keyboard declares.
            #expect(Set(typed.map(\.key)).isSubset(of: Set(layout.keys)))
        }
    }

    @Test func keysByTheirCodes() {
        // us: a is KEY_A (30), A is Shift+KEY_A, @ is Shift+KEY_2 (3).
        #expect(events(.us, "a") == Self.press(30))
        #expect(events(.us, "A") == Self.press(30, [Self.shift]))
        #expect(events(.us, "@") == Self.press(3, [Self.shift]))
        // uk: @ is Shift+KEY_APOSTROPHE (40), " is Shift+KEY_2, £ Shift+KEY_3 (4), € AltGr+KEY_4 (5), # KEY_BACKSLASH (43),
        // \ KEY_102ND (86); é is dead acute (AltGr+KEY_SEMICOLON, 39) then KEY_E (18).
        #expect(events(.uk, "@") == Self.press(40, [Self.shift]))
        #expect(events(.uk, "\"") == Self.press(3, [Self.shift]))
        #expect(events(.uk, "£") == Self.press(4, [Self.shift]))
        #expect(events(.uk, "€") == Self.press(5, [Self.altGr]))
        #expect(events(.uk, "#") == Self.press(43))
        #expect(events(.uk, "\\") == Self.press(86))
        #expect(events(.uk, "é") == Self.press(39, [Self.altGr]) + Self.press(18))
        // de: QWERTZ (z is KEY_Y, 21; y is KEY_Z, 44), ü is KEY_LEFTBRACE (26), ß KEY_MINUS (12), @ AltGr+KEY_Q (16),
        // € AltGr+KEY_E; ^ is the dead key KEY_GRAVE (41) then space (57); é dead acute KEY_EQUAL (13) then e.
        #expect(events(.de, "z") == Self.press(21))
        #expect(events(.de, "y") == Self.press(44))
        #expect(events(.de, "ü") == Self.press(26))
        #expect(events(.de, "ß") == Self.press(12))
        #expect(events(.de, "@") == Self.press(16, [Self.altGr]))
        #expect(events(.de, "€") == Self.press(18, [Self.altGr]))
        #expect(events(.de, "^") == Self.press(41) + Self.press(57))
        #expect(events(.de, "`") == Self.press(13, [Self.shift]) + Self.press(57))
        #expect(events(.de, "é") == Self.press(13) + Self.press(18))
        // fr: AZERTY (a is KEY_Q, q is KEY_A, m is KEY_SEMICOLON 39), digits on Shift (1 is Shift+KEY_1, 2),
        // é is KEY_2 (3), à KEY_0 (11), @ AltGr+KEY_0; ê is dead circumflex KEY_LEFTBRACE (26) then KEY_E,
        // ë Shift+KEY_LEFTBRACE then KEY_E.
        #expect(events(.fr, "a") == Self.press(16))
        #expect(events(.fr, "q") == Self.press(30))
        #expect(events(.fr, "m") == Self.press(39))
        #expect(events(.fr, "1") == Self.press(2, [Self.shift]))
        #expect(events(.fr, "é") == Self.press(3))
        #expect(events(.fr, "à") == Self.press(11))
        #expect(events(.fr, "@") == Self.press(11, [Self.altGr]))
        #expect(events(.fr, "ê") == Self.press(26) + Self.press(18))
        #expect(events(.fr, "Ê") == Self.press(26) + Self.press(18, [Self.shift]))
        #expect(events(.fr, "ë") == Self.press(26, [Self.shift]) + Self.press(18))
    }

    @Test func whatALayoutCannotTypeIsNil() {
        #expect(KeyboardLayout.us.strokes(for: "é") == nil)
        #expect(KeyboardLayout.us.strokes(for: "€") == nil)
        #expect(KeyboardLayout.de.strokes(for: "ñ") == nil, "de has no dead tilde")
        #expect(KeyboardLayout.uk.strokes(for: "ñ") != nil, "uk composes it with AltGr+] (dead tilde)")
        #expect(KeyboardLayout.fr.strokes(for: "ñ") == nil)
        #expect(KeyboardLayout.fr.strokes(for: "ç") != nil)
        #expect(KeyboardLayout.de.strokes(for: "ç") == nil)
        for layout in [KeyboardLayout.us, .uk, .de, .fr] {
            for character: Character in ["中", "\u{1D}", "\n", "\t", "\u{7F}", "😀", "ẞ"] {
                #expect(layout.strokes(for: character) == nil, "\(layout.name): \(KeystrokePlanner.describe(character))")
            }
        }
    }

    /// The keys the virtual keyboard declares: the layout's, the modifiers, Enter and Tab; no F-keys, no
    /// Ctrl or Meta, so the wedge cannot press a shortcut even by mistake.
    @Test(arguments: KeyboardLayout.Name.allCases)
    func theDeclaredKeysHoldNoShortcutModifier(_ name: KeyboardLayout.Name) {
        let keys = Set(KeyboardLayout.named(name).keys.map(\.rawValue))
        #expect(keys.isSuperset(of: [28, 15, 42, 57]))
        #expect(keys.isDisjoint(with: [1, 29, 56, 97, 125, 126, 14, 111]), "no Esc, Ctrl, Alt, Meta, Backspace or Delete")
        #expect(keys.allSatisfy { $0 <= 100 })
    }
}
