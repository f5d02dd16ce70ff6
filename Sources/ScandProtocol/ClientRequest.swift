import Foundation
import ScandCore

/// A request line from a socket client, gpsd style (`?WATCH={"enable":true};`, `?STATUS;`, `?ROI={…};`, …):
/// `line` is the one encoder (every client sends what it gives), `parse` the one decoder (the daemon's).
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
    /// The camera's controls, their ranges and values.
    case cameraControls
    /// Camera controls to set now, and to keep: a change of settings, for the admin group only.
    case setCameraControls(CameraControlChange)

    /// Whether the request changes the daemon's settings (allowed to the admin group only).
    public var changesSettings: Bool {
        switch self {
        case .setRegionOfInterest, .setCameraControls: true
        default: false
        }
    }

    /// The class of the line that answers this request (an ERROR may come instead).
    public var answerClass: Event.Class {
        switch self {
        case .watch: .watch
        case .status: .status
        case .version: .version
        case .snapshot: .snapshot
        case .metrics: .metrics
        case .regionOfInterest, .setRegionOfInterest: .regionOfInterest
        case .cameraControls, .setCameraControls: .cameraControls
        }
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

        /// The same test on a line as `EventDecoder` read it (a replay and a client have lines, not events):
        /// its class, and a code's format.
        public func accepts(_ event: ReceivedEvent) -> Bool {
            guard enable else { return false }
            if let classes, !classes.contains(event.eventClass) { return false }
            if let formats, let name = event.code?.formatName, let format = BarcodeFormat(name: name), !formats.contains(format) { return false }
            return true
        }

        /// The WATCH's JSON argument, keys in a fixed order: `enable`, `classes`, `formats`, `since`.
        var json: JSONValue { .object(fields) }

        /// Its fields, as a request's object and as the daemon's WATCH answer (`EventEncoder`) spell them.
        var fields: [(String, JSONValue)] {
            var fields: [(String, JSONValue)] = [("enable", .bool(enable))]
            if let classes { fields.append(("classes", .array(classes.sorted().map { .string($0.rawValue) }))) }
            if let formats { fields.append(("formats", .array(formats.members.map { .string($0.name) }))) }
            if let since { fields.append(("since", .object([("boot", .string(since.boot)), ("seq", .int(since.seq))]))) }
            return fields
        }
    }

    public typealias Problem = ScandCore.Problem

    /// Longest piece of a request an ERROR quotes: a hostile request must not make a reply larger than itself.
    public static let quoteLimit = 64
    /// Longest request line `parse` reads (the daemon's `max_request_bytes` may set a lower one).
    public static let maxLength = 1 << 20

    /// The text cut to `quoteLimit` characters, with "…" when it was longer, its control characters escaped: a
    /// JSON string in a request may carry a newline (`{"\nable":…}`), and an error is one line.
    static func shortened(_ text: some StringProtocol) -> String {
        (text.count > quoteLimit ? "\(text.prefix(quoteLimit))…" : String(text)).escapingControlCharacters()
    }

    static func quoted(_ text: some StringProtocol) -> String { "'\(shortened(text))'" }

    /// The request as a client sends it, without the newline: `?STATUS;`, `?WATCH={"enable":true};`, ….
    public var line: String {
        switch self {
        case .status: "?STATUS;"
        case .version: "?VERSION;"
        case .snapshot: "?SNAPSHOT;"
        case .metrics: "?METRICS;"
        case .regionOfInterest: "?ROI;"
        case .watch(let w): "?WATCH=" + w.json.serialized() + ";"
        case .setRegionOfInterest(let r):
            "?ROI="
                + JSONValue.object(zip(["x", "y", "w", "h"], r.onWireGrid).map { ($0.0, .number($0.1, places: NormalizedRect.wirePlaces)) })
                .serialized()
                + ";"
        case .cameraControls: "?CONTROLS;"
        case .setCameraControls(let change):
            "?CONTROLS="
                + JSONValue.object([("set", .array(change.settings.map { .object(EventEncoder.settingFields($0)) })), ("keep", .bool(change.keep))])
                .serialized() + ";"
        }
    }

    public static func parse(_ line: String, maxLength: Int = maxLength) throws(Problem) -> ClientRequest {
        guard line.utf8.count <= maxLength else { throw Problem("request longer than \(maxLength) bytes refused") }
        var text = line.trimmingCharacters(in: .whitespaces)
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
            let fields = try decode(RegionFields.self, from: rest.dropFirst()).values
            guard let x = fields["x"], let y = fields["y"], let w = fields["w"], let h = fields["h"] else {
                throw Problem("?ROI needs x, y, w and h (0…1 of the frame)")
            }
            do { return .setRegionOfInterest(try NormalizedRect(x: x, y: y, width: w, height: h)) } catch { throw Problem(error.description) }
        case "CONTROLS":
            if rest.isEmpty { return .cameraControls }
            guard rest.first == "=" else { throw Problem(#"expected ?CONTROLS={"set":[{"name":…,"value":…}],"keep":false}"#) }
            return .setCameraControls(try cameraControlChange(json: rest.dropFirst()))
        case "WATCH":
            if rest.isEmpty { return .watch(Watch(enable: true)) }
            guard rest.first == "=" else { throw Problem("expected ?WATCH={...}") }
            return .watch(try decode(WatchFields.self, from: rest.dropFirst()).watch)
        case "":
            throw Problem("empty request")
        default:
            throw Problem("unknown request \(quoted("?" + name)) (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?CONTROLS, ?METRICS)")
        }
    }

    /// The argument of `?CONTROLS=` alone (`{"set":[…],"keep":…}`), as a page posts it to scand web: read by
    /// the same decoder, so what scand web accepts is what the daemon reads.
    public static func cameraControlChange(json: some StringProtocol) throws(Problem) -> CameraControlChange {
        try decode(ControlFields.self, from: Substring(json)).change
    }

    /// One JSON object, by `JSONDecoder`: its errors become one short line that quotes no more than
    /// `quoteLimit` characters of the request.
    static func decode<T: Decodable>(_ type: T.Type, from json: Substring) throws(Problem) -> T {
        guard json.trimmingCharacters(in: .whitespaces).hasPrefix("{") else { throw Problem("malformed JSON: expected '{'") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch let problem as Problem {
            throw problem
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw Problem("\(quoted(context.codingPath.first?.stringValue ?? "?")) has the wrong type")
        } catch {
            throw Problem("malformed JSON: not one JSON object")
        }
    }

    /// Any key, so unknown ones are named in the refusal instead of ignored.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `{"x":…,"y":…,"w":…,"h":…}`.
    struct RegionFields: Decodable {
        var values: [String: Double] = [:]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            for key in c.allKeys {
                guard ["x", "y", "w", "h"].contains(key.stringValue) else {
                    throw Problem("unknown ROI field \(quoted(key.stringValue)) (known: x, y, w, h)")
                }
                guard let value = try? c.decode(Double.self, forKey: key) else { throw Problem("\(quoted(key.stringValue)) must be a number") }
                values[key.stringValue] = value
            }
        }
    }

    /// `{"enable":…,"classes":[…],"formats":[…],"since":{"boot":…,"seq":…}}`, each optional.
    struct WatchFields: Decodable {
        var watch = Watch(enable: true)

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            for key in c.allKeys {
                func value<T: Decodable>(_ type: T.Type) throws -> T {
                    do { return try c.decode(T.self, forKey: key) } catch { throw Problem("\(quoted(key.stringValue)) has the wrong type") }
                }
                switch key.stringValue {
                case "enable": watch.enable = try value(Bool.self)
                case "classes":
                    let usage = "classes must name event classes (\(Event.Class.watchable.map(\.rawValue).joined(separator: ", ")))"
                    guard let names = try? c.decode([String].self, forKey: key) else { throw Problem(usage) }
                    watch.classes = Set(
                        try names.map { name in
                            guard let c = Event.Class(rawValue: name.uppercased()), Event.Class.watchable.contains(c) else { throw Problem(usage) }
                            return c
                        })
                case "formats":
                    guard let names = try? c.decode([String].self, forKey: key) else { throw Problem("formats must be strings") }
                    do { watch.formats = try BarcodeFormats.parse(names.joined(separator: ",")) } catch {
                        throw Problem(FormatListError(item: shortened(error.item)).description)
                    }
                case "since":
                    let usage =
                        #"since must be {"boot":"<32 hex digits>","seq":N} with N from 1 to \#(EventPosition.maxSeq), from an event's boot and seq"#
                    guard let since = try? c.decode([String: SinceField].self, forKey: key), since.count == 2,
                        case .boot(let boot)? = since["boot"], case .seq(let seq)? = since["seq"], EventPosition.isBootID(boot),
                        EventPosition.isSeq(seq)
                    else { throw Problem(usage) }
                    watch.since = EventPosition(boot: boot, seq: seq)
                default:
                    throw Problem("unknown WATCH field \(quoted(key.stringValue)) (known: enable, classes, formats, since)")
                }
            }
        }
    }

    /// `{"set":[{"name":…,"value":…},…],"keep":…}`: `set` in the order to apply (automatic modes off first),
    /// each value an integer, true or false, or a menu item's name; `keep` optional (false).
    struct ControlFields: Decodable {
        var change = CameraControlChange(settings: [])

        struct Item: Decodable {
            var name: String
            var value: CameraControlValue

            init(from decoder: any Decoder) throws {
                let usage = #"each of set is {"name":"<control>","value":<integer, true or false, or a menu item's name>}"#
                let c = try decoder.container(keyedBy: AnyKey.self)
                guard Set(c.allKeys.map(\.stringValue)) == ["name", "value"],
                    let name = try? c.decode(String.self, forKey: AnyKey(stringValue: "name")),
                    !name.isEmpty, name.utf8.count <= ClientRequest.quoteLimit
                else { throw Problem(usage) }
                guard let value = CameraControlValue.read(c, "value") else { throw Problem(usage) }
                if case .text(let text) = value, text.utf8.count > ClientRequest.quoteLimit { throw Problem(usage) }
                self.name = name
                self.value = value
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            for key in c.allKeys {
                switch key.stringValue {
                case "set":
                    let items: [Item]
                    do { items = try c.decode([Item].self, forKey: key) } catch let problem as Problem { throw problem } catch {
                        throw Problem(#"set must be an array of {"name":…,"value":…}"#)
                    }
                    guard items.count <= CameraControlChange.maxSettings else {
                        throw Problem("set names \(items.count) controls; at most \(CameraControlChange.maxSettings) at once")
                    }
                    change.settings = items.map { CameraControlSetting(name: $0.name, value: $0.value) }
                case "keep":
                    guard let keep = try? c.decode(Bool.self, forKey: key) else { throw Problem("keep must be true or false") }
                    change.keep = keep
                default:
                    throw Problem("unknown CONTROLS field \(quoted(key.stringValue)) (known: set, keep)")
                }
            }
            guard !change.settings.isEmpty || change.keep else { throw Problem("?CONTROLS= needs set, keep or both") }
        }
    }

    /// Any key, read from a keyed container by its name.
    typealias Container = KeyedDecodingContainer<AnyKey>

    /// A value of `since`: the boot's string or the sequence number.
    enum SinceField: Decodable {
        case boot(String)
        case seq(Int)
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let seq = try? c.decode(Int.self) { self = .seq(seq) } else { self = .boot(try c.decode(String.self)) }
        }
    }
}

extension CameraControlValue {
    /// A control's value as `{"name":…,"value":…}` carries it both ways (`EventEncoder.settingFields`):
    /// true or false, an integer, or a menu item's name; nil for anything else.
    static func read(_ c: ClientRequest.Container, _ key: String) -> CameraControlValue? {
        let key = ClientRequest.AnyKey(stringValue: key)
        if let b = try? c.decode(Bool.self, forKey: key) { return .boolean(b) }
        if let n = try? c.decode(Int.self, forKey: key) { return .integer(n) }
        return (try? c.decode(String.self, forKey: key)).map { .text($0) }
    }
}
