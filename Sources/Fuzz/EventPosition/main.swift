import FuzzSupport
import ScandCore
import ScandProtocol
@testable import ScandWeb

// Positions from outside: a WATCH's `since` (EventPosition.parse(json:), the bridge's state file, and the
// same object inside a `?WATCH=` request) and a page's Last-Event-ID (EventStreamID.position). What any of
// them accepts is a published event's position: a boot id, a seq of 1 or more after which `seq + 1` cannot
// trap, and text that its own encoder writes back as the same position. EventStreamID is internal to
// ScandWeb: reached with @testable (a debug build has testability).

func seeds() -> [Fuzz.Seed] {
    var generator = SystemRandomNumberGenerator()
    let positions = [1, 42, 1 << 31, (1 << 53) - 1].map { EventPosition(boot: EventPosition.randomBootID(using: &generator), seq: $0) }
    return positions.enumerated().flatMap { i, p in
        [(name: "since-\(i)", bytes: Array(p.json.utf8)), (name: "last-event-id-\(i)", bytes: Array(EventStreamID.text(p).utf8))]
    }
}

func test(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    if let p = EventPosition.parse(json: text) {
        check(p)
        Fuzz.require(EventPosition.parse(json: p.json) == p, "\(p.json) does not read back")
    }
    if let p = EventStreamID.position(text) {
        check(p)
        Fuzz.require(EventStreamID.position(EventStreamID.text(p)) == p, "\(EventStreamID.text(p)) does not read back")
    }
    do {
        if case .watch(let watch) = try ClientRequest.parse(#"?WATCH={"since":"# + text + "};"), let since = watch.since { check(since) }
    } catch {
        Fuzz.requireOneLine(error.description)
    }
}

private func check(_ p: EventPosition) {
    Fuzz.require(EventPosition.isBootID(p.boot), "boot \(p.boot.debugDescription) accepted")
    Fuzz.require(p.seq > 0 && !p.seq.addingReportingOverflow(1).overflow, "seq \(p.seq) accepted: seq + 1 traps")
}

Fuzz.run(seeds: seeds, test: test)
