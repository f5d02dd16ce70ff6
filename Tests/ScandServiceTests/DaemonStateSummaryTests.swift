import ScandProtocol
import Testing
@testable import ScandService

/// The line `scand run` logs at start about what outlives a restart (issue 24: nothing said so before).
@Suite struct DaemonStateSummaryTests {
    static let boot = "0123456789abcdef0123456789abcdef"

    @Test func namesTheJournalAndTheRectsFileInTheStateDirectory() {
        let on = Daemon.stateSummary(directory: "/var/lib/scand", journal: .on(JournalSpan(first: 4, last: 9, oldestTime: 0), boot: Self.boot))
        #expect(
            on
                == "state directory /var/lib/scand: event journal /var/lib/scand/journal.sqlite (journal keeps seq 4…9 since 1970-01-01T00:00:00.000Z); a rect of interest set over the socket is kept in /var/lib/scand/roi"
        )
        #expect(Daemon.stateSummary(directory: "/s", journal: .on(nil, boot: Self.boot)).contains("event journal /s/journal.sqlite (empty)"))
    }

    @Test func saysWhyWhenTheJournalIsOffOrThereIsNoStateDirectory() {
        let off = Daemon.stateSummary(directory: "/s", journal: .off(reason: "disk full", boot: Self.boot))
        #expect(off.contains("event journal off (disk full)") && off.contains("/s/roi"))
        let none = Daemon.stateSummary(directory: nil, journal: .off(reason: "no state directory", boot: Self.boot))
        #expect(none.hasPrefix("no state directory ([service] state_directory, or systemd's $STATE_DIRECTORY): no event journal"))
        #expect(none.hasSuffix("; --state-directory DIR keeps them"), "says what to do: \(none)")
        #expect(none.contains("camera controls set over the socket last until the next restart"))
    }
}
