import ScandCore

extension Payload {
    /// An iCalendar event (`BEGIN:VEVENT … END:VEVENT`, alone or inside a VCALENDAR).
    public struct CalendarEvent: Sendable, Equatable {
        public var summary: String?
        /// As in the payload: `20250314T090000Z`, `20250314T090000` (floating or with a TZID) or `20250314`.
        public var start: String
        public var end: String?
        public var location: String?
        public var description: String?
    }
}

/// The first VEVENT of the payload. It must be complete and its DTSTART (and DTEND, when given) must be
/// RFC 5545 basic-format dates: otherwise the content stays text.
enum CalendarEventParser {
    static func parse(_ s: ArraySlice<UInt8>) -> Payload.CalendarEvent? {
        let lines = ContentLines.parse(s)
        guard let first = lines.first, first.name == "BEGIN" else { return nil }
        var summary: String?, start: String?, end: String?, location: String?, description: String?
        var inEvent = false
        var nested = 0  // VALARM and the like inside the event: their properties are not the event's
        var complete = false
        for line in lines {
            let isBegin = line.name == "BEGIN", isEnd = line.name == "END"
            if !inEvent {
                if isBegin, line.text.uppercased() == "VEVENT" { inEvent = true }
                continue
            }
            if isBegin { nested += 1; continue }
            if isEnd {
                if nested == 0 { complete = line.text.uppercased() == "VEVENT"; break }
                nested -= 1
                continue
            }
            guard nested == 0 else { continue }
            switch line.name {
            case "SUMMARY": summary = summary ?? VCardParser.nonEmpty(line.text)
            case "DTSTART": start = start ?? line.text
            case "DTEND": end = end ?? line.text
            case "LOCATION": location = location ?? VCardParser.nonEmpty(line.text)
            case "DESCRIPTION": description = description ?? VCardParser.nonEmpty(line.text)
            default: break
            }
        }
        guard complete, let start, isDateTime(start) else { return nil }
        if let end, !isDateTime(end) { return nil }
        return Payload.CalendarEvent(summary: summary, start: start, end: end, location: location, description: description)
    }

    /// `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]` with real months, days and times (second 60 for leap seconds).
    static func isDateTime(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 8 || b.count == 15 || b.count == 16 else { return false }
        guard let year = PayloadBytes.integer(b[0..<4]), let month = PayloadBytes.integer(b[4..<6]),
            let day = PayloadBytes.integer(b[6..<8]),
            (1...12).contains(month), day >= 1, day <= GS1Dates.daysIn(month: month, year: year)
        else { return false }
        if b.count == 8 { return true }
        guard b[8] == 0x54, let h = PayloadBytes.integer(b[9..<11]), let m = PayloadBytes.integer(b[11..<13]),
            let sec = PayloadBytes.integer(b[13..<15]), h < 24, m < 60, sec <= 60
        else { return false }
        return b.count == 15 || b[15] == 0x5A
    }
}
