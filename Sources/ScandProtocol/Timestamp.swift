import Foundation
import ScandCore

public enum Timestamp {
    /// UTC with milliseconds, as gpsd writes times: 2026-11-22T12:00:00.123Z.
    public static func iso8601(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var seconds = time_t(t.rounded(.down))
        var tm = tm()
        gmtime_r(&seconds, &tm)
        let ms = Int((t - t.rounded(.down)) * 1000)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday),
            Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec), ms)
    }
}
