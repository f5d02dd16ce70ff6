/// The four layouts, each read off Debian's XKB symbols file of the same name (gb for uk), with the levels
/// a kiosk's text needs: ASCII, the layout's own letters and signs, and its dead keys. Where the file
/// includes another (gb and de include latin), the included keys are listed as the layout ends up with them.
extension KeyboardLayout {
    /// us(basic): no AltGr level, no dead keys.
    public static let us = KeyboardLayout(
        .us,
        [
            Keys(.grave, "`", "~"),
            Keys(KeyCode.numberRow, "1234567890-=", "!@#$%^&*()_+"),
            Keys(KeyCode.topRow, "qwertyuiop[]", "QWERTYUIOP{}"),
            Keys(KeyCode.homeRow, "asdfghjkl;'", "ASDFGHJKL:\""),
            Keys(.backslash, "\\", "|"),
            Keys(KeyCode.bottomRow, "zxcvbnm,./", "ZXCVBNM<>?")
        ])

    /// gb(basic): latin with " and @ swapped, £ on Shift+3, € on AltGr+4, # and ~ beside Enter, \ and | left
    /// of Z; AltGr+; ' # [ ] are dead acute, circumflex, grave, diaeresis and tilde.
    public static let uk = KeyboardLayout(
        .uk,
        [
            Keys(.grave, "`", "¬", "|"),
            Keys(KeyCode.numberRow, "1234567890-=", "!\"£$%^&*()_+", "¹²³€½¾{[]}\\ "),
            Keys(KeyCode.topRow, "qwertyuiop[]", "QWERTYUIOP{}", "@  ¶ŧ←↓→øþ  "),
            Keys(KeyCode.homeRow, "asdfghjkl;'", "ASDFGHJKL:@", "æßðđŋħ ĸł  "),
            Keys(.backslash, "#", "~"),
            Keys(KeyCode.bottomRow, "zxcvbnm,./", "ZXCVBNM<>?", "«»¢„“”µ · "),
            Keys(.lessGreater, "\\", "|", "|", "¦")
        ],
        deadKeys: [
            DeadKey(mark: "\u{0301}", stroke: KeyStroke(KeyCode.homeRow[9], .altGr), spacing: "'"),
            DeadKey(mark: "\u{0302}", stroke: KeyStroke(KeyCode.homeRow[10], .altGr), spacing: "^"),
            DeadKey(mark: "\u{0300}", stroke: KeyStroke(.backslash, .altGr), spacing: "`"),
            DeadKey(mark: "\u{0308}", stroke: KeyStroke(KeyCode.topRow[10], .altGr), spacing: "\""),
            DeadKey(mark: "\u{0303}", stroke: KeyStroke(KeyCode.topRow[11], .altGr), spacing: "~")
        ])

    /// de(basic), QWERTZ: ^ left of 1 and ´ ` right of ß are dead keys (so ^ and ` need a space after
    /// them); ü ö ä ß are keys; @ € ~ { [ ] } \ | on AltGr, £ on AltGr+Shift+3.
    public static let de = KeyboardLayout(
        .de,
        [
            Keys(.grave, " ", "°"),
            Keys(KeyCode.numberRow, "1234567890ß ", "!\"§$%&/()=? ", "¹²³¼½¬{[]}\\ ", "  £         "),
            Keys(KeyCode.topRow, "qwertzuiopü+", "QWERTZUIOPÜ*", "@ €        ~"),
            Keys(KeyCode.homeRow, "asdfghjklöä", "ASDFGHJKLÖÄ"),
            Keys(.backslash, "#", "'"),
            Keys(KeyCode.bottomRow, "yxcvbnm,.-", "YXCVBNM;:_", "      µ   "),
            Keys(.lessGreater, "<", ">", "|")
        ],
        deadKeys: [
            DeadKey(mark: "\u{0302}", stroke: KeyStroke(.grave), spacing: "^"),
            DeadKey(mark: "\u{0301}", stroke: KeyStroke(KeyCode.numberRow[11]), spacing: "'"),
            DeadKey(mark: "\u{0300}", stroke: KeyStroke(KeyCode.numberRow[11], .shift), spacing: "`"),
            DeadKey(mark: "\u{0308}", stroke: KeyStroke(KeyCode.topRow[10], .altGr), spacing: "\"")
        ])

    /// fr(basic), AZERTY: digits on Shift, é è ç à ù on keys; the key right of P is dead circumflex, and
    /// with Shift dead diaeresis (ê ë â ï …); # { [ | ` \ ^ @ ] } on AltGr.
    public static let fr = KeyboardLayout(
        .fr,
        [
            Keys(.grave, "²"),
            Keys(KeyCode.numberRow, "&é\"'(-è_çà)=", "1234567890°+", " ~#{[|`\\^@]}"),
            Keys(KeyCode.topRow, "azertyuiop $", "AZERTYUIOP £", "  €         "),
            Keys(KeyCode.homeRow, "qsdfghjklmù", "QSDFGHJKLM%", " ß       µ "),
            Keys(.backslash, "*", "µ"),
            Keys(KeyCode.bottomRow, "wxcvbn,;:!", "WXCVBN?./§"),
            Keys(.lessGreater, "<", ">")
        ],
        deadKeys: [
            DeadKey(mark: "\u{0302}", stroke: KeyStroke(KeyCode.topRow[10]), spacing: "^"),
            DeadKey(mark: "\u{0308}", stroke: KeyStroke(KeyCode.topRow[10], .shift), spacing: "\"")
        ])
}
