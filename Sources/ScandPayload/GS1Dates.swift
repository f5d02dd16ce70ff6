import ScandCore

/// Calendar checks for GS1 date fields (and the other date-bearing payloads).
enum GS1Dates {
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// GS1 two-digit years are read as 2000…2099. The General Specifications' sliding window (±50 years
    /// from today) would need a clock, which the core does not read; the two agree until 2050.
    static func fullYear(_ yy: Int) -> Int { 2000 + yy }

    /// `YYMMDD`; `allowZeroDay`: "DD = 00" means the month as a whole (AIs 11–17).
    static func isValidYYMMDD(_ s: ArraySlice<UInt8>, allowZeroDay: Bool) -> Bool {
        guard s.count == 6, let yy = PayloadBytes.integer(s.prefix(2)),
            let mm = PayloadBytes.integer(s.dropFirst(2).prefix(2)), let dd = PayloadBytes.integer(s.suffix(2)),
            (1...12).contains(mm)
        else { return false }
        if dd == 0 { return allowZeroDay }
        return dd <= daysIn(month: mm, year: fullYear(yy))
    }

    /// `YYMMDDHH[MM[SS]]` (7003, 8008): a valid date followed by real hours, minutes and seconds.
    static func isValidDateTime(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count >= 8, s.count % 2 == 0, s.count <= 12, isValidYYMMDD(s.prefix(6), allowZeroDay: false) else { return false }
        let limits = [24, 60, 60]
        var i = s.startIndex + 6, k = 0
        while i < s.endIndex {
            guard let v = PayloadBytes.integer(s[i..<(i + 2)]), v < limits[k] else { return false }
            i += 2
            k += 1
        }
        return true
    }

    /// YYMMDD to YYYY-MM-DD; a zero day becomes the month's last day, as GS1 reads it for expiry and
    /// best-before dates.
    static func iso(_ s: ArraySlice<UInt8>) -> String? {
        guard isValidYYMMDD(s, allowZeroDay: true), let yy = PayloadBytes.integer(s.prefix(2)),
            let mm = PayloadBytes.integer(s.dropFirst(2).prefix(2)), var dd = PayloadBytes.integer(s.suffix(2))
        else { return nil }
        let year = fullYear(yy)
        if dd == 0 { dd = daysIn(month: mm, year: year) }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(mm))-\(two(dd))"
    }
}
