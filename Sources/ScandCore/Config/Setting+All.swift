extension Setting {
    /// `scand run`'s settings that ScandCore holds ([camera], [decoding], [socket]); the feature modules' tables are
    /// theirs (`SettingsSection`: `scand run`'s [tracking], [service] and [journal] too), and `SettingsTable` puts
    /// them all together for the file, the command line and `--help`.
    public static let core: [Setting] = [
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
            read: { formatNames($0.formats) }, write: { c, v, _ throws(Problem) in c.formats = try formatList(v) }),
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
            reload: .restart, \.adminGroup)
    ]

    /// A text row of the table `section` owns.
    public static func text<S: SettingsSection>(
        in section: S.Type, _ key: String, flag: String? = nil, value: String = "TEXT", help: String, words: String?,
        _ read: @escaping @Sendable (S) -> String, _ write: @escaping @Sendable (inout S, String) throws(Problem) -> Void
    ) -> Setting {
        Setting(
            in: section, key: key, flag: flag, kind: .text, valueName: value, help: help, words: words, read: { .text(read($0)) },
            write: { s, v throws(Problem) in try write(&s, try v.text()) })
    }

    /// Seconds in `range` of the table `section` owns, kept at `path` as a `Duration` at millisecond resolution.
    public static func seconds<S: SettingsSection>(
        in section: S.Type, _ key: String, flag: String? = nil, _ range: ClosedRange<Double>, help: String, words: String?,
        _ path: WritableKeyPath<S, Duration> & Sendable
    ) -> Setting {
        Setting(
            in: section, key: key, flag: flag, kind: .number, bounds: .seconds(range), valueName: "S", help: help, words: words,
            read: { .number($0[keyPath: path].inSeconds) },
            write: { s, v throws(Problem) in s[keyPath: path] = Duration(roundingSeconds: try v.number()) })
    }

    /// A whole number in `range` of the table `section` owns, kept at `path`.
    public static func integer<S: SettingsSection>(
        in section: S.Type, _ key: String, flag: String? = nil, _ range: ClosedRange<Int>, valueName: String = "N", help: String, words: String?,
        _ path: WritableKeyPath<S, Int> & Sendable
    ) -> Setting {
        Setting(
            in: section, key: key, flag: flag, kind: .integer, bounds: .integers(range), valueName: valueName, help: help, words: words,
            read: { .integer($0[keyPath: path]) }, write: { s, v throws(Problem) in s[keyPath: path] = try v.integer() })
    }

    /// True or false (a flag without a value), of the table `section` owns, kept at `path`.
    public static func boolean<S: SettingsSection>(
        in section: S.Type, _ key: String, flag: String? = nil, help: String, words: String?, _ path: WritableKeyPath<S, Bool> & Sendable
    ) -> Setting {
        Setting(
            in: section, key: key, flag: flag, kind: .boolean, valueName: "", help: help, words: words, read: { .boolean($0[keyPath: path]) },
            write: { s, v throws(Problem) in s[keyPath: path] = try v.boolean() })
    }

    /// One of `E`'s raw values, of the table `section` owns, kept at `path`; `aliases`: other spellings of some.
    public static func choice<S: SettingsSection, E: RawRepresentable<String> & CaseIterable & Sendable>(
        in section: S.Type, _ key: String, flag: String?, value: String, help: String, words: String?, aliases: [String: E] = [:],
        _ path: WritableKeyPath<S, E> & Sendable
    ) -> Setting {
        .text(in: section, key, flag: flag, value: value, help: help, words: words, { $0[keyPath: path].rawValue }) { s, v throws(Problem) in
            guard let choice = E(rawValue: v) ?? aliases[v] else {
                let names = E.allCases.map { "\"\($0.rawValue)\"" }
                throw Problem(
                    "must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), not \"\(v.escapingControlCharacters().prefix(32))\"")
            }
            s[keyPath: path] = choice
        }
    }

    /// `formats` (`--formats`) of the table `section` owns: the formats a client passes on, as a ?WATCH names
    /// them; nil at `path` for all.
    public static func formats<S: SettingsSection>(
        in section: S.Type, help: String, words: String?, _ path: WritableKeyPath<S, BarcodeFormats?> & Sendable
    ) -> Setting {
        Setting(
            in: section, key: "formats", flag: "formats", kind: .texts, valueName: "LIST", help: help, words: words,
            read: { formatNames($0[keyPath: path] ?? .all) },
            write: { s, v throws(Problem) in
                let formats = try formatList(v)
                s[keyPath: path] = formats == .all ? nil : formats
            })
    }

    static func formatNames(_ formats: BarcodeFormats) -> SettingValue { .texts(formats == .all ? ["all"] : formats.members.map(\.name)) }

    /// A `formats` row's value: at least one name, each a format or all, linear, matrix.
    static func formatList(_ v: SettingValue) throws(Problem) -> BarcodeFormats {
        let names = try v.texts()
        guard !names.isEmpty else { throw Problem("must name at least one format (or all, linear, matrix)") }
        do throws(FormatListError) { return try BarcodeFormats.parse(names.joined(separator: ",")) } catch { throw Problem("lists an \(error)") }
    }

    /// A client's idea of the daemon's socket: absolute, under 108 bytes, or empty for the default.
    public static func socketPath(_ v: SettingValue) throws(Problem) -> String {
        guard try !v.text().isEmpty else { return "" }
        let path = try absolutePath(v, example: ScandConfig.systemSocketPath)
        guard path.utf8.count < 108 else { throw Problem("must be under 108 bytes (a Unix socket's limit), got \(path.utf8.count)") }
        return path
    }

    public static func absolutePath(_ v: SettingValue, example: String, orNone: Bool = false) throws(Problem) -> String {
        let path = try v.text()
        guard path.hasPrefix("/") else {
            throw Problem("must be an absolute path (e.g. \(example))\(orNone ? " or none" : ""), got '\(path)'")
        }
        return path
    }
}
