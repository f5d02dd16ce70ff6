import ScandCore

/// `[service]`: where the daemon keeps what must outlive it. `scand run`'s, kept until a restart.
public struct ServiceSettings: Sendable, Equatable {
    /// Where scand keeps what must outlive it (the event journal, the rect of interest set over the socket); nil:
    /// systemd's $STATE_DIRECTORY when it sets one, else nowhere (nothing is kept across restarts).
    public var stateDirectory: String?

    public init() {}

    /// Where the daemon keeps what outlives it: `[service] state_directory`, else systemd's $STATE_DIRECTORY.
    public func resolvedStateDirectory(environment: [String: String]) -> String? {
        stateDirectory ?? Self.systemdStateDirectory(environment)
    }

    /// systemd's StateDirectory= as a service sees it: $STATE_DIRECTORY is a colon-separated list when the unit
    /// names several; the first absolute one, or nil.
    public static func systemdStateDirectory(_ environment: [String: String]) -> String? {
        environment["STATE_DIRECTORY"]?.split(separator: ":").first { $0.hasPrefix("/") }.map(String.init)
    }
}

/// `[service]`, registered with the settings table (after `[socket]` in the file).
extension ServiceSettings: SettingsSection {
    public static let name = "service"
    public static let reload = Setting.Reload.restart
    public static let follows: String? = "socket"

    public static let settings: [Setting] = [
        Setting(
            in: Self.self, key: "state_directory", flag: "state-directory", kind: .text, valueName: "PATH",
            help: "Directory for what outlives a restart: the event journal (for since and scand mqtt), the rect of interest and "
                + "camera controls set over the socket; empty: systemd's $STATE_DIRECTORY, else nothing is kept.",
            words:
                "Directory for what outlives a restart: the event journal (what since and scand mqtt resume from), and the rect of interest and camera controls set over the socket or the setup page (they then override [decoding] roi and [camera.controls]). \"\" = systemd's $STATE_DIRECTORY (the first, if the unit names several), else nothing is kept.",
            read: { .text($0.stateDirectory ?? "") },
            write: { s, v throws(Setting.Problem) in
                if case .text("") = v { s.stateDirectory = nil; return }
                s.stateDirectory = try Setting.absolutePath(v, example: "/var/lib/scand")
            })
    ]
}
