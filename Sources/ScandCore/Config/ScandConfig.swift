/// Every setting of the daemon, with its default. Precedence: command line > configuration file > these
/// defaults. `config/scand.toml` documents each one.
public struct ScandConfig: Sendable, Equatable {
    // [camera]
    public var device = "/dev/video0"
    public var width = 1280
    public var height = 720
    /// nil: the camera's highest rate at that size.
    public var framesPerSecond: Int?
    public var transform = FrameTransform.identity
    public var frameTimeoutMilliseconds = 3000
    // [decoding]
    public var formats = BarcodeFormats.all
    public var regionOfInterest = NormalizedRect.full
    /// ITF payload lengths to accept; empty: any. ITF has no checksum of its own, and a tilted ITF code also
    /// reads as shorter pieces of itself ("000000" from "00000010000686"), so the default is ITF-14 only, the
    /// cartons' GTIN-14, as hand scanners default (Zebra's "I 2 of 5 length 14").
    public var itfLengths: Set<Int> = [14]
    // [tracking]
    public var tracker = TrackerSettings()
    // [socket]
    public var socketPath = "/run/scand/scand.sock"
    /// Group of the socket file when scand creates it (socket activation sets its own); "" keeps the default.
    public var socketGroup = ""
    public var maxClients = 64
    /// Events waiting for one client before it counts as stalled and is disconnected.
    public var clientQueueLimit = 256
    public var maxRequestBytes = 4096
    /// A connection that has sent no request this long after connecting is closed (it holds a slot).
    public var requestTimeout: Duration = .seconds(5)
    /// Connections one user (the peer's uid) may hold at once, so one broken application cannot take every slot.
    public var maxClientsPerUID = 32

    public init() {}

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Applies a configuration file on top of this configuration. Unknown tables and keys, wrong types
    /// and out-of-range values are refused with their line: a typo must not silently fall back.
    /// The bytes of a configuration file (UTF-8, LF or CRLF line ends, no byte-order mark) applied on top
    /// of this configuration. `groupExists` says whether a `[socket] group` names a group of this system.
    public func applying(file bytes: [UInt8], groupExists: (String) -> Bool = { _ in true }) throws(Problem) -> ScandConfig {
        let text: String
        do { text = try TOML.decode(bytes) } catch { throw Problem(line: error.line, message: error.message) }
        return try applying(toml: text, groupExists: groupExists)
    }

    public func applying(toml text: String, groupExists: (String) -> Bool = { _ in true }) throws(Problem) -> ScandConfig {
        let doc: TOML.Document
        do { doc = try TOML.parse(text) } catch { throw Problem(line: error.line, message: error.message) }
        var c = self
        let known: [String: Set<String>] = [
            "": [],
            "camera": ["device", "size", "fps", "rotation", "mirror", "frame_timeout_ms"],
            "decoding": ["formats", "roi", "itf_lengths"],
            "tracking": ["lost_after", "forget_after", "update_interval", "confirm"],
            "socket": ["path", "group", "max_clients", "max_clients_per_uid", "queue_limit", "max_request_bytes", "request_timeout"],
        ]
        for (table, entries) in doc.tables {
            guard let keys = known[table] else {
                throw Problem(line: doc.tableLines[table] ?? 0, message: "unknown table [\(table)] (known: camera, decoding, tracking, socket)")
            }
            for (key, entry) in entries where !keys.contains(key) {
                let place = table.isEmpty ? "outside any table" : "in [\(table)]"
                throw Problem(line: entry.line, message: "unknown key '\(key)' \(place)")
            }
        }
        var r = Reader(doc: doc)
        if let v = try r.string("camera", "device") { c.device = v.0.isEmpty ? c.device : v.0 }
        if let (size, line) = try r.string("camera", "size") {
            guard let (w, h) = ScandConfig.parseSize(size) else { throw Problem(line: line, message: "size must be WIDTHxHEIGHT, e.g. 1280x720") }
            c.width = w
            c.height = h
        }
        if let (fps, line) = try r.int("camera", "fps") {
            guard (0...1000).contains(fps) else { throw Problem(line: line, message: "fps must be 0 (the camera's highest) to 1000") }
            c.framesPerSecond = fps == 0 ? nil : fps
        }
        if let (deg, line) = try r.int("camera", "rotation") {
            guard let rotation = FrameTransform.Rotation(rawValue: deg) else { throw Problem(line: line, message: "rotation must be 0, 90, 180 or 270") }
            c.transform.rotation = rotation
        }
        if let (m, _) = try r.bool("camera", "mirror") { c.transform.mirrored = m }
        if let (ms, line) = try r.int("camera", "frame_timeout_ms") {
            guard (100...600_000).contains(ms) else { throw Problem(line: line, message: "frame_timeout_ms must be 100…600000") }
            c.frameTimeoutMilliseconds = ms
        }
        if let (list, line) = try r.strings("decoding", "formats") {
            do { c.formats = try BarcodeFormats.parse(list.joined(separator: ",")) } catch { throw Problem(line: line, message: error.description) }
        }
        if let (numbers, line) = try r.numbers("decoding", "roi") {
            guard numbers.count == 4 else { throw Problem(line: line, message: "roi must be [x, y, w, h]") }
            do { c.regionOfInterest = try NormalizedRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) } catch {
                throw Problem(line: line, message: error.description)
            }
        }
        if let (numbers, line) = try r.numbers("decoding", "itf_lengths") {
            let lengths = numbers.compactMap { Int(exactly: $0) }
            guard lengths.count == numbers.count, lengths.allSatisfy({ (2...80).contains($0) && $0 % 2 == 0 }) else {
                throw Problem(line: line, message: "itf_lengths must be even whole numbers 2…80 (ITF encodes digits in pairs), or [] for any")
            }
            c.itfLengths = Set(lengths)
        }
        for (key, apply) in [("lost_after", { (d: Duration) in c.tracker.lostAfter = d }), ("forget_after", { c.tracker.forgetAfter = $0 })] {
            if let (s, line) = try r.number("tracking", key) {
                guard (0...3600).contains(s) else { throw Problem(line: line, message: "\(key) must be 0…3600 seconds") }
                apply(.milliseconds(Int(s * 1000)))
            }
        }
        if let (s, line) = try r.number("tracking", "update_interval") {
            guard (0...3600).contains(s) else { throw Problem(line: line, message: "update_interval must be 0 (none) to 3600 seconds") }
            c.tracker.updateInterval = s == 0 ? nil : .milliseconds(Int(s * 1000))
        }
        if let (items, line) = try r.strings("tracking", "confirm") {
            for item in items {
                do { try c.tracker.setConfirmation(item) } catch { throw Problem(line: line, message: error.description) }
            }
        }
        if let (p, line) = try r.string("socket", "path") {
            guard p.hasPrefix("/"), p.utf8.count < 108 else { throw Problem(line: line, message: "path must be absolute and under 108 bytes") }
            c.socketPath = p
        }
        if let (g, line) = try r.string("socket", "group") {
            guard g.isEmpty || groupExists(g) else {
                throw Problem(line: line, message: "group '\(g)' does not exist (create it with groupadd, or set group = \"\")")
            }
            c.socketGroup = g
        }
        if let (s, line) = try r.number("socket", "request_timeout") {
            guard (0.1...3600).contains(s) else { throw Problem(line: line, message: "request_timeout must be 0.1…3600 seconds") }
            c.requestTimeout = .milliseconds(Int(s * 1000))
        }
        for (key, range, apply) in [("max_clients", 1...10_000, { (n: Int) in c.maxClients = n }),
                                    ("max_clients_per_uid", 1...10_000, { c.maxClientsPerUID = $0 }),
                                    ("queue_limit", 1...100_000, { c.clientQueueLimit = $0 }),
                                    ("max_request_bytes", 64...1_048_576, { c.maxRequestBytes = $0 })] {
            if let (n, line) = try r.int("socket", key) {
                guard range.contains(n) else { throw Problem(line: line, message: "\(key) must be \(range.lowerBound)…\(range.upperBound)") }
                apply(n)
            }
        }
        return c
    }

    /// What about the camera differs from `old` ("size 1280x720 → 640x480", …): empty when a reload can keep
    /// capture running and only change how frames are decoded and tracked.
    public func cameraChanges(from old: ScandConfig) -> [String] {
        func fps(_ f: Int?) -> String { f.map(String.init) ?? "highest" }
        var changes: [String] = []
        if device != old.device { changes.append("device \(old.device) → \(device)") }
        if (width, height) != (old.width, old.height) { changes.append("size \(old.width)x\(old.height) → \(width)x\(height)") }
        if framesPerSecond != old.framesPerSecond { changes.append("fps \(fps(old.framesPerSecond)) → \(fps(framesPerSecond))") }
        if frameTimeoutMilliseconds != old.frameTimeoutMilliseconds {
            changes.append("frame_timeout_ms \(old.frameTimeoutMilliseconds) → \(frameTimeoutMilliseconds)")
        }
        return changes
    }

    public static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (16...8192).contains(w), (16...8192).contains(h) else { return nil }
        return (w, h)
    }

    /// Typed access to the parsed document, with the line of each value for errors.
    struct Reader {
        let doc: TOML.Document

        func entry(_ table: String, _ key: String) -> TOML.Entry? { doc.tables[table]?[key] }

        func wrongType(_ e: TOML.Entry, _ key: String, _ expected: String) -> Problem {
            Problem(line: e.line, message: "\(key) must be \(expected), not \(e.value.typeName)")
        }

        mutating func string(_ t: String, _ k: String) throws(Problem) -> (String, Int)? {
            guard let e = entry(t, k) else { return nil }
            guard case .string(let s) = e.value else { throw wrongType(e, k, "a string") }
            return (s, e.line)
        }

        mutating func int(_ t: String, _ k: String) throws(Problem) -> (Int, Int)? {
            guard let e = entry(t, k) else { return nil }
            guard case .integer(let n) = e.value else { throw wrongType(e, k, "an integer") }
            return (n, e.line)
        }

        mutating func bool(_ t: String, _ k: String) throws(Problem) -> (Bool, Int)? {
            guard let e = entry(t, k) else { return nil }
            guard case .boolean(let b) = e.value else { throw wrongType(e, k, "true or false") }
            return (b, e.line)
        }

        mutating func number(_ t: String, _ k: String) throws(Problem) -> (Double, Int)? {
            guard let e = entry(t, k) else { return nil }
            switch e.value {
            case .integer(let n): return (Double(n), e.line)
            case .float(let d): return (d, e.line)
            default: throw wrongType(e, k, "a number")
            }
        }

        mutating func numbers(_ t: String, _ k: String) throws(Problem) -> ([Double], Int)? {
            guard let e = entry(t, k) else { return nil }
            guard case .array(let items) = e.value else { throw wrongType(e, k, "an array of numbers") }
            var out: [Double] = []
            for item in items {
                switch item {
                case .integer(let n): out.append(Double(n))
                case .float(let d): out.append(d)
                default: throw wrongType(e, k, "an array of numbers")
                }
            }
            return (out, e.line)
        }

        mutating func strings(_ t: String, _ k: String) throws(Problem) -> ([String], Int)? {
            guard let e = entry(t, k) else { return nil }
            guard case .array(let items) = e.value else { throw wrongType(e, k, "an array of strings") }
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item else { throw wrongType(e, k, "an array of strings") }
                out.append(s)
            }
            return (out, e.line)
        }
    }
}

public struct ConfirmationError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

extension TrackerSettings {
    /// "FORMAT=N": agreeing reads needed before SCAN for that format.
    public mutating func setConfirmation(_ item: String) throws(ConfirmationError) {
        let kv = item.split(separator: "=")
        guard kv.count == 2, let f = BarcodeFormat(name: String(kv[0])), let n = Int(kv[1]), (1...30).contains(n) else {
            throw ConfirmationError(description: "confirmation must be FORMAT=N with N in 1…30; got '\(item)'")
        }
        confirmations[f] = n
    }
}
