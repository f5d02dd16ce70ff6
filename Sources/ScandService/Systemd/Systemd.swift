import CSystemd
import Foundation

/// systemd integration through libsystemd rather than re-implemented protocols. Every call is a no-op
/// outside systemd (no NOTIFY_SOCKET, no LISTEN_FDS).
public enum Systemd {
    /// "READY=1", "STATUS=…", "WATCHDOG=1", "STOPPING=1", "RELOADING=1". Newlines in a status are spaces.
    public static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    public static func ready(status: String) { notify("READY=1\nSTATUS=" + oneLine(status)) }
    public static func status(_ text: String) { notify("STATUS=" + oneLine(text)) }
    public static func watchdog() { notify("WATCHDOG=1") }
    public static func stopping() { notify("STOPPING=1") }
    public static func reloading() { notify("RELOADING=1") }

    /// The first socket systemd passed in (socket activation), if any.
    public static func listenedSocket() -> Int32? {
        let n = sd_listen_fds(1)
        return n >= 1 ? SD_LISTEN_FDS_START : nil
    }

    /// The watchdog period the service manager expects pings within, if it wants any.
    public static func watchdogInterval() -> Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec))
    }

    static func oneLine(_ s: String) -> String {
        String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
