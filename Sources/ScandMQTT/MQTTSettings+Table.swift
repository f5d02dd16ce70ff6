import ScandCore

/// `[mqtt]`, registered with the settings table: `scand mqtt`'s (its unit reads /etc/scand/scand.toml).
extension MQTTSettings: SettingsSection {
    public static let name = "mqtt"

    public static let introduction: String? =
        "`scand mqtt` (scand-mqtt.service reads this file) publishes the daemon's events to an MQTT broker (docs/fleet.md); `scand run` only checks this table. The options of `scand mqtt` named below override these. An empty string is the default the comment names."

    public static let settings: [Setting] = [
        .text(
            in: Self.self, "host", flag: "host", value: "HOST", help: "The broker's host name or address.",
            words: "The broker's host name or address.", { $0.host },
            { s, v throws(Setting.Problem) in
                guard !v.isEmpty, !v.contains(" ") else { throw Setting.Problem("must be a host name or address, got '\(v.prefix(64))'") }
                s.host = v
            }),
        Setting(
            in: Self.self, key: "port", flag: "port", kind: .integer, bounds: .integers(0...65535), valueName: "N",
            help: "The broker's port; 0: 8883 with TLS (ca_file), 1883 without.",
            words: "The broker's port, 0...65535; 0 = 8883 with TLS (ca_file set), 1883 without.",
            read: { SettingValue.integer($0.port ?? 0) },
            write: { s, v throws(Setting.Problem) in
                let port = try v.integer()
                s.port = port == 0 ? nil : port
            }),
        .text(
            in: Self.self, "kiosk_id", flag: "kiosk-id", value: "ID", help: "This kiosk's level in the topics; empty: the host name.",
            words: "This kiosk's level in the topics scand/<kiosk-id>/...: 1...64 letters, digits, '.', '_' or '-'; \"\" = the host name.",
            { $0.kioskID ?? "" },
            { s, v throws(Setting.Problem) in
                guard v.isEmpty || MQTTSettings.isValidKioskID(v) else {
                    throw Setting.Problem("must be 1…64 letters, digits, '.', '_' or '-' (it is one level of the topics), got '\(v.prefix(64))'")
                }
                s.kioskID = v.isEmpty ? nil : v
            }),
        .text(
            in: Self.self, "username", help: "The user name the broker knows this kiosk by; empty: none.",
            words: "The user name the broker knows this kiosk by; \"\" = none.",
            { $0.username ?? "" }, { s, v in s.username = v.isEmpty ? nil : v }),
        file(
            "password_file", "A file whose first line is the password (needs username); empty: none.",
            "A file whose first line is the password (needs username), so that this file can stay world-readable; an absolute path, \"\" = none.",
            \.passwordFile),
        file(
            "ca_file", "The CA that signed the broker's certificate: TLS on; empty: plain MQTT.",
            "The CA that signed the broker's certificate: set, the bridge speaks TLS; an absolute path, \"\" = plain MQTT.", \.caFile),
        file(
            "cert_file", "This kiosk's client certificate (with key_file and ca_file); empty: none.",
            "This kiosk's client certificate and its private key (both or neither; they need ca_file); \"\" = none.", \.certFile),
        file("key_file", "The client certificate's private key; empty: none.", "The client certificate's private key; \"\" = none.", \.keyFile),
        .text(
            in: Self.self, "state_file", flag: "state-file", value: "PATH",
            help: "Where the last acknowledged position is kept; empty: position.json in $STATE_DIRECTORY, else "
                + "/var/lib/scand-mqtt/position.json for root, ~/.local/state/scand-mqtt/position.json for a user.",
            words:
                "Where the last position the broker acknowledged is kept, to resume from after any outage: an absolute path; \"\" = position.json in systemd's $STATE_DIRECTORY (/var/lib/scand-mqtt), else /var/lib/scand-mqtt/position.json for root and scand-mqtt/position.json in $XDG_STATE_HOME (~/.local/state) for other users.",
            { $0.stateFile },
            { s, v throws(Setting.Problem) in
                s.stateFile = v.isEmpty ? "" : try Setting.absolutePath(.text(v), example: MQTTSettings.defaultStateFile)
            }),
        .text(
            in: Self.self, "socket", flag: "socket", value: "PATH", help: "The daemon's socket; empty: [socket] path, else as scand watch finds it.",
            words: "The daemon's socket: an absolute path under 108 bytes; \"\" = [socket] path above.", { $0.socketPath },
            { s, v throws(Setting.Problem) in s.socketPath = try Setting.socketPath(.text(v)) }),
        .integer(
            in: Self.self, "keepalive", 5...3600, help: "Seconds between MQTT keepalive pings.",
            words: "Seconds between MQTT keepalive pings, 5...3600.", \.keepalive),
        .integer(
            in: Self.self, "max_in_flight", 2...65535,
            help: "Publications awaiting the broker's acknowledgement at once (MQTT packet ids are 16 bits).",
            words: "Events published and not yet acknowledged by the broker at once, 2...65535 (MQTT packet ids are 16 bits).", \.maxInFlight),
        .choice(
            in: Self.self, "start", flag: nil, value: "TEXT",
            help: "Where a bridge without a state file starts: all (everything the journal keeps, then live) or now.",
            words:
                "Where a bridge without a state file starts: \"all\" (everything the daemon's journal keeps, then live) or \"now\" (live from the first event it takes).",
            \.start),
        Setting(
            in: Self.self, key: "classes", flag: "classes", kind: .texts, valueName: "LIST",
            help: "The event classes published (\(MQTTSettings.publishableClasses.joined(separator: ", ")), or all).",
            words: "The event classes published, of DEVICE, JOURNAL, LOST, SCAN, STATS and UPDATE (those the journal keeps), or [\"all\"].",
            read: { s in SettingValue.texts(s.classes.count == MQTTSettings.publishableClasses.count ? ["all"] : s.classes.sorted()) },
            write: { s, v throws(Setting.Problem) in
                let names = try v.texts().map { $0.uppercased() }
                let known = MQTTSettings.publishableClasses
                guard !names.isEmpty, names.allSatisfy({ $0 == "ALL" || known.contains($0) }) else {
                    throw Setting.Problem(
                        "must be event classes the journal keeps (\(known.joined(separator: ", "))) or all, got \(v.commandLineText.escapingControlCharacters().prefix(64))"
                    )
                }
                s.classes = names.contains("ALL") ? Set(known) : Set(names)
            }),
        .formats(
            in: Self.self,
            help: "Formats of the SCAN, UPDATE and LOST events published, as a ?WATCH names them (e.g. ean13, qr; or all, linear, matrix).",
            words:
                "Formats of the SCAN, UPDATE and LOST events published, as a ?WATCH names them (e.g. [\"EAN-13\", \"QRCode\"]; or all, linear, matrix).",
            \.formats),
        .text(
            in: Self.self, "topic_prefix", flag: "topic-prefix", value: "PREFIX",
            help: "The topics' first levels: <prefix>/<kiosk-id>/events/<class> and <prefix>/<kiosk-id>/status.",
            words: "The topics' first levels: <prefix>/<kiosk-id>/events/<class> and <prefix>/<kiosk-id>/status.",
            { $0.topicPrefix },
            { s, v throws(Setting.Problem) in
                do throws(MQTTSettings.Problem) { s.topicPrefix = try MQTTSettings.topicPrefix(v) } catch { throw Setting.Problem(error.description) }
            })
    ]

    /// A file: an absolute path, or empty for none.
    private static func file(_ key: String, _ help: String, _ words: String, _ path: WritableKeyPath<MQTTSettings, String?> & Sendable) -> Setting {
        .text(in: Self.self, key, value: "PATH", help: help, words: words, { $0[keyPath: path] ?? "" }) { s, v throws(Setting.Problem) in
            s[keyPath: path] = v.isEmpty ? nil : try Setting.absolutePath(.text(v), example: "/etc/scand/" + key.prefix { $0 != "_" })
        }
    }
}
