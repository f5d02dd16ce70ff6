import Foundation
import ScandCore

public enum Timestamp {
    /// UTC with milliseconds, as gpsd writes times: 2026-11-22T12:00:00.123Z.
    public static func iso8601(_ date: Date) -> String { UTCTime.iso8601(date.timeIntervalSince1970) }
}
