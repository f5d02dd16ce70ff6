/// A key as the Linux input layer numbers it (linux/input-event-codes.h): what a uinput keyboard sends and
/// what evdev readers see. A layout decides which character a code types; the code itself names a place on
/// a PC keyboard (KEY_Q is the key left of W, which types 'a' under fr).
public struct KeyCode: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static func < (a: KeyCode, b: KeyCode) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "key \(rawValue)" }

    /// KEY_GRAVE: left of 1 (XKB's <TLDE>).
    public static let grave = KeyCode(rawValue: 41)
    /// KEY_1 … KEY_0, KEY_MINUS, KEY_EQUAL (<AE01>…<AE12>).
    public static let numberRow = (2...13).map { KeyCode(rawValue: UInt16($0)) }
    /// KEY_Q … KEY_P, KEY_LEFTBRACE, KEY_RIGHTBRACE (<AD01>…<AD12>).
    public static let topRow = (16...27).map { KeyCode(rawValue: UInt16($0)) }
    /// KEY_A … KEY_L, KEY_SEMICOLON, KEY_APOSTROPHE (<AC01>…<AC11>).
    public static let homeRow = (30...40).map { KeyCode(rawValue: UInt16($0)) }
    /// KEY_Z … KEY_M, KEY_COMMA, KEY_DOT, KEY_SLASH (<AB01>…<AB10>).
    public static let bottomRow = (44...53).map { KeyCode(rawValue: UInt16($0)) }
    /// KEY_BACKSLASH: above Enter on ISO keyboards (<BKSL>).
    public static let backslash = KeyCode(rawValue: 43)
    /// KEY_102ND: right of left Shift on ISO keyboards (<LSGT>).
    public static let lessGreater = KeyCode(rawValue: 86)
    public static let space = KeyCode(rawValue: 57)
    public static let enter = KeyCode(rawValue: 28)
    public static let tab = KeyCode(rawValue: 15)
    public static let leftShift = KeyCode(rawValue: 42)
    /// AltGr: XKB's layouts here make right Alt the third-level shift (level3(ralt_switch)).
    public static let rightAlt = KeyCode(rawValue: 100)
}

/// One change of one key: pressed or released.
public struct KeyEvent: Hashable, Sendable, CustomStringConvertible {
    public var key: KeyCode
    public var pressed: Bool

    public init(_ key: KeyCode, pressed: Bool) {
        self.key = key
        self.pressed = pressed
    }

    public var description: String { "\(key.rawValue)\(pressed ? "↓" : "↑")" }
}

/// A key with the modifiers held while it is pressed.
public struct KeyStroke: Hashable, Sendable {
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        /// The third level (right Alt).
        public static let altGr = Modifiers(rawValue: 2)

        /// The XKB shift level these modifiers select: 1 none, 2 Shift, 3 AltGr, 4 both.
        public var level: Int { 1 + (contains(.shift) ? 1 : 0) + (contains(.altGr) ? 2 : 0) }
    }

    public var key: KeyCode
    public var modifiers: Modifiers

    public init(_ key: KeyCode, _ modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// Modifiers down, the key down and up, modifiers up: every stroke stands alone, so no modifier is
    /// left held between characters or codes.
    public var events: [KeyEvent] {
        let held = (modifiers.contains(.shift) ? [KeyCode.leftShift] : []) + (modifiers.contains(.altGr) ? [KeyCode.rightAlt] : [])
        return held.map { KeyEvent($0, pressed: true) } + [KeyEvent(key, pressed: true), KeyEvent(key, pressed: false)]
            + held.reversed().map { KeyEvent($0, pressed: false) }
    }
}
