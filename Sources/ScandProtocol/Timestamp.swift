import Foundation
import ScandCore

public enum Timestamp {
    /// UTC with milliseconds, as gpsd writes times: 2026-11-22T12:00:00.123Z.
    public static func iso8601(_ date: Date) -> String { UTCTime.iso8601(date.timeIntervalSince1970) }

    /// The inverse of `iso8601`: `2026-11-22T12:00:00.123Z` (milliseconds optional); nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count, b[from..<from + count].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return b[from..<from + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }
        guard let year = number(0, 4), at(4, "-"), let month = number(5, 2), at(7, "-"), let day = number(8, 2), at(10, "T"),
            let hour = number(11, 2), at(13, ":"), let minute = number(14, 2), at(16, ":"), let second = number(17, 2)
        else { return nil }
        var millis = 0
        var end = 19
        if at(19, ".") {
            guard let ms = number(20, 3) else { return nil }
            millis = ms
            end = 23
        }
        guard at(end, "Z"), end + 1 == b.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Date(timeIntervalSince1970: Double(timegm(&parts)) + Double(millis) / 1000)
    }
}
