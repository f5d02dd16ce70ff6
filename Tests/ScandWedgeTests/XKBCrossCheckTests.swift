import Foundation
import ScandWedge
import ScandTestSupport
import Testing

/// The layout tables against Debian's own XKB data, read by xkbcommon (`xkbcli how-to-type`, package
/// libxkbcommon-tools): every character a table types with one key is typed by that key and level under
/// the XKB layout of the same name, every dead key is that dead keysym, and every accented letter the
/// planner composes from a dead key is a composition of X11's Compose table for en_US.UTF-8.
@Suite(.enabled(if: XKBData.available, "needs xkbcli (libxkbcommon-tools), xkb-data and libx11-data"))
struct XKBCrossCheckTests {
    static let xkbcli = XKBData.xkbcli
    static let compose = XKBData.compose

    static func xkbName(_ name: KeyboardLayout.Name) -> String { name == .uk ? "gb" : name.rawValue }

    /// `how-to-type`'s rows: (XKB keycode, modifiers) pairs, without the ones holding Caps Lock.
    static func howToType(_ layout: KeyboardLayout.Name, _ argument: [String]) throws -> Set<String> {
        let output = try ScandBinary.runTool(xkbcli, ["how-to-type", "--layout", xkbName(layout)] + argument).stdout
        var rows: Set<String> = []
        for line in output.split(separator: "\n") {
            guard let keycode = Int(line.split(separator: " ").first ?? ""), let open = line.firstIndex(of: "[") else { continue }
            let modifiers = line[open...].trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: " ").sorted()
            if modifiers.contains("Lock") { continue }
            rows.insert("\(keycode) \(modifiers.joined(separator: "+"))")
        }
        return rows
    }

    /// evdev code + 8 is XKB's keycode; Shift is Shift, AltGr (level 3) is Mod5.
    static func row(_ stroke: KeyStroke) -> String {
        var modifiers: [String] = []
        if stroke.modifiers.contains(.altGr) { modifiers.append("Mod5") }
        if stroke.modifiers.contains(.shift) { modifiers.append("Shift") }
        return "\(Int(stroke.key.rawValue) + 8) \(modifiers.sorted().joined(separator: "+"))"
    }

    @Test(arguments: KeyboardLayout.Name.allCases)
    func everyKeyOfTheTableTypesItsCharacterUnderXKB(_ name: KeyboardLayout.Name) throws {
        let layout = KeyboardLayout.named(name)
        for (character, stroke) in layout.strokes.sorted(by: { $0.key < $1.key }) {
            let scalar = try #require(character.unicodeScalars.first)
            let rows = try Self.howToType(name, [String(scalar.value)])
            #expect(rows.contains(Self.row(stroke)), "\(name): \(KeystrokePlanner.describe(character)) as \(Self.row(stroke)); XKB: \(rows.sorted())")
        }
    }

    static let deadKeysyms: [Unicode.Scalar: String] = [
        "\u{0300}": "dead_grave", "\u{0301}": "dead_acute", "\u{0302}": "dead_circumflex", "\u{0303}": "dead_tilde", "\u{0308}": "dead_diaeresis"
    ]

    @Test(arguments: KeyboardLayout.Name.allCases)
    func everyDeadKeyIsThatDeadKeyUnderXKBAndComposesAsComposeSays(_ name: KeyboardLayout.Name) throws {
        let layout = KeyboardLayout.named(name)
        let table = try String(contentsOfFile: Self.compose, encoding: .utf8)
        for dead in layout.deadKeys {
            let keysym = try #require(Self.deadKeysyms[dead.mark])
            let rows = try Self.howToType(name, ["--keysym", keysym])
            #expect(rows.contains(Self.row(dead.stroke)), "\(name): \(keysym) as \(Self.row(dead.stroke)); XKB: \(rows.sorted())")
            let spacing = dead.spacing == "\"" ? "\\\"" : String(dead.spacing)
            #expect(
                table.split(separator: "\n").contains { $0.hasPrefix("<\(keysym)> <space>") && $0.contains(": \"\(spacing)\"") },
                "\(name): \(keysym) then space types \(dead.spacing)")
        }
        // Every Latin-1 and Latin Extended-A letter the planner composes: the Compose table agrees.
        for value in 0xC0...0x17F {
            let character = Character(Unicode.Scalar(UInt32(value))!)
            guard let strokes = layout.strokes(for: character), strokes.count == 2,
                let dead = layout.deadKeys.first(where: { $0.stroke == strokes[0] })
            else { continue }
            let base = try #require(String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first)
            let keysym = try #require(Self.deadKeysyms[dead.mark])
            #expect(
                table.split(separator: "\n").contains { $0.hasPrefix("<\(keysym)> <\(base)>") && $0.contains(": \"\(character)\"") },
                "\(name): \(keysym) then \(base) should type \(character)")
        }
    }
}

enum XKBData {
    static let xkbcli = "/usr/bin/xkbcli"
    static let compose = "/usr/share/X11/locale/en_US.UTF-8/Compose"
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: xkbcli) && FileManager.default.fileExists(atPath: "/usr/share/X11/xkb/symbols/gb")
            && FileManager.default.fileExists(atPath: compose)
    }
}
