import ScandCore
import ScandWedge
import Testing

@Suite struct KeystrokePlannerTests {
    static let enter = [KeyEvent(.enter, pressed: true), KeyEvent(.enter, pressed: false)]

    func typed(_ plan: KeystrokePlanner.Plan, _ layout: KeyboardLayout = .us) -> String? {
        if case .type(let events, _, _) = plan { layout.decode(events) } else { nil }
    }

    @Test func aCodeIsTypedWithEnterAfterItByDefault() throws {
        let planner = try KeystrokePlanner(layout: .us)
        guard case .type(let events, 0, 0) = planner.plan("AB-12") else { Issue.record("not typed"); return }
        #expect(Array(events.suffix(2)) == Self.enter)
        #expect(KeyboardLayout.us.decode(events) == "AB-12\n")
    }

    @Test func prefixAndSuffix() throws {
        #expect(typed(try KeystrokePlanner(layout: .de, prefix: "]Q1 ", suffix: .tab).plan("x"), .de) == "]Q1 x\t")
        #expect(typed(try KeystrokePlanner(layout: .fr, prefix: "€", suffix: .none).plan("a"), .fr) == "€a")
    }

    @Test func gsSeparatorsAreReplacedAndCounted() throws {
        let gs1 = "0109501101530003\u{1D}10AB12\u{1D}21X"
        guard case .type(let dropped, 0, 2) = try KeystrokePlanner(layout: .us).plan(gs1) else { Issue.record("not typed"); return }
        #expect(KeyboardLayout.us.decode(dropped) == "010950110153000310AB1221X\n", "left out by default")
        #expect(typed(try KeystrokePlanner(layout: .uk, gsReplacement: "|").plan(gs1), .uk) == "0109501101530003|10AB12|21X\n")
    }

    /// CR, LF, TAB, ESC, DEL and C1 are never keys: only the suffix's Enter ends the typing.
    @Test func controlCharactersAreDroppedAndCountedNeverTyped() throws {
        let planner = try KeystrokePlanner(layout: .us)
        let controls = (0..<0x20).filter { $0 != 0x1D }.map { Character(Unicode.Scalar(UInt8($0))) } + ["\u{7F}", "\u{85}", "\u{9B}"]
        let text = "a" + String(controls) + "b\r\nc"
        guard case .type(let events, let dropped, 0) = planner.plan(text) else { Issue.record("not typed"); return }
        #expect(dropped == controls.count + 2)
        #expect(KeyboardLayout.us.decode(events) == "abc\n")
        #expect(events.filter { $0.key == .enter || $0.key == .tab }.count == 2, "the suffix's press and release only")
    }

    @Test func aCodeWithOneUntypableCharacterIsRefusedWhole() throws {
        #expect(try KeystrokePlanner(layout: .us).plan("price 5€") == .refused("€"))
        #expect(try KeystrokePlanner(layout: .de).plan("Straße 5") != .refused("ß"))
        #expect(try KeystrokePlanner(layout: .fr).plan("中文") == .refused("中"))
    }

    @Test func aPrefixOrReplacementTheLayoutCannotTypeIsAConfigurationError() {
        #expect(throws: KeystrokePlanner.Problem.self) { try KeystrokePlanner(layout: .us, prefix: "é") }
        #expect(throws: KeystrokePlanner.Problem.self) { try KeystrokePlanner(layout: .de, gsReplacement: "ñ") }
        #expect(throws: KeystrokePlanner.Problem.self) { try KeystrokePlanner(layout: .us, prefix: "\t") }
        do { _ = try KeystrokePlanner(layout: .us, prefix: "€") } catch {
            #expect(error.description == "prefix: the us layout cannot type '€' (U+20AC)")
        }
    }
}
