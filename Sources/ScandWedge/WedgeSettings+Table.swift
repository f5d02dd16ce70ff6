import ScandCore

/// `[wedge]`, registered with the settings table: `scand wedge`'s (its unit reads /etc/scand/scand.toml).
extension WedgeSettings: SettingsSection {
    public static let name = "wedge"

    public static let introduction: String? =
        "`scand wedge` (scand-wedge.service reads this file) types each SCAN on a virtual keyboard (/dev/uinput), as a USB hand scanner in keyboard-wedge mode would (docs/wedge.md); `scand run` only checks this table. The options of `scand wedge` named below override these. Control characters in a code are never typed (they could be shortcuts): they are dropped, counted and logged."

    public static let settings: [Setting] = [
        .choice(
            in: Self.self, "layout", flag: "layout", value: "LAYOUT",
            help: "The kiosk session's keyboard layout: us, uk, de or fr (what the keys type there).",
            words:
                "The kiosk session's keyboard layout, which turns the keys into characters: \"us\", \"uk\" (or \"gb\"), \"de\" or \"fr\". A code with a character the layout cannot type is not typed at all (logged).",
            aliases: ["gb": .uk], \.layout),
        .text(
            in: Self.self, "prefix", flag: "prefix", help: "Typed before each code; empty: nothing.",
            words: "Typed before each code; \"\" = nothing.", { $0.prefix },
            { s, v in s.prefix = v }),
        .choice(
            in: Self.self, "suffix", flag: "suffix", value: "KEY", help: "The key pressed after each code: enter, tab or none.",
            words: "The key pressed after each code: \"enter\", \"tab\" or \"none\".", \.suffix),
        .text(
            in: Self.self, "gs_replacement", flag: "gs-replacement", help: "Typed for each GS (FNC1) separator of a GS1 code; empty: left out.",
            words: "Typed for each GS separator (FNC1) between the fields of a GS1 code; \"\" = left out.", { $0.gsReplacement },
            { s, v in s.gsReplacement = v }),
        .choice(
            in: Self.self, "digital_link", flag: "digital-link", value: "MODE",
            help: "How a GS1 Digital Link URI (a QR code's https://id.gs1.org/01/…) is typed: uri (as scanned) or element_string "
                + "(its GS1 element string, as from a GS1-128 code, for a till that reads those).",
            words:
                "A GS1 Digital Link URI (a QR code's https://id.gs1.org/01/09506000134352/10/ABC?17=270101, or a brand's own domain) typed \"uri\" (as scanned) or \"element_string\": its GS1 element string (0109506000134352 10ABC, GS, 17270101: AIs and values, a GS after each value of no predefined length), as a till reading GS1-128 codes expects it, its GS typed as gs_replacement says.",
            \.digitalLink),
        .integer(
            in: Self.self, "key_delay_ms", flag: "key-delay-ms", 0...1000, valueName: "MS",
            help: "Milliseconds after each key press and release, for applications that drop fast keys.",
            words: "Milliseconds after each key press and each key release, 0...1000, for applications that drop fast keys.",
            \.keyDelayMilliseconds),
        .formats(
            in: Self.self, help: "Formats of the codes typed, as a ?WATCH names them (e.g. ean13, code128; or all, linear, matrix).",
            words: "Formats of the codes typed, as a ?WATCH names them (e.g. [\"EAN-13\", \"Code128\"]; or all, linear, matrix).", \.formats),
        Setting(
            in: Self.self, key: "replay_max_age", flag: "replay-max-age", kind: .number, bounds: .seconds(0...86_400), valueName: "S",
            help: "Seconds: a scan replayed after a restart is typed only if it is younger; 0: every one.",
            words:
                "Seconds, 0...86400: a scan replayed after a restart of the wedge or the daemon is typed only if it is younger than this (an old scan would land in whatever the kiosk shows now); 0 = every one.",
            read: { SettingValue.number($0.replayMaxAge?.inSeconds ?? 0) },
            write: { s, v throws(Setting.Problem) in
                let seconds = try v.number()
                s.replayMaxAge = seconds == 0 ? nil : Duration(roundingSeconds: seconds)
            }),
        .text(
            in: Self.self, "device_name", help: "The virtual keyboard's name, as the input stack shows it.",
            words: "The virtual keyboard's name, as the input stack shows it (libinput list-devices), 1...79 bytes.",
            { $0.deviceName },
            { s, v throws(Setting.Problem) in
                guard !v.isEmpty, v.utf8.count <= WedgeSettings.deviceNameLimit else {
                    throw Setting.Problem("must be 1…\(WedgeSettings.deviceNameLimit) bytes, got \(v.utf8.count)")
                }
                s.deviceName = v
            }),
        .text(
            in: Self.self, "socket", flag: "socket", value: "PATH", help: "The daemon's socket; empty: [socket] path, else as scand watch finds it.",
            words: "The daemon's socket: an absolute path under 108 bytes; \"\" = [socket] path above.", { $0.socketPath },
            { s, v throws(Setting.Problem) in s.socketPath = try Setting.socketPath(.text(v)) }),
        .text(
            in: Self.self, "state_file", flag: "state-file", value: "PATH",
            help: "Where the last typed position is kept; empty: position.json in $STATE_DIRECTORY, else "
                + "/var/lib/scand-wedge/position.json for root, ~/.local/state/scand-wedge/position.json for a user.",
            words:
                "Where the position of the last SCAN typed is kept, to resume from without typing anything twice: an absolute path; \"\" = position.json in systemd's $STATE_DIRECTORY (/var/lib/scand-wedge), else /var/lib/scand-wedge/position.json for root and scand-wedge/position.json in $XDG_STATE_HOME (~/.local/state) for other users.",
            { $0.stateFile },
            { s, v throws(Setting.Problem) in
                s.stateFile = v.isEmpty ? "" : try Setting.absolutePath(.text(v), example: WedgeSettings.defaultStateFile)
            })
    ]
}
