import ScandCore

/// The `[mqtt]` table of the configuration file (its rows in MQTTSettings+Table.swift, registered with the
/// settings table as every feature's are): where `scand mqtt` publishes and how it proves who it is.
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
    /// Where the last acknowledged position is kept; "" in a file: position.json in systemd's
    /// $STATE_DIRECTORY (StateDirectory= of scand-mqtt.service), else `defaultStateFile`.
    public var stateFile = ""
    /// The daemon's socket; "" in a file: the file's `[socket] path`, else as `scand watch` finds it.
    public var socketPath = ""
    public var keepalive = 30
    public var maxInFlight = 1000
    /// Where a bridge without a state file starts: everything the daemon's journal keeps, or from now.
    public var start = Start.all
    /// The event classes published (names of `publishableClasses`), asked of the daemon in the WATCH: the
    /// scans by default, as a hand scanner sends them; UPDATE and STATS are a camera's chatter.
    public var classes: Set<String> = ["SCAN"]
    /// The formats of the SCAN, UPDATE and LOST events published; nil: all.
    public var formats: BarcodeFormats?
    /// The topics' first levels: `<prefix>/<kiosk-id>/events/<class>` and `<prefix>/<kiosk-id>/status`.
    public var topicPrefix = "scand"

    public enum Start: String, Sendable, Equatable, CaseIterable {
        /// Every event the journal keeps, then live.
        case all
        /// Live from the first event taken.
        case now
    }

    public init() {}

    public static let defaultStateFile = "/var/lib/scand-mqtt/position.json"

    /// The classes the daemon numbers and journals (so `since` gets them again after an outage): what a
    /// bridge can publish without losing any.
    public static let publishableClasses = ["DEVICE", "JOURNAL", "LOST", "SCAN", "STATS", "UPDATE"]

    /// The longest topic after the prefix: `/`, a kiosk id of 64 bytes, `/events/journal`.
    static let longestTopicSuffix = 1 + 64 + "/events/journal".utf8.count
    /// An MQTT topic is at most 65535 bytes of UTF-8.
    public static let topicPrefixLimit = 65535 - longestTopicSuffix

    /// A topic prefix as MQTT allows it in a PUBLISH, with trailing slashes dropped (`scand/` is `scand`).
    public static func topicPrefix(_ text: String) throws(Problem) -> String {
        var prefix = text
        // By bytes, as everything here: `/` is one byte, so what stays is whole UTF-8.
        while prefix.utf8.last == 0x2F { prefix = String(decoding: prefix.utf8.dropLast(), as: UTF8.self) }
        let shown = String(prefix.prefix(64)).escapingControlCharacters()
        guard !prefix.isEmpty else {
            throw Problem(description: "must be one topic level or more (e.g. scand, or site/berlin/scand), got '\(text)'")
        }
        // Wildcards belong to subscriptions, `$` topics to the broker ($SYS); NUL is no topic's (MQTT 3.1.1,
        // 4.7), nor are other controls here. Checked on the bytes a broker sees: as Characters, `$` or `+`
        // followed by a combining mark is another character and passed.
        guard !prefix.utf8.contains(where: { $0 == 0x2B || $0 == 0x23 }) else {
            throw Problem(description: "must not hold the wildcards + or #, got '\(shown)'")
        }
        guard prefix.utf8.first != 0x24 else { throw Problem(description: "must not start with $ (the broker's own topics), got '\(shown)'") }
        guard !prefix.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw Problem(description: "must hold no control characters, got '\(shown)'")
        }
        guard prefix.utf8.count <= topicPrefixLimit else {
            throw Problem(description: "must be at most \(topicPrefixLimit) bytes (a topic is at most 65535), got \(prefix.utf8.count)")
        }
        return String(prefix)
    }

    public var usesTLS: Bool { caFile != nil }
    public var effectivePort: Int { port ?? (usesTLS ? 8883 : 1883) }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// A kiosk id is one topic level: letters, digits, `.`, `_`, `-`, at most 64 (no `/`, `+`, `#`).
    public static func isValidKioskID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x2E || $0 == 0x5F
            }
    }

    /// What no single key can check: a client certificate needs its key, and both need TLS.
    public func validate() throws(Problem) {
        if (certFile == nil) != (keyFile == nil) {
            throw Problem(description: "cert_file and key_file go together (the client certificate and its private key)")
        }
        if certFile != nil && caFile == nil {
            throw Problem(description: "a client certificate needs TLS: set ca_file to the CA that signed the broker's certificate")
        }
        if passwordFile != nil && username == nil {
            throw Problem(description: "password_file needs username")
        }
    }
}
