/// A request line from a socket client, gpsd style: `?WATCH={"enable":true};`, `?STATUS;`, `?VERSION;`,
/// `?SNAPSHOT;`, `?METRICS;`, `?ROI;` and `?ROI={"x":0.1,"y":0.2,"w":0.6,"h":0.5};`. The JSON arguments are small and
/// flat; they are parsed here without Foundation.
public enum ClientRequest: Sendable, Equatable {
    case watch(Watch)
    case status
    case version
    /// The newest frame, downscaled, as an image.
    case snapshot
    /// The Prometheus metrics, as text.
    case metrics
    /// The rect of interest in use.
    case regionOfInterest
    /// A new rect of interest: a change of settings, for the admin group only.
    case setRegionOfInterest(NormalizedRect)

    /// Whether the request changes the daemon's settings (allowed to the admin group only).
    public var changesSettings: Bool {
        if case .setRegionOfInterest = self { true } else { false }
    }

    /// What a subscriber wants: events on or off, optionally only some classes and formats.
    public struct Watch: Sendable, Equatable {
        public var enable: Bool
        /// Event classes to receive (SCAN, LOST, UPDATE, DEVICE, …); nil: all.
        public var classes: Set<Event.Class>?
        /// Formats of SCAN/UPDATE/LOST events to receive; nil: all.
        public var formats: BarcodeFormats?
        /// Replay what the journal holds after this position first (see `ReplayHandover`).
        public var since: EventPosition?

        public init(enable: Bool, classes: Set<Event.Class>? = nil, formats: BarcodeFormats? = nil, since: EventPosition? = nil) {
            self.enable = enable
            self.classes = classes
            self.formats = formats
            self.since = since
        }

        /// Whether a subscriber with these filters receives `event`: its class is asked for, and a code's
        /// format too when formats are named.
        public func accepts(_ event: Event) -> Bool {
            guard enable else { return false }
            if let classes, !classes.contains(event.eventClass) { return false }
            if let formats, let format = event.format, !formats.contains(format) { return false }
            return true
        }

        /// The same test on a journaled line (a replay has lines, not events): its class from the envelope,
        /// and a code's format from its top-level `"format"` (a string value never holds `,"` unescaped).
        public func accepts(line: String) -> Bool {
            guard enable else { return false }
            guard let envelope = EventEnvelope.parse(line), let eventClass = Event.Class(rawValue: envelope.eventClass) else { return false }
            if let classes, !classes.contains(eventClass) { return false }
            if let formats, [.scan, .update, .lost].contains(eventClass), let r = line.range(of: #","format":""#) {
                let name = line[r.upperBound...].prefix { $0 != "\"" }
                if let format = BarcodeFormat(name: String(name)), !formats.contains(format) { return false }
            }
            return true
        }
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// Longest piece of a request an ERROR quotes: a hostile request must not make a reply larger than itself.
    public static let quoteLimit = 64

    /// The text cut to `quoteLimit` characters, with "…" when it was longer.
    static func shortened(_ text: some StringProtocol) -> String {
        text.count > quoteLimit ? "\(text.prefix(quoteLimit))…" : String(text)
    }

    static func quoted(_ text: some StringProtocol) -> String { "'\(shortened(text))'" }

    public static func parse(_ line: String) throws(Problem) -> ClientRequest {
        var text = line.trimmedSpaces()
        if text.hasSuffix("\r") { text.removeLast() }
        if text.hasSuffix(";") { text.removeLast() }
        guard text.hasPrefix("?") else { throw Problem("requests start with '?', e.g. ?WATCH={\"enable\":true};") }
        let body = text.dropFirst()
        let name = String(body.prefix { $0.isLetter }).uppercased()
        let rest = body.dropFirst(name.count)
        switch name {
        case "STATUS", "VERSION", "SNAPSHOT", "METRICS":
            guard rest.isEmpty else { throw Problem("?\(name) takes no argument") }
            return ["STATUS": .status, "VERSION": .version, "SNAPSHOT": .snapshot, "METRICS": .metrics][name]!
        case "ROI":
            if rest.isEmpty { return .regionOfInterest }
            guard rest.first == "=" else { throw Problem("expected ?ROI={\"x\":…,\"y\":…,\"w\":…,\"h\":…}") }
            return .setRegionOfInterest(try parseRegionOfInterest(String(rest.dropFirst())))
        case "WATCH":
            if rest.isEmpty { return .watch(Watch(enable: true)) }
            guard rest.first == "=" else { throw Problem("expected ?WATCH={...}") }
            return .watch(try parseWatch(String(rest.dropFirst())))
        case "":
            throw Problem("empty request")
        default:
            throw Problem("unknown request \(quoted("?" + name)) (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?METRICS)")
        }
    }

    static func parseRegionOfInterest(_ json: String) throws(Problem) -> NormalizedRect {
        var p = FlatJSON(Array(json.unicodeScalars))
        var values: [String: Double] = [:]
        for (key, value) in try p.object() {
            guard ["x", "y", "w", "h"].contains(key) else { throw Problem("unknown ROI field \(quoted(key)) (known: x, y, w, h)") }
            switch value {
            case .int(let n): values[key] = Double(n)
            case .double(let d): values[key] = d
            default: throw Problem("\(quoted(key)) must be a number")
            }
        }
        guard let x = values["x"], let y = values["y"], let w = values["w"], let h = values["h"] else {
            throw Problem("?ROI needs x, y, w and h (0…1 of the frame)")
        }
        do { return try NormalizedRect(x: x, y: y, width: w, height: h) } catch { throw Problem(error.description) }
    }

    static func parseWatch(_ json: String) throws(Problem) -> Watch {
        var p = FlatJSON(Array(json.unicodeScalars))
        let fields = try p.object()
        var watch = Watch(enable: true)
        for (key, value) in fields {
            switch (key, value) {
            case ("enable", .bool(let b)): watch.enable = b
            case ("classes", .array(let items)):
                var set = Set<Event.Class>()
                for item in items {
                    guard case .string(let s) = item, let c = Event.Class(rawValue: s.uppercased()), Event.Class.watchable.contains(c) else {
                        throw Problem("classes must name event classes (\(Event.Class.watchable.map(\.rawValue).joined(separator: ", ")))")
                    }
                    set.insert(c)
                }
                watch.classes = set
            case ("formats", .array(let items)):
                var names: [String] = []
                for item in items {
                    guard case .string(let s) = item else { throw Problem("formats must be strings") }
                    names.append(s)
                }
                do { watch.formats = try BarcodeFormats.parse(names.joined(separator: ",")) } catch {
                    throw Problem(FormatListError(item: shortened(error.item)).description)
                }
            case ("since", .object(let position)):
                watch.since = try parseSince(position)
            case ("enable", _), ("classes", _), ("formats", _), ("since", _):
                throw Problem("\(quoted(key)) has the wrong type")
            default:
                throw Problem("unknown WATCH field \(quoted(key)) (known: enable, classes, formats, since)")
            }
        }
        return watch
    }

    /// `{"boot":"<32 hex>","seq":N}`, as an event line gives them.
    static func parseSince(_ fields: [(String, JSONValue)]) throws(Problem) -> EventPosition {
        let usage = #"since must be {"boot":"<32 hex digits>","seq":N} with N ≥ 1, from an event's boot and seq"#
        guard fields.count == 2, case .string(let boot)? = fields.first(where: { $0.0 == "boot" })?.1,
            case .int(let seq)? = fields.first(where: { $0.0 == "seq" })?.1
        else { throw Problem(usage) }
        let position = EventPosition(boot: boot, seq: seq)
        guard let parsed = EventPosition.parse(json: position.json), parsed == position else { throw Problem(usage) }
        return parsed
    }

    /// One JSON object of scalars, arrays of scalars and objects of scalars: all WATCH ever needs, and
    /// bounded work on hostile input (no recursion beyond one level).
    struct FlatJSON {
        let s: [Unicode.Scalar]
        var i = 0
        /// Values may be arrays and objects (one level down they may not).
        let allowNested: Bool
        init(_ s: [Unicode.Scalar]) { self.init(s, at: 0, nested: true) }
        init(_ s: [Unicode.Scalar], at i: Int, nested: Bool) {
            self.s = s
            self.i = i
            allowNested = nested
        }

        mutating func ws() { while i < s.count, s[i] == " " || s[i] == "\t" || s[i] == "\r" || s[i] == "\n" { i += 1 } }
        mutating func expect(_ c: Unicode.Scalar) throws(Problem) {
            ws()
            guard i < s.count, s[i] == c else { throw Problem("malformed JSON: expected '\(c)'") }
            i += 1
        }

        /// The whole text as one object.
        mutating func object() throws(Problem) -> [(String, JSONValue)] { try end(try members()) }

        /// One object from `i` on.
        mutating func members() throws(Problem) -> [(String, JSONValue)] {
            try expect("{")
            var out: [(String, JSONValue)] = []
            ws()
            if i < s.count, s[i] == "}" { i += 1; return out }
            while true {
                ws()
                let key = try string()
                try expect(":")
                ws()
                if allowNested, i < s.count, s[i] == "{" {
                    var inner = FlatJSON(s, at: i, nested: false)
                    out.append((key, .object(try inner.members())))
                    i = inner.i
                } else {
                    out.append((key, try scalarOrArray(allowArray: allowNested)))
                }
                ws()
                guard i < s.count else { throw Problem("malformed JSON: unterminated object") }
                if s[i] == "," { i += 1; continue }
                if s[i] == "}" { i += 1; return out }
                throw Problem("malformed JSON: expected ',' or '}'")
            }
        }

        mutating func end(_ out: [(String, JSONValue)]) throws(Problem) -> [(String, JSONValue)] {
            ws()
            guard i == s.count else { throw Problem("malformed JSON: text after the object") }
            return out
        }

        mutating func scalarOrArray(allowArray: Bool) throws(Problem) -> JSONValue {
            ws()
            guard i < s.count else { throw Problem("malformed JSON: missing value") }
            switch s[i] {
            case "\"": return .string(try string())
            case "[":
                guard allowArray else { throw Problem("malformed JSON: nested array") }
                i += 1
                var items: [JSONValue] = []
                ws()
                if i < s.count, s[i] == "]" { i += 1; return .array(items) }
                while true {
                    items.append(try scalarOrArray(allowArray: false))
                    ws()
                    guard i < s.count else { throw Problem("malformed JSON: unterminated array") }
                    if s[i] == "," { i += 1; continue }
                    if s[i] == "]" { i += 1; return .array(items) }
                    throw Problem("malformed JSON: expected ',' or ']'")
                }
            default:
                var word = ""
                while i < s.count, s[i] != ",", s[i] != "}", s[i] != "]", s[i] != " " {
                    word.unicodeScalars.append(s[i])
                    i += 1
                }
                switch word {
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "null": return .null
                default:
                    if let n = Int(word) { return .int(n) }
                    if let d = Double(word), d.isFinite { return .double(d) }
                    throw Problem("malformed JSON: unexpected \(quoted(word))")
                }
            }
        }

        mutating func string() throws(Problem) -> String {
            guard i < s.count, s[i] == "\"" else { throw Problem("malformed JSON: expected a string") }
            i += 1
            var out = ""
            while i < s.count {
                let c = s[i]
                i += 1
                if c == "\"" { return out }
                if c == "\\" {
                    guard i < s.count else { break }
                    let e = s[i]
                    i += 1
                    switch e {
                    case "n": out += "\n"
                    case "t": out += "\t"
                    case "\"", "\\", "/": out.unicodeScalars.append(e)
                    case "u":
                        guard i + 4 <= s.count, let v = UInt32(String(String.UnicodeScalarView(s[i..<(i + 4)])), radix: 16) else {
                            throw Problem("malformed JSON: bad \\u escape")
                        }
                        i += 4
                        out.unicodeScalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: throw Problem("malformed JSON: bad escape")
                    }
                } else {
                    out.unicodeScalars.append(c)
                }
            }
            throw Problem("malformed JSON: unterminated string")
        }
    }
}
