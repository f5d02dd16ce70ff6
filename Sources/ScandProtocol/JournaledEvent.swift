/// One event as the journal keeps it: its position, class, when it was published (seconds since 1970,
/// UTC) and its line as published live (without the replayed flag).
public struct JournaledEvent: Sendable, Equatable {
    public var seq: Int
    public var boot: String
    public var eventClass: String
    public var time: Double
    public var line: String

    public init(seq: Int, boot: String, eventClass: String, time: Double, line: String) {
        self.seq = seq
        self.boot = boot
        self.eventClass = eventClass
        self.time = time
        self.line = line
    }
}

/// What a journal holds: sequence numbers `first…last` and the time of the oldest event.
public struct JournalSpan: Sendable, Equatable {
    public var first: Int
    public var last: Int
    public var oldestTime: Double
    /// The events it holds: fewer than `last − first + 1` where seqs were published while it was off.
    public var events: Int

    /// - Parameter events: nil for every seq from `first` to `last`.
    public init(first: Int, last: Int, oldestTime: Double, events: Int? = nil) {
        self.first = first
        self.last = last
        self.oldestTime = oldestTime
        self.events = events ?? last - first + 1
    }

    /// "journal keeps seq A…B since <time>": the part of an ERROR that says what a `since` can still get.
    public var summary: String { "journal keeps seq \(first)…\(last) since \(UTCTime.iso8601(oldestTime))" }
}

/// UTC times as scand writes them (`2026-11-22T12:54:35.578Z`), without Foundation: the one formatter of
/// events' times and the journal's.
public enum UTCTime {
    /// Milliseconds truncated, as gpsd writes times (half a microsecond added first, so that a time read
    /// back from its decimal text, 0.578 s stored as 0.57799…, keeps its millisecond).
    public static func iso8601(_ secondsSince1970: Double) -> String {
        let totalMilliseconds = Int((secondsSince1970 * 1000 + 0.0005).rounded(.down))
        let (days, msOfDay) = floorDivide(totalMilliseconds, 86_400_000)
        // Howard Hinnant's days-to-civil: proleptic Gregorian calendar, valid for any day count here.
        let z = days + 719_468
        let era = floorDivide(z, 146_097).0
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let s = msOfDay / 1000
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2)).\(pad(msOfDay % 1000, 3))Z"
    }

    static func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
        let q = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (q, a - q * b)
    }
}
