/// The `[mqtt]` table of the configuration file: where `scand mqtt` publishes and how it proves who it
/// is. Only that table is read here (and `[socket] path` as the socket's default); the other tables are
/// `scand run`'s.
public struct MQTTSettings: Sendable, Equatable {
    public var host = "localhost"
    /// nil: 8883 with TLS (`ca_file` set), 1883 without.
    public var port: Int?
    /// The `<kiosk-id>` of the topics; nil: the host name.
    public var kioskID: String?
    public var username: String?
    /// A file holding the password (its first line), so the configuration file can stay world-readable.
    public var passwordFile: String?
    public var caFile: String?
    public var certFile: String?
    public var keyFile: String?
    /// Where the last acknowledged position is kept (StateDirectory= of scand-mqtt.service).
    public var stateFile = "/var/lib/scand-mqtt/position.json"
    public var socketPath = "/run/scand/scand.sock"
    public var keepalive = 30
    public var maxInFlight = 1000
    /// Where a bridge without a state file starts: everything the daemon's journal keeps, or from now.
    public var start = Start.all

    public enum Start: String, Sendable, Equatable, CaseIterable {
        /// Every event the journal keeps, then live.
        case all
        /// Live from the first event taken.
        case now
    }

    public init() {}

    public var usesTLS: Bool { caFile != nil }
    public var effectivePort: Int { port ?? (usesTLS ? 8883 : 1883) }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    static let keys: Set<String> = [
        "host", "port", "kiosk_id", "username", "password_file", "ca_file", "cert_file", "key_file",
        "state_file", "socket", "keepalive", "max_in_flight", "start"
    ]

    /// A kiosk id is one topic level: letters, digits, `.`, `_`, `-`, at most 64 (no `/`, `+`, `#`).
    public static func isValidKioskID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F
            }
    }

    public func applying(toml text: String) throws(Problem) -> MQTTSettings {
        let doc: TOML.Document
        do { doc = try TOML.parse(text) } catch { throw Problem(line: error.line, message: error.message) }
        var s = self
        if case .string(let path)? = doc.tables["socket"]?["path"]?.value { s.socketPath = path }
        let table = doc.tables["mqtt"] ?? [:]
        for (key, entry) in table.sorted(by: { $0.value.line < $1.value.line }) where !Self.keys.contains(key) {
            throw Problem(line: entry.line, message: "unknown key '\(key)' in [mqtt] (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(Problem) -> (String, Int)? {
            guard let e = table[key] else { return nil }
            guard case .string(let v) = e.value else { throw Problem(line: e.line, message: "\(key) must be a string, not \(e.value.typeName)") }
            guard !v.isEmpty else { throw Problem(line: e.line, message: "\(key) is empty (leave it out for the default)") }
            return (v, e.line)
        }
        func int(_ key: String, _ range: ClosedRange<Int>) throws(Problem) -> Int? {
            guard let e = table[key] else { return nil }
            guard case .integer(let v) = e.value else { throw Problem(line: e.line, message: "\(key) must be an integer, not \(e.value.typeName)") }
            guard range.contains(v) else { throw Problem(line: e.line, message: "\(key) must be \(range.lowerBound)…\(range.upperBound)") }
            return v
        }
        if let (v, _) = try string("host") { s.host = v }
        if let v = try int("port", 1...65535) { s.port = v }
        if let (v, line) = try string("kiosk_id") {
            guard Self.isValidKioskID(v) else {
                throw Problem(line: line, message: "kiosk_id must be 1…64 letters, digits, '.', '_' or '-' (it is one level of the topics)")
            }
            s.kioskID = v
        }
        if let (v, _) = try string("username") { s.username = v }
        if let (v, _) = try string("password_file") { s.passwordFile = v }
        if let (v, _) = try string("ca_file") { s.caFile = v }
        if let (v, _) = try string("cert_file") { s.certFile = v }
        if let (v, _) = try string("key_file") { s.keyFile = v }
        if let (v, _) = try string("state_file") { s.stateFile = v }
        if let (v, line) = try string("socket") {
            guard v.hasPrefix("/"), v.utf8.count < 108 else { throw Problem(line: line, message: "socket must be absolute and under 108 bytes") }
            s.socketPath = v
        }
        if let v = try int("keepalive", 5...3600) { s.keepalive = v }
        // MQTT packet ids are 16 bits: at most 65535 messages can await their PUBACK at once.
        if let v = try int("max_in_flight", 2...65535) { s.maxInFlight = v }
        if let (v, line) = try string("start") {
            guard let start = Start(rawValue: v) else {
                throw Problem(line: line, message: "start must be \"all\" or \"now\", not \"\(v.escapingControlCharacters())\"")
            }
            s.start = start
        }
        try s.validate(line: table["cert_file"]?.line ?? table["key_file"]?.line ?? 0)
        return s
    }

    /// What no single key can check: a client certificate needs its key, and both need TLS.
    public func validate(line: Int = 0) throws(Problem) {
        if (certFile == nil) != (keyFile == nil) {
            throw Problem(line: line, message: "cert_file and key_file go together (the client certificate and its private key)")
        }
        if certFile != nil && caFile == nil {
            throw Problem(line: line, message: "a client certificate needs TLS: set ca_file to the CA that signed the broker's certificate")
        }
        if passwordFile != nil && username == nil {
            throw Problem(line: line, message: "password_file needs username")
        }
    }
}
