extension Setting {
    /// Every setting, once: `scand run`'s and the tables of `scand web`, `scand mqtt` and `scand wedge`. The
    /// configuration file (`ScandConfig.applying(toml:)`), each command's options (`CommandLineSettings`) and
    /// their `--help` all read this list; config/scand.toml, scand.toml(5) and docs/daemon.md document it
    /// (tests check that they name every entry; SettingsReference writes the first two).
    public static let all: [Setting] = [
        Setting(
            section: "camera", key: "device", flag: "device", kind: .text, valueName: "PATH",
            help: "Camera: /dev/videoN or a /dev/v4l/by-id/… name.",
            read: { .text($0.device) },
            write: { c, v, _ throws(Problem) in c.device = try absolutePath(v, example: "/dev/video0") }),
        Setting(
            section: "camera", key: "size", flag: "size", kind: .text, valueName: "WxH",
            help: "Capture size WIDTHxHEIGHT.",
            read: { .text("\($0.width)x\($0.height)") },
            write: { c, v, _ throws(Problem) in
                let text = try v.text()
                guard let (w, h) = ScandConfig.parseSize(text) else {
                    throw Problem("must be WIDTHxHEIGHT with each 16…8192, e.g. 1280x720, got '\(text)'")
                }
                (c.width, c.height) = (w, h)
            }),
        Setting(
            section: "camera", key: "fps", flag: "fps", kind: .integer, bounds: .integers(0...1000), valueName: "N",
            help: "Frame rate; 0: the camera's highest at that size.",
            read: { .integer($0.framesPerSecond ?? 0) },
            // 0 stays valid on both sides: installed configuration files say `fps = 0`, and on the command
            // line it takes a file's rate back to the camera's highest.
            write: { c, v, _ throws(Problem) in
                let fps = try v.integer()
                c.framesPerSecond = fps == 0 ? nil : fps
            }),
        Setting(
            section: "camera", key: "rotation", flag: "rotate", kind: .integer,
            bounds: .choices(FrameTransform.Rotation.allCases.map(\.rawValue)), valueName: "DEGREES",
            help: "Rotate frames clockwise by 0, 90, 180 or 270 degrees before decoding.",
            read: { .integer($0.transform.rotation.rawValue) },
            write: { c, v, _ throws(Problem) in
                c.transform.rotation = FrameTransform.Rotation(rawValue: try v.integer()) ?? .none
            }),
        Setting(
            section: "camera", key: "mirror", flag: "mirror", kind: .boolean, valueName: "",
            help: "Mirror frames horizontally (front-facing cameras).",
            read: { .boolean($0.transform.mirrored) },
            write: { c, v, _ throws(Problem) in c.transform.mirrored = try v.boolean() }),
        .integer(
            "camera", "frame_timeout_ms", flag: "frame-timeout", 100...600_000, valueName: "MS",
            help: "Milliseconds without a frame before the camera counts as lost.", \.frameTimeoutMilliseconds),
        Setting(
            section: "camera", key: "pixel_format", flag: "pixel-format", kind: .text, valueName: "FOURCC|auto",
            help: "Pixel format to capture in (YUYV, MJPG, GREY, NV12, …); auto: raw when the camera sends the size at its rate so, else MJPEG.",
            read: { .text($0.pixelFormat?.description ?? "auto") },
            write: { c, v, _ throws(Problem) in
                let text = try v.text()
                if text == "auto" { c.pixelFormat = nil; return }
                let fourcc = FourCC(text.uppercased())
                guard text.utf8.count <= 4, fourcc.isCompressed || FourCC.preferred.contains(fourcc) else {
                    let known = ([FourCC.mjpeg] + FourCC.preferred).map(\.description).joined(separator: ", ")
                    throw Problem("must be auto or one of \(known), got '\(text)'")
                }
                c.pixelFormat = fourcc
            }),

        Setting(
            section: "decoding", key: "formats", flag: "formats", kind: .texts, valueName: "LIST",
            help: "Formats to look for (e.g. qr,ean13; or all, linear, matrix).",
            read: { .texts($0.formats == .all ? ["all"] : $0.formats.members.map(\.name)) },
            write: { c, v, _ throws(Problem) in
                let names = try v.texts()
                guard !names.isEmpty else { throw Problem("must name at least one format (or all, linear, matrix)") }
                do throws(FormatListError) { c.formats = try BarcodeFormats.parse(names.joined(separator: ",")) } catch {
                    throw Problem("lists an \(error)")
                }
            }),
        Setting(
            section: "decoding", key: "roi", flag: "roi", kind: .numbers, valueName: "X,Y,W,H",
            help: "Rect of interest x,y,w,h in 0…1 of the oriented frame.",
            read: { .numbers([$0.regionOfInterest.x, $0.regionOfInterest.y, $0.regionOfInterest.width, $0.regionOfInterest.height]) },
            write: { c, v, _ throws(Problem) in
                let n = try v.numbers()
                guard n.count == 4 else { throw Problem("must be four numbers x, y, w, h, got \(n.count)") }
                do throws(RectError) { c.regionOfInterest = try NormalizedRect(x: n[0], y: n[1], width: n[2], height: n[3]) } catch {
                    throw Problem("must be a rect inside the frame: \(error.reason)")
                }
            }),
        Setting(
            section: "decoding", key: "itf_lengths", flag: nil, kind: .numbers, valueName: "LIST",
            help: "ITF payload lengths to accept; empty: any.",
            read: { .numbers($0.itfLengths.sorted().map(Double.init)) },
            write: { c, v, _ throws(Problem) in
                let numbers = try v.numbers()
                let lengths = numbers.compactMap { Int(exactly: $0) }
                guard lengths.count == numbers.count, lengths.allSatisfy({ (2...80).contains($0) && $0 % 2 == 0 }) else {
                    throw Problem("must be even whole numbers 2…80 (ITF encodes digits in pairs), or empty for any, got \(v.commandLineText)")
                }
                c.itfLengths = Set(lengths)
            }),

        .seconds(
            "tracking", "lost_after", flag: "lost-after", 0...3600,
            help: "Seconds without a sighting before a code is LOST.", \.tracker.lostAfter),
        .seconds(
            "tracking", "forget_after", flag: "forget-after", 0...3600,
            help: "Seconds after LOST within which the same code shown again is not a new SCAN.", \.tracker.forgetAfter),
        .seconds(
            "tracking", "duplicate_filter", flag: "duplicate-filter", 0...3600,
            help: "Seconds since a scanned code was last seen within which the same format and text is that code; 0: off.",
            \.tracker.duplicateFilter),
        .seconds(
            "tracking", "add_on_wait", flag: "add-on-wait", 0...10,
            help: "Seconds an EAN/UPC code that may carry an add-on waits for it before SCAN; 0: none.", \.tracker.addOnWait),
        Setting(
            section: "tracking", key: "add_on_prefixes", flag: nil, kind: .texts, valueName: "LIST",
            help: "EAN/UPC number prefixes that wait for an add-on, or all.",
            read: { .texts($0.tracker.addOnPrefixes) },
            write: { c, v, _ throws(Problem) in
                let prefixes = try v.texts()
                let valid = prefixes.allSatisfy { p in p == "all" || (1...12).contains(p.count) && p.utf8.allSatisfy { (0x30...0x39).contains($0) } }
                guard valid else {
                    throw Problem("must be digit prefixes of 1…12 digits or all, got \(v.commandLineText)")
                }
                c.tracker.addOnPrefixes = prefixes
            }),
        Setting(
            section: "tracking", key: "update_interval", flag: "update-interval", kind: .number, bounds: .seconds(0...3600), valueName: "S",
            help: "Emit UPDATE events with new corners at most this often per code, in seconds; 0: none.",
            read: { .number($0.tracker.updateInterval?.inSeconds ?? 0) },
            write: { c, v, _ throws(Problem) in
                let s = try v.number()
                c.tracker.updateInterval = s == 0 ? nil : Duration(roundingSeconds: s)
            }),
        Setting(
            section: "tracking", key: "confirm", flag: "confirm", kind: .texts, valueName: "FORMAT=N",
            help: "Agreeing reads before SCAN for a format (repeatable, or a comma-separated list).",
            read: { .texts($0.tracker.confirmations.map { "\($0.key.name)=\($0.value)" }.sorted()) },
            write: { c, v, _ throws(Problem) in
                for item in try v.texts() {
                    do throws(ConfirmationError) { try c.tracker.setConfirmation(item) } catch { throw Problem(error.description) }
                }
            }),

        Setting(
            section: "socket", key: "path", flag: "socket", kind: .text, valueName: "PATH|none",
            help: "Unix socket for subscribers, or none (without --config, a user other than root gets "
                + "$XDG_RUNTIME_DIR/scand.sock; systemd's socket activation wins).", reload: .restart,
            read: { .text($0.socketPath ?? "none") },
            write: { c, v, _ throws(Problem) in
                if case .text("none") = v { c.socketPath = nil; return }
                // Refused rather than resolved, on both sides: systemd starts scand in / and a reload
                // re-reads the file, so a relative path would name a different file depending on where
                // scand happened to start, and clients (`scand watch`) could not find it from elsewhere.
                let path = try absolutePath(v, example: "/run/scand/scand.sock", orNone: true)
                guard path.utf8.count < 108 else { throw Problem("must be under 108 bytes (a Unix socket's limit), got \(path.utf8.count)") }
                c.socketPath = path
            }),
        .group("socket", "group", help: "Group of the socket file when scand creates it; empty: scand's own.", reload: .restart, \.socketGroup),
        .integer("socket", "max_clients", 1...10_000, help: "Subscribers at once.", reload: .restart, \.maxClients),
        .integer("socket", "max_clients_per_uid", 1...10_000, help: "Connections one user may hold at once.", reload: .restart, \.maxClientsPerUID),
        .seconds(
            "socket", "request_timeout", flag: "request-timeout", 0.1...3600,
            help: "Seconds a new socket connection may take to send its first request before it is closed.", reload: .restart,
            \.requestTimeout),
        .integer(
            "socket", "queue_limit", 1...100_000, help: "Lines waiting for one subscriber (and stdout) before it counts as stalled.",
            reload: .restart, \.clientQueueLimit),
        .integer("socket", "max_request_bytes", 64...1_048_576, help: "Longest request line a client may send.", reload: .restart, \.maxRequestBytes),
        .group(
            "socket", "admin_group",
            help: "Group whose members may change settings over the socket (?ROI=); empty: root and scand's own user only.",
            reload: .restart, \.adminGroup),
        Setting(
            section: "service", key: "state_directory", flag: "state-directory", kind: .text, valueName: "PATH",
            help: "Directory for what outlives a restart (the rect of interest set over the socket); empty: systemd's "
                + "$STATE_DIRECTORY, else nothing is kept.", reload: .restart,
            read: { .text($0.stateDirectory ?? "") },
            write: { c, v, _ throws(Problem) in
                if case .text("") = v { c.stateDirectory = nil; return }
                c.stateDirectory = try absolutePath(v, example: "/var/lib/scand")
            }),
        .integer(
            "journal", "max_events", 1...10_000_000,
            help: "Events the journal in the state directory keeps at most, for clients that reconnect with since.",
            reload: .restart, \.journalMaxEvents),
        .seconds("journal", "max_age", 0...31_536_000, help: "Seconds the journal keeps an event at most.", reload: .restart, \.journalMaxAge),

        // `scand web` (its unit reads /etc/scand/web.toml).
        Setting(
            section: "web", key: "listen", flag: "listen", kind: .text, valueName: "HOST:PORT",
            help: "Where HTTP is served, HOST:PORT ([::1]:8088 for IPv6), port 0…65535.", reload: .otherCommand("scand web"),
            read: { .text($0.web.listen.description) },
            write: { c, v, _ throws(Problem) in
                let text = try v.text()
                do throws(ListenAddress.Problem) { c.web.listen = try ListenAddress(parsing: text) } catch {
                    // "listen address must be …" as the table words it: "listen must be …".
                    throw Problem(error.description.firstRange(of: "must ").map { String(error.description[$0.lowerBound...]) } ?? error.description)
                }
            }),
        Setting(
            section: "web", key: "socket", flag: "socket", kind: .text, valueName: "PATH",
            help: "The daemon's socket; empty: [socket] path, else as scand watch finds it.", reload: .otherCommand("scand web"),
            read: { .text($0.web.socket) },
            write: { c, v, _ throws(Problem) in c.web.socket = try socketPath(v) }),
        Setting(
            section: "web", key: "hosts", flag: nil, kind: .texts, valueName: "LIST",
            help: "Host names the page may be reached by besides IP addresses and localhost.", reload: .otherCommand("scand web"),
            read: { .texts($0.web.hosts) },
            write: { c, v, _ throws(Problem) in
                let hosts = try v.texts()
                if let bad = hosts.first(where: isNotHostName) {
                    throw Problem("must be host names (no spaces, '/' or ':'), got '\(bad.prefix(64))'")
                }
                c.web.hosts = hosts.map { $0.lowercased() }
            }),
        Setting(
            section: "web", key: "allowed_origins", flag: nil, kind: .texts, valueName: "LIST",
            help: "Origins of other pages (http://localhost:3000) that may use /events, /ws and the read-only /api routes.",
            reload: .otherCommand("scand web"),
            read: { .texts($0.web.allowedOrigins) },
            write: { c, v, _ throws(Problem) in
                var origins: [String] = []
                for item in try v.texts() {
                    guard let origin = WebSettings.origin(item) else {
                        throw Problem(
                            "must be origins as a browser sends them, scheme://host[:port] (http://localhost:3000), got '\(item.prefix(64))'")
                    }
                    if !origins.contains(origin) { origins.append(origin) }
                }
                c.web.allowedOrigins = origins
            }),
        Setting(
            section: "web", key: "token", flag: nil, kind: .text, valueName: "TOKEN",
            help: "The access token every request must carry; empty: none.", reload: .otherCommand("scand web"),
            // Read back as set: the settings table is no log (nothing logs a [web] value).
            read: { .text($0.web.token) },
            write: { c, v, _ throws(Problem) in
                let token = try v.text()
                guard token.isEmpty || WebSettings.isValidToken(token) else {
                    throw Problem(
                        "must be empty or \(WebSettings.tokenLength.lowerBound)…\(WebSettings.tokenLength.upperBound) letters, digits, '-', '_', '.' or '~' "
                            + "(openssl rand -hex 32 makes one), got \(token.count) characters")
                }
                c.web.token = token
            }),

        // `scand mqtt` (its unit reads /etc/scand/scand.toml).
        mqtt(
            "host", flag: "host", value: "HOST", "The broker's host name or address.", { $0.host },
            { c, v throws(Problem) in
                guard !v.isEmpty, !v.contains(" ") else { throw Problem("must be a host name or address, got '\(v.prefix(64))'") }
                c.host = v
            }),
        Setting(
            section: "mqtt", key: "port", flag: "port", kind: .integer, bounds: .integers(0...65535), valueName: "N",
            help: "The broker's port; 0: 8883 with TLS (ca_file), 1883 without.", reload: .otherCommand("scand mqtt"),
            read: { .integer($0.mqtt.port ?? 0) },
            write: { c, v, _ throws(Problem) in
                let port = try v.integer()
                c.mqtt.port = port == 0 ? nil : port
            }),
        mqtt(
            "kiosk_id", flag: "kiosk-id", value: "ID", "This kiosk's level in the topics; empty: the host name.", { $0.kioskID ?? "" },
            { c, v throws(Problem) in
                guard v.isEmpty || MQTTSettings.isValidKioskID(v) else {
                    throw Problem("must be 1…64 letters, digits, '.', '_' or '-' (it is one level of the topics), got '\(v.prefix(64))'")
                }
                c.kioskID = v.isEmpty ? nil : v
            }),
        mqtt(
            "username", "The user name the broker knows this kiosk by; empty: none.", { $0.username ?? "" },
            { c, v in c.username = v.isEmpty ? nil : v }),
        mqttFile("password_file", "A file whose first line is the password (needs username); empty: none.", \.passwordFile),
        mqttFile("ca_file", "The CA that signed the broker's certificate: TLS on; empty: plain MQTT.", \.caFile),
        mqttFile("cert_file", "This kiosk's client certificate (with key_file and ca_file); empty: none.", \.certFile),
        mqttFile("key_file", "The client certificate's private key; empty: none.", \.keyFile),
        mqtt(
            "state_file", flag: "state-file", value: "PATH",
            "Where the last acknowledged position is kept; empty: position.json in $STATE_DIRECTORY, else "
                + "/var/lib/scand-mqtt/position.json.", { $0.stateFile },
            { c, v throws(Problem) in c.stateFile = v.isEmpty ? "" : try absolutePath(.text(v), example: MQTTSettings.defaultStateFile) }),
        mqtt(
            "socket", flag: "socket", value: "PATH", "The daemon's socket; empty: [socket] path, else as scand watch finds it.", { $0.socketPath },
            { c, v throws(Problem) in c.socketPath = try socketPath(.text(v)) }),
        .integer("mqtt", "keepalive", 5...3600, help: "Seconds between MQTT keepalive pings.", reload: .otherCommand("scand mqtt"), \.mqtt.keepalive),
        .integer(
            "mqtt", "max_in_flight", 2...65535,
            help: "Publications awaiting the broker's acknowledgement at once (MQTT packet ids are 16 bits).",
            reload: .otherCommand("scand mqtt"), \.mqtt.maxInFlight),
        mqtt(
            "start", "Where a bridge without a state file starts: all (everything the journal keeps, then live) or now.",
            { $0.start.rawValue },
            { c, v throws(Problem) in
                guard let start = MQTTSettings.Start(rawValue: v) else {
                    throw Problem("must be \"all\" or \"now\", not \"\(v.escapingControlCharacters())\"")
                }
                c.start = start
            }),
        Setting(
            section: "mqtt", key: "classes", flag: "classes", kind: .texts, valueName: "LIST",
            help: "The event classes published (\(MQTTSettings.publishableClasses.joined(separator: ", ")), or all).",
            reload: .otherCommand("scand mqtt"),
            read: { c in
                let classes = c.mqtt.classes
                return .texts(classes.count == MQTTSettings.publishableClasses.count ? ["all"] : classes.sorted())
            },
            write: { c, v, _ throws(Problem) in
                let names = try v.texts().map { $0.uppercased() }
                let known = MQTTSettings.publishableClasses
                guard !names.isEmpty, names.allSatisfy({ $0 == "ALL" || known.contains($0) }) else {
                    throw Problem(
                        "must be event classes the journal keeps (\(known.joined(separator: ", "))) or all, got \(v.commandLineText.escapingControlCharacters().prefix(64))"
                    )
                }
                c.mqtt.classes = names.contains("ALL") ? Set(known) : Set(names)
            }),
        Setting(
            section: "mqtt", key: "formats", flag: "formats", kind: .texts, valueName: "LIST",
            help: "Formats of the SCAN, UPDATE and LOST events published, as a ?WATCH names them (e.g. ean13, qr; or all, linear, matrix).",
            reload: .otherCommand("scand mqtt"),
            read: { .texts($0.mqtt.formats.map { $0 == .all ? ["all"] : $0.members.map(\.name) } ?? ["all"]) },
            write: { c, v, _ throws(Problem) in
                let names = try v.texts()
                guard !names.isEmpty else { throw Problem("must name at least one format (or all, linear, matrix)") }
                do throws(FormatListError) {
                    let formats = try BarcodeFormats.parse(names.joined(separator: ","))
                    c.mqtt.formats = formats == .all ? nil : formats
                } catch {
                    throw Problem("lists an \(error)")
                }
            }),
        mqtt(
            "topic_prefix", flag: "topic-prefix", value: "PREFIX",
            "The topics' first levels: <prefix>/<kiosk-id>/events/<class> and <prefix>/<kiosk-id>/status.",
            { $0.topicPrefix },
            { c, v throws(Problem) in
                do throws(MQTTSettings.Problem) { c.topicPrefix = try MQTTSettings.topicPrefix(v) } catch { throw Problem(error.message) }
            }),

        // `scand wedge` (its unit reads /etc/scand/scand.toml).
        wedge(
            "layout", flag: "layout", value: "LAYOUT", "The kiosk session's keyboard layout: us, uk, de or fr (what the keys type there).",
            { $0.layout.rawValue },
            { c, v throws(Problem) in
                guard let layout = WedgeSettings.Layout(rawValue: v == "gb" ? "uk" : v) else {
                    throw Problem("must be us, uk, de or fr, not \"\(v.escapingControlCharacters().prefix(32))\"")
                }
                c.layout = layout
            }),
        wedge("prefix", flag: "prefix", "Typed before each code; empty: nothing.", { $0.prefix }, { c, v in c.prefix = v }),
        wedge(
            "suffix", flag: "suffix", value: "KEY", "The key pressed after each code: enter, tab or none.", { $0.suffix.rawValue },
            { c, v throws(Problem) in
                guard let suffix = WedgeSettings.Suffix(rawValue: v) else {
                    throw Problem("must be \"enter\", \"tab\" or \"none\", not \"\(v.escapingControlCharacters().prefix(32))\"")
                }
                c.suffix = suffix
            }),
        wedge(
            "gs_replacement", flag: "gs-replacement", "Typed for each GS (FNC1) separator of a GS1 code; empty: left out.", { $0.gsReplacement },
            { c, v in c.gsReplacement = v }),
        wedge(
            "digital_link", flag: "digital-link", value: "MODE",
            "How a GS1 Digital Link URI (a QR code's https://id.gs1.org/01/…) is typed: uri (as scanned) or element_string "
                + "(its GS1 element string, as from a GS1-128 code, for a till that reads those).", { $0.digitalLink.rawValue },
            { c, v throws(Problem) in
                guard let mode = WedgeSettings.DigitalLink(rawValue: v) else {
                    throw Problem("must be \"uri\" or \"element_string\", not \"\(v.escapingControlCharacters().prefix(32))\"")
                }
                c.digitalLink = mode
            }),
        .integer(
            "wedge", "key_delay_ms", flag: "key-delay-ms", 0...1000, valueName: "MS",
            help: "Milliseconds after each key press and release, for applications that drop fast keys.",
            reload: .otherCommand("scand wedge"), \.wedge.keyDelayMilliseconds),
        Setting(
            section: "wedge", key: "formats", flag: "formats", kind: .texts, valueName: "LIST",
            help: "Formats of the codes typed, as a ?WATCH names them (e.g. ean13, code128; or all, linear, matrix).",
            reload: .otherCommand("scand wedge"),
            read: { .texts($0.wedge.formats.map { $0 == .all ? ["all"] : $0.members.map(\.name) } ?? ["all"]) },
            write: { c, v, _ throws(Problem) in
                let names = try v.texts()
                guard !names.isEmpty else { throw Problem("must name at least one format (or all, linear, matrix)") }
                do throws(FormatListError) {
                    let formats = try BarcodeFormats.parse(names.joined(separator: ","))
                    c.wedge.formats = formats == .all ? nil : formats
                } catch {
                    throw Problem("lists an \(error)")
                }
            }),
        Setting(
            section: "wedge", key: "replay_max_age", flag: "replay-max-age", kind: .number, bounds: .seconds(0...86_400), valueName: "S",
            help: "Seconds: a scan replayed after a restart is typed only if it is younger; 0: every one.",
            reload: .otherCommand("scand wedge"),
            read: { .number($0.wedge.replayMaxAge?.inSeconds ?? 0) },
            write: { c, v, _ throws(Problem) in
                let s = try v.number()
                c.wedge.replayMaxAge = s == 0 ? nil : Duration(roundingSeconds: s)
            }),
        wedge(
            "device_name", "The virtual keyboard's name, as the input stack shows it.", { $0.deviceName },
            { c, v throws(Problem) in
                guard !v.isEmpty, v.utf8.count <= WedgeSettings.deviceNameLimit else {
                    throw Problem("must be 1…\(WedgeSettings.deviceNameLimit) bytes, got \(v.utf8.count)")
                }
                c.deviceName = v
            }),
        wedge(
            "socket", flag: "socket", value: "PATH", "The daemon's socket; empty: [socket] path, else as scand watch finds it.", { $0.socketPath },
            { c, v throws(Problem) in c.socketPath = try socketPath(.text(v)) }),
        wedge(
            "state_file", flag: "state-file", value: "PATH",
            "Where the last typed position is kept; empty: position.json in $STATE_DIRECTORY, else "
                + "/var/lib/scand-wedge/position.json.", { $0.stateFile },
            { c, v throws(Problem) in c.stateFile = v.isEmpty ? "" : try absolutePath(.text(v), example: WedgeSettings.defaultStateFile) })
    ]

    /// The setting a command-line flag (without dashes) of `command` sets.
    public static func named(flag: String, command: String = daemon) -> Setting? { all.first { $0.flag == flag && $0.command == command } }

    private static func isNotHostName(_ host: String) -> Bool {
        host.isEmpty || host.unicodeScalars.contains { $0 == " " || $0 == "/" || $0 == ":" }
    }

    /// A text setting of `[mqtt]`.
    private static func mqtt(
        _ key: String, flag: String? = nil, value: String = "TEXT", _ help: String, _ read: @escaping @Sendable (MQTTSettings) -> String,
        _ write: @escaping @Sendable (inout MQTTSettings, String) throws(Problem) -> Void
    ) -> Setting {
        commandText("mqtt", \.mqtt, key, flag, value, help, read, write)
    }

    /// A text setting of `[wedge]`.
    private static func wedge(
        _ key: String, flag: String? = nil, value: String = "TEXT", _ help: String, _ read: @escaping @Sendable (WedgeSettings) -> String,
        _ write: @escaping @Sendable (inout WedgeSettings, String) throws(Problem) -> Void
    ) -> Setting {
        commandText("wedge", \.wedge, key, flag, value, help, read, write)
    }

    /// A text setting of the table `section`, which the command `scand SECTION` reads into `table`.
    private static func commandText<Table>(
        _ section: String, _ table: WritableKeyPath<ScandConfig, Table> & Sendable, _ key: String, _ flag: String?, _ value: String, _ help: String,
        _ read: @escaping @Sendable (Table) -> String, _ write: @escaping @Sendable (inout Table, String) throws(Problem) -> Void
    ) -> Setting {
        Setting(
            section: section, key: key, flag: flag, kind: .text, valueName: value, help: help,
            reload: .otherCommand("scand \(section)"),
            read: { .text(read($0[keyPath: table])) },
            write: { c, v, _ throws(Problem) in try write(&c[keyPath: table], try v.text()) })
    }

    /// A file of `[mqtt]`: an absolute path, or empty for none.
    private static func mqttFile(_ key: String, _ help: String, _ path: WritableKeyPath<MQTTSettings, String?> & Sendable) -> Setting {
        mqtt(key, value: "PATH", help, { $0[keyPath: path] ?? "" }) { c, v throws(Problem) in
            c[keyPath: path] = v.isEmpty ? nil : try absolutePath(.text(v), example: "/etc/scand/" + key.prefix { $0 != "_" })
        }
    }

    /// A client's idea of the daemon's socket: absolute, under 108 bytes, or empty for the default.
    private static func socketPath(_ v: SettingValue) throws(Problem) -> String {
        guard try !v.text().isEmpty else { return "" }
        let path = try absolutePath(v, example: ScandConfig.systemSocketPath)
        guard path.utf8.count < 108 else { throw Problem("must be under 108 bytes (a Unix socket's limit), got \(path.utf8.count)") }
        return path
    }

    private static func absolutePath(_ v: SettingValue, example: String, orNone: Bool = false) throws(Problem) -> String {
        let path = try v.text()
        guard path.hasPrefix("/") else {
            throw Problem("must be an absolute path (e.g. \(example))\(orNone ? " or none" : ""), got '\(path)'")
        }
        return path
    }
}
