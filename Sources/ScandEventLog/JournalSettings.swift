import ScandCore
import ScandJournal

/// `[journal]`: the event journal's bounds (in the state directory), events kept at most and for how long.
/// `scand run`'s, kept until a restart.
public struct JournalSettings: Sendable, Equatable {
    public var maxEvents = 100_000
    public var maxAge: Duration = .seconds(7 * 86_400)

    public init() {}

    /// The bounds as the journal takes them.
    public var limits: EventJournal.Limits { .init(maxEvents: maxEvents, maxAge: maxAge.inSeconds) }
}

/// `[journal]`, registered with the settings table (after `[service]` in the file).
extension JournalSettings: SettingsSection {
    public static let name = "journal"
    public static let reload = Setting.Reload.restart
    public static let follows: String? = "service"

    public static let introduction: String? =
        "The event journal (journal.sqlite in the state directory): every DEVICE, SCAN, UPDATE, LOST and STATS is written there before it is published, so a client that reconnects with ?WATCH={\"since\":…} (and `scand mqtt`) gets what it missed."

    public static let settings: [Setting] = [
        .integer(
            in: Self.self, "max_events", 1...10_000_000,
            help: "Events the journal in the state directory keeps at most, for clients that reconnect with since.",
            words: "Events kept at most, 1...10000000.", \.maxEvents),
        .seconds(
            in: Self.self, "max_age", 0...31_536_000, help: "Seconds the journal keeps an event at most.",
            words: "Seconds an event is kept at most, 0...31536000 (a year).", \.maxAge)
    ]
}
