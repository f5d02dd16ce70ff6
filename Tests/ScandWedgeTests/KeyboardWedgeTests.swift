import Foundation
import ScandCore
import ScandProtocol
import ScandWedge
import Testing

@Suite struct KeyboardWedgeTests {
    static let boot = String(repeating: "ab", count: 16)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func scan(_ seq: Int?, _ text: String, replayed: Bool = false, age: TimeInterval = 0) -> KeyboardWedge.Scan {
        KeyboardWedge.Scan(
            position: seq.map { EventPosition(boot: boot, seq: $0) }, replayed: replayed, format: .qrCode, text: text,
            time: now.addingTimeInterval(-age))
    }

    func typed(_ actions: [KeyboardWedge.Action], _ layout: KeyboardLayout = .us) -> [String] {
        actions.compactMap { if case .type(let events) = $0 { layout.decode(events) } else { nil } }
    }

    @Test func theWedgePersistsAPositionBeforeItsKeys() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .us))
        let actions = wedge.handle(Self.scan(7, "abc"), now: Self.now)
        #expect(actions.count == 2)
        #expect(actions.first == .persist(EventPosition(boot: Self.boot, seq: 7)))
        #expect(typed(actions) == ["abc\n"])
        #expect(wedge.typedUpTo?.seq == 7 && wedge.counters.typed == 1)
    }

    /// A restart resumes from the state file: what the replay brings again up to it is not typed twice.
    @Test func aReplayTypesOnlyWhatCameAfterTheStateFilesPosition() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .us), typedUpTo: EventPosition(boot: Self.boot, seq: 5))
        #expect(wedge.handle(Self.scan(4, "old", replayed: true), now: Self.now).isEmpty)
        #expect(wedge.handle(Self.scan(5, "old", replayed: true), now: Self.now).isEmpty)
        #expect(typed(wedge.handle(Self.scan(6, "new", replayed: true), now: Self.now)) == ["new\n"])
        #expect(wedge.handle(Self.scan(6, "new"), now: Self.now).isEmpty, "the same event live after its replay")
        #expect(wedge.counters.typed == 1)
    }

    /// When the daemon no longer holds the `since` (an ERROR), its replay is numbered anew: taken as it comes.
    @Test func afterTheSinceIsGoneAnyPositionIsTaken() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .us), typedUpTo: EventPosition(boot: Self.boot, seq: 500), replayMaxAge: nil)
        wedge.sinceNotKept()
        #expect(typed(wedge.handle(Self.scan(3, "x", replayed: true), now: Self.now)) == ["x\n"])
        #expect(wedge.handle(Self.scan(2, "y", replayed: true), now: Self.now).isEmpty, "then in order again")
    }

    /// A replayed scan from long ago is not typed into whatever the kiosk shows now; a live one always is.
    @Test func oldReplayedScansAreSkippedAndLogged() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .us), replayMaxAge: .seconds(60))
        let stale = wedge.handle(Self.scan(1, "stale", replayed: true, age: 61), now: Self.now)
        #expect(stale.first == .persist(EventPosition(boot: Self.boot, seq: 1)), "decided: not looked at again")
        #expect(typed(stale).isEmpty && wedge.counters.skippedStale == 1)
        #expect(stale.contains { if case .log(let line) = $0 { line.contains("older than replay_max_age") } else { false } })
        #expect(typed(wedge.handle(Self.scan(2, "fresh", replayed: true, age: 59), now: Self.now)) == ["fresh\n"])
        #expect(typed(wedge.handle(Self.scan(3, "late", age: 3600), now: Self.now)) == ["late\n"], "live: typed whatever its time")
    }

    @Test func anUntypableCodeIsLoggedWithTheCharacterAndTheLayoutAndCounted() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .de))
        let actions = wedge.handle(Self.scan(1, "Preis 5£ñ"), now: Self.now)
        #expect(typed(actions, .de).isEmpty)
        #expect(actions.contains(.log("not typing a QRCode of 9 characters: the de layout cannot type 'ñ' (U+00F1); nothing of it was typed")))
        #expect(wedge.counters.refused == 1 && wedge.counters.typed == 0)
        #expect(wedge.typedUpTo?.seq == 1)
    }

    /// A till reading GS1-128 gets a Digital Link QR code as the element string it knows, GS typed as
    /// gs_replacement; the default types the link as scanned, and a link that is not a valid Digital Link is
    /// typed as scanned either way.
    @Test func aDigitalLinkIsTypedAsItsElementStringWhenAsked() throws {
        let link = "https://id.gs1.org/01/09506000134352/10/ABC?17=270101"
        var asElements = KeyboardWedge(planner: try KeystrokePlanner(layout: .us, gsReplacement: "|"), digitalLink: .elementString)
        #expect(typed(asElements.handle(Self.scan(1, link), now: Self.now)) == ["0109506000134352" + "10ABC|17270101\n"])
        #expect(
            typed(asElements.handle(Self.scan(2, "https://shop.example/p/01/9506000134352?10=L%2F1&utm_source=qr"), now: Self.now))
                == ["0109506000134352" + "10L/1\n"])
        #expect(
            typed(asElements.handle(Self.scan(3, "https://id.gs1.org/01/09506000134353"), now: Self.now)) == [
                "https://id.gs1.org/01/09506000134353\n"
            ])
        // Issue 48, 9: an invalid escape is no Digital Link, typed as scanned, not as the batch `A%ZZ`.
        #expect(
            typed(asElements.handle(Self.scan(4, "https://id.gs1.org/01/09506000134352/10/A%ZZ"), now: Self.now)) == [
                "https://id.gs1.org/01/09506000134352/10/A%ZZ\n"
            ])
        #expect(asElements.counters.replacedSeparators == 1)

        var asScanned = KeyboardWedge(planner: try KeystrokePlanner(layout: .us, gsReplacement: "|"))
        #expect(typed(asScanned.handle(Self.scan(1, link), now: Self.now)) == [link + "\n"])
    }

    @Test func droppedControlCharactersAreCountedAndLogged() throws {
        var wedge = KeyboardWedge(planner: try KeystrokePlanner(layout: .us))
        let actions = wedge.handle(Self.scan(nil, "a\u{1B}[2Jb\r\n"), now: Self.now)
        #expect(typed(actions) == ["a[2Jb\n"])
        #expect(wedge.counters.droppedControls == 3)
        #expect(actions.contains(.log("typed a QRCode without its 3 control characters (never typed as keys)")))
        #expect(wedge.typedUpTo == nil, "an unnumbered event (a daemon without journal) moves no position")
    }
}
