import ScandCore

/// `[tracking]`, registered with the settings table: `scand run`'s, applied on a reload (after `[decoding]` in the file).
extension TrackerSettings: SettingsSection {
    public static let name = "tracking"
    public static let reload = Setting.Reload.live
    public static let follows: String? = "decoding"

    public static let settings: [Setting] = [
        .seconds(
            in: Self.self, "lost_after", flag: "lost-after", 0...3600, help: "Seconds without a sighting before a code is LOST.",
            words: "Seconds without a sighting before a code is LOST, 0...3600.", \.lostAfter),
        .seconds(
            in: Self.self, "forget_after", flag: "forget-after", 0...3600,
            help: "Seconds after LOST within which the same code shown again is not a new SCAN.",
            words: "A code shown again within this many seconds after it was lost is not a new SCAN, 0...3600.", \.forgetAfter),
        .seconds(
            in: Self.self, "duplicate_filter", flag: "duplicate-filter", 0...3600,
            help: "Seconds since a scanned code was last seen within which the same format and text is that code; 0: off.",
            words:
                "A code read while a scanned code of the same format and text was seen less than this many seconds ago is that code, wherever it is: no second SCAN (one item at a till; what tracking by place loses: one code read on far-apart scan lines, two identical codes in view). 0...3600; 0 = off (identical codes are two codes).",
            \.duplicateFilter),
        .seconds(
            in: Self.self, "add_on_wait", flag: "add-on-wait", 0...10,
            help: "Seconds an EAN/UPC code that may carry an add-on waits for it before SCAN; 0: none.",
            words:
                "Seconds an EAN/UPC code that may carry an EAN-2/EAN-5 add-on (see add_on_prefixes, or one read with an add-on) waits for it before its SCAN, 0...10; an add-on is reported only when two reads agree, and one read twice alike ends the wait at once. 0 = no wait (an add-on read later only rides on UPDATE and LOST).",
            \.addOnWait),
        Setting(
            in: Self.self, key: "add_on_prefixes", flag: nil, kind: .texts, valueName: "LIST",
            help: "EAN/UPC number prefixes that wait for an add-on, or all.",
            words:
                "EAN/UPC main numbers (padded with zeros to 13 digits) starting with these wait for an add-on: books, periodicals and the other prefixes that carry one; [\"all\"] for every EAN/UPC code. Others scan at once.",
            read: { .texts($0.addOnPrefixes) },
            write: { t, v throws(Setting.Problem) in
                let prefixes = try v.texts()
                let valid = prefixes.allSatisfy { p in p == "all" || (1...12).contains(p.count) && p.utf8.allSatisfy { (0x30...0x39).contains($0) } }
                guard valid else {
                    throw Setting.Problem("must be digit prefixes of 1…12 digits or all, got \(v.commandLineText)")
                }
                t.addOnPrefixes = prefixes
            }),
        Setting(
            in: Self.self, key: "update_interval", flag: "update-interval", kind: .number, bounds: .seconds(0...3600), valueName: "S",
            help: "Emit UPDATE events with new corners at most this often per code, in seconds; 0: none.",
            words: "Seconds between UPDATE events (new corners) per code, for clients drawing overlays, 0...3600; 0 = none.",
            read: { .number($0.updateInterval?.inSeconds ?? 0) },
            write: { t, v throws(Setting.Problem) in
                let s = try v.number()
                t.updateInterval = s == 0 ? nil : Duration(roundingSeconds: s)
            }),
        .integer(
            in: Self.self, "redundancy", flag: "redundancy", 1...5,
            help: "Independent looks (frames, or bands sharing no pixels) that must agree on a number before SCAN, for "
                + "formats whose own check is weak (EAN/UPC, EAN-8, UPC-E, ITF, Code 39, Codabar, Code 93, DataBar); "
                + "small or reconstructed reads count half, reads of other numbers on the same bars count against; 1: one read.",
            words:
                "Independent looks that must agree on a number before its SCAN, 1...5, for the formats whose own check is weak (EAN-13, UPC-A, EAN-8, UPC-E and their add-ons, ITF, Code 39, Codabar, Code 93, DataBar): a hand scanner's redundancy or security level. A look is a decoded frame, or a read of one frame on bands that share no pixels with another; a read of modules under 2.5 px or of reconstructed pixels (deblurred, enlarged) is half a look; reads of another number on the same bars count against it; and an EAN/UPC number is scanned only once a frame's own bars, looked at again, showed its pattern with clear quiet zones; where two add-ons were read on one code, the one reported must be one a frame's bars agreed with. 1 = one read is trusted (and the bars are not required to agree). docs/architecture.md, \"Why scand trusts a SCAN\".",
            \.redundancy),
        .boolean(
            in: Self.self, "add_on_required",
            help: "EAN/UPC codes that show an add-on are never scanned without it; false: they wait at most 0.3 s.",
            words:
                "An EAN/UPC code that shows an add-on (its bars beside the code, or a read of it: in one frame for a number that starts with one of add_on_prefixes; for any other a read of it, and in more frames than showed its place empty, as print beside a code can look like an add-on's bars) is never scanned without the add-on while in view, and one of add_on_prefixes that shows none waits 0.3 s for a frame that does (a hand scanner's smart supplemental mode: at a till the add-on is the price or the issue). false = such codes wait add_on_wait and at most 0.3 s with add-on bars beside them, then are scanned with the main number alone.",
            \.addOnRequired),
        formatCounts(
            "confirm", help: "Agreeing reads before SCAN for a format (repeatable, or a comma-separated list).",
            words:
                "Agreeing reads needed before SCAN, per format, 1...30 (formats without a strong checksum need more); the option may be repeated. Formats not listed keep their default. For the formats redundancy covers, the larger of the two counts.",
            \.confirmations
        ) { t, item throws(Setting.Problem) in try t.setConfirmation(item) },
        formatCounts(
            "min_length", help: "Shortest read of a format that is a code, in characters (repeatable, or a comma-separated list; 0: any).",
            words:
                "The shortest read of a format that is a code, in characters (Codabar's without its start and stop characters), 0...100; shorter reads are ignored, as hand scanners' length limits ignore them. A Codabar has no check character, and a few characters of it are what an EAN's bars or print give when read as one. The option may be repeated; FORMAT=0 takes a format's limit away. Formats not listed: any length.",
            \.minimumLengths
        ) { t, item throws(Setting.Problem) in try t.setMinimumLength(item) }
    ]

    /// A per-format table, as "FORMAT=N" items (`--KEY` with dashes, repeatable), each item given to `set`.
    static func formatCounts(
        _ key: String, help: String, words: String, _ path: KeyPath<TrackerSettings, [BarcodeFormat: Int]> & Sendable,
        set: @escaping @Sendable (inout TrackerSettings, String) throws(Setting.Problem) -> Void
    ) -> Setting {
        Setting(
            in: Self.self, key: key, flag: key.replacingOccurrences(of: "_", with: "-"), kind: .texts, valueName: "FORMAT=N", help: help,
            words: words,
            read: { t in
                // A default taken away ("FORMAT=0" where 0 is allowed) is written as such: without it the file would
                // read back with the default in place.
                let taken = TrackerSettings()[keyPath: path].keys.filter { t[keyPath: path][$0] == nil }.map { "\($0.name)=0" }
                return .texts((t[keyPath: path].map { "\($0.key.name)=\($0.value)" } + taken).sorted())
            },
            write: { t, v throws(Setting.Problem) in
                for item in try v.texts() { try set(&t, item) }
            })
    }

    /// "FORMAT=N" with N in `range`: one item of a per-format table (`confirm`, `min_length`).
    static func formatCount(_ item: String, in range: ClosedRange<Int>) throws(Setting.Problem) -> (format: BarcodeFormat, count: Int) {
        let kv = item.split(separator: "=")
        guard kv.count == 2, let f = BarcodeFormat(name: String(kv[0])), let n = Int(kv[1]), range.contains(n) else {
            throw Setting.Problem("must be FORMAT=N with N in \(range.lowerBound)…\(range.upperBound), got '\(item)'")
        }
        return (f, n)
    }

    /// "FORMAT=N": agreeing reads needed before SCAN for that format.
    public mutating func setConfirmation(_ item: String) throws(Setting.Problem) {
        let (f, n) = try Self.formatCount(item, in: 1...30)
        confirmations[f] = n
    }

    /// "FORMAT=N": the shortest read of that format that is a code, in characters (0: any).
    public mutating func setMinimumLength(_ item: String) throws(Setting.Problem) {
        let (f, n) = try Self.formatCount(item, in: 0...100)
        minimumLengths[f] = n == 0 ? nil : n
    }
}
