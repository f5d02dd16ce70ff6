import ScandCommands
import ScandConfigFile
import ScandMQTT
import ScandService
import ScandTracking
import Testing
@testable import ScandCore

/// The file is TOML 1.0, read by TOMLKit; every refusal carries the line of what it refuses.
@Suite struct ConfigTOMLTests {
    func problem(_ text: String) -> ScandConfig.Problem? {
        do {
            _ = try ScandConfig().applying(toml: text, table: .scand)
            return nil
        } catch { return error }
    }

    /// Valid TOML that the hand parser before TOMLKit refused: multi-line arrays, dotted keys, inline
    /// tables, multi-line and literal strings.
    @Test func readsTOML10AsAnyTOMLToolWritesIt() throws {
        let c = try ScandConfig().applying(
            toml: #"""
                service.state_directory = "/srv/scand"
                socket = { max_clients = 8, queue_limit = 16 }
                [camera]
                fps = 15
                device = """
                /dev/v4l/by-id/usb-Acme"""
                size = '640x480'
                [decoding]
                formats = [
                    "qr",     # the tickets
                    "EAN-13", # the goods
                ]
                roi = [0.25, 0, 0.5, 1.0]
                [tracking]
                confirm = [
                  'ITF=5',
                ]
                """#, table: .scand)
        #expect(
            c.framesPerSecond == 15 && c.maxClients == 8 && c.clientQueueLimit == 16
                && c[section: ServiceSettings.self].stateDirectory == "/srv/scand")
        #expect(c.device == "/dev/v4l/by-id/usb-Acme" && (c.width, c.height) == (640, 480))
        #expect(c.formats == BarcodeFormats(.qrCode).union(BarcodeFormats(.ean13)) && c[section: TrackerSettings.self].confirmations[.itf] == 5)
        #expect(c.regionOfInterest == (try NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 1)))
    }

    /// Each refusal names the line of the key it refuses, wherever TOML lets the key be written.
    @Test(arguments: [
        ("camera.fpz = 1", 1, "unknown key 'fpz' in [camera]"),
        ("# one\nsocket = { max_clients = 8, queue_limit = 0 }", 2, "queue_limit must be 1…100000, got 0"),
        ("[camera]\ndevice = \"\"\"\n/dev/\\\n  video0\"\"\"\nfps = -1", 5, "fps must be 0…1000, got -1"),
        ("[camera]\ndevice = \"\"\"\n/dev/\nvideo0\"\"\"\nfps = -1", 2, "device must not contain control characters, got U+000A"),
        ("[decoding]\nformats = [\n  \"qr\",\n  \"bogus\",\n]", 2, "unknown barcode format 'bogus'"),
        ("[decoding]\nroi = [\"0\", \"0\", \"1\", \"1\"]", 2, "roi must be an array of numbers, not a string at position 1"),
        ("[camera]\nfps = 99999999999999999999", 2, "out of range"),
        ("[camera]\nfps = 30.0", 2, "fps must be an integer, without a decimal point, not 30.0"),
        ("[camera]\nfps = 1979-05-27", 2, "fps must be an integer, not a date"),
        ("[camera]\nfps = { x = 1 }", 2, "fps must be an integer, not a table"),
        // Issue 48: "lost_after must be a number, not a number" for TOML's nan.
        ("[tracking]\nlost_after = nan", 2, "lost_after must be a number, not nan"),
        ("[tracking]\nlost_after = -inf", 2, "lost_after must be a number, not -inf"),
        ("[decoding]\nroi = [0, 0, inf, 1]", 2, "roi must be an array of numbers, not inf at position 3"),
        ("fps = 15", 1, "unknown key 'fps' outside any table"),
        ("[camera.lens]\nzoom = 2", 1, "unknown key 'lens' in [camera]"),
        ("[cameras.lens]\nzoom = 2", 1, "unknown table [cameras]"),
        ("[[camera]]\nfps = 2", 1, "camera must be a table ([camera]), not an array"),
        ("[camera]\nfps = 15\n'fps' = 16", 3, "cannot redefine"),
        ("[socket]\npath = \"/run/x\\u0000zz\"", 2, "path must not contain control characters, got U+0000"),
        ("[service]\nstate_directory = \"/var/lib/x\\u0001\"", 2, "state_directory must not contain control characters, got U+0001"),
        ("[camera]\ndevice = \"/dev/video\\u0085\"", 2, "must not contain control characters, got U+0085")
    ])
    func refusesWithTheLineOfTheKey(_ text: String, _ line: Int, _ reason: String) {
        let p = problem(text)
        #expect(p?.line == line && p?.message.contains(reason) == true, "\(String(describing: p))")
    }

    /// Of two wrong lines, the first in the file is reported, whatever is wrong with each.
    @Test func theFirstProblemInTheFileIsTheOneReported() {
        #expect(problem("[camera]\nfps = 2000\n\n\nfsp = 3\n")?.line == 2)
        #expect(problem("[camera]\nfsp = 3\nfps = 2000\n")?.line == 2)
        #expect(problem("[socket]\nmax_clients = 0\n[cameras]\nfps = 1\n")?.line == 2)
        #expect(problem("[cameras]\nfps = 1\n[socket]\nmax_clients = 0\n")?.line == 1)
        #expect(problem("[tracking]\nlost_after = -1\n[camera]\nfps = 2000\n")?.message.hasPrefix("lost_after") == true)
    }

    @Test func syntaxErrorsCarryTheirLineAndColumn() throws {
        let p = try #require(problem("[camera]\nfps = 15\nsize = \"640x480\n"))
        #expect(p.line == 3 && p.column != nil && p.description.hasPrefix("line 3, column "), "\(p)")
        #expect(problem("[camera]\nfps = ")?.line == 2)
        #expect(problem("[camera]\nfps = 15\n[camera]\n")?.line == 3)
    }
}

@Suite struct ConfigFileEncodingTests {
    /// As Characters, "\r\n" is one grapheme: a CRLF file once parsed as one line, so a typo passed.
    @Test func crlfLineEndsAreLinesAndKeepTheirNumbers() throws {
        let good = try ScandConfig().applying(toml: "[camera]\r\nfps = 15\r\n# note\r\nmirror = true\r\n", table: .scand)
        #expect(good.framesPerSecond == 15 && good.transform.mirrored)
        #expect { try ScandConfig().applying(toml: "[camera]\r\nsize = \"640x480\"\r\nfsp = 30\r\n", table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 3 && p.message.contains("unknown key 'fsp' in [camera]")
        }
        #expect(throws: ScandConfig.Problem.self) { try ScandConfig().applying(toml: "[camera]\rfps = 15\r", table: .scand) }
    }

    @Test func aByteOrderMarkInvalidUTF8OrANULByteIsRefusedWithItsLine() throws {
        for bytes in [[0xEF, 0xBB, 0xBF] + Array("[camera]\nfps = 15\n".utf8), Array("\u{FEFF}[camera]\n".utf8)] {
            #expect { try ScandConfig().applying(file: bytes, table: .scand) } throws: { e in
                let p = e as! ScandConfig.Problem
                return p.line == 1 && p.message.contains("byte-order mark")
            }
        }
        #expect { try ScandConfig().applying(file: Array("[camera]\n\ndevice = \"/dev/vid".utf8) + [0xFF, 0x22, 0x0A], table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 3 && p.message.contains("not valid UTF-8")
        }
        // The C parser would stop at the NUL and never see the typo after it.
        #expect { try ScandConfig().applying(file: Array("[camera]\nfps = 15\n".utf8) + [0] + Array("fsp = 1\n".utf8), table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 3 && p.message.contains("NUL byte")
        }
        #expect(try ScandConfig().applying(file: Array("[camera]\r\nfps = 15".utf8), table: .scand).framesPerSecond == 15)
    }

    @Test func theStateDirectoryIsTheSettingElseSystemdsFirst() {
        var service = ServiceSettings()
        #expect(service.resolvedStateDirectory(environment: [:]) == nil)
        #expect(service.resolvedStateDirectory(environment: ["STATE_DIRECTORY": ""]) == nil)
        #expect(service.resolvedStateDirectory(environment: ["STATE_DIRECTORY": "/var/lib/scand:/var/lib/other"]) == "/var/lib/scand")
        #expect(service.resolvedStateDirectory(environment: ["STATE_DIRECTORY": "relative"]) == nil)
        service.stateDirectory = "/srv/scand"
        #expect(service.resolvedStateDirectory(environment: ["STATE_DIRECTORY": "/var/lib/scand"]) == "/srv/scand")
    }

    /// SIGHUP applies camera, decoding and tracking settings; what it cannot apply it names.
    @Test func aReloadNamesWhatNeedsARestart() throws {
        let running = ScandConfig()
        let new = try running.applying(
            toml: "[camera]\nfps = 5\n[socket]\nmax_clients = 8\npath = \"/tmp/other.sock\"\n[journal]\nmax_events = 10\n"
                + "[service]\nstate_directory = \"/srv/x\"\n[web]\nlisten = \"127.0.0.1:9\"\n", table: .scand)
        #expect(
            Setting.unappliedChanges(from: running, to: new, in: .scand) == [
                "[socket] path /run/scand/scand.sock → /tmp/other.sock", "[socket] max_clients 64 → 8",
                "[service] state_directory \"\" → /srv/x", "[journal] max_events 100000 → 10"
            ])
        #expect(Setting.unappliedChanges(from: running, to: try running.applying(toml: "[camera]\nfps = 5\n", table: .scand), in: .scand).isEmpty)
    }

    @Test func aSocketGroupThatDoesNotExistIsAConfigurationError() throws {
        let text = "[socket]\ngroup = \"kiosk\"\n"
        #expect { try ScandConfig().applying(toml: text, table: .scand, groupExists: { $0 != "kiosk" }) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 2 && p.message.contains("group 'kiosk' does not exist")
        }
        #expect(try ScandConfig().applying(toml: text, table: .scand, groupExists: { $0 == "kiosk" }).socketGroup == "kiosk")
    }

    @Test func socketLimitsAndTheRequestTimeout() throws {
        let c = try ScandConfig().applying(toml: "[socket]\nrequest_timeout = 0.5\nmax_clients_per_uid = 3\n", table: .scand)
        #expect(c.requestTimeout == .milliseconds(500) && c.maxClientsPerUID == 3)
        #expect(throws: ScandConfig.Problem.self) { try ScandConfig().applying(toml: "[socket]\nrequest_timeout = 0\n", table: .scand) }
    }

    @Test func onlyCameraSettingsRestartTheCamera() throws {
        let old = ScandConfig()
        let decoding = try old.applying(toml: "[decoding]\nformats = [\"qr\"]\n[tracking]\nlost_after = 1\n[camera]\nrotation = 90\n", table: .scand)
        #expect(decoding.cameraChanges(from: old).isEmpty)
        let camera = try old.applying(toml: "[camera]\nsize = \"640x480\"\nfps = 15\n", table: .scand)
        #expect(camera.cameraChanges(from: old) == ["size 1280x720 → 640x480", "fps highest → 15"])
    }
}

@Suite struct ScandConfigTests {
    @Test func theShippedFileMatchesTheDefaults() throws {
        // config/scand.toml documents every setting at its default: applying it changes nothing.
        let path = #filePath.replacingOccurrences(of: "Tests/ScandCommandsTests/Settings/ConfigTests.swift", with: "config/scand.toml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try ScandConfig().applying(toml: text, table: .scand) == ScandConfig())
    }

    @Test func appliesEverySection() throws {
        let c = try ScandConfig().applying(
            toml: """
                [camera]
                device = "/dev/video2"
                size = "640x480"
                fps = 15
                rotation = 90
                mirror = true
                [decoding]
                formats = ["qr", "linear"]
                roi = [0.1, 0.2, 0.5, 0.5]
                itf_lengths = [14, 6]
                [tracking]
                lost_after = 1
                update_interval = 0.25
                confirm = ["ITF=5"]
                [socket]
                path = "/tmp/x.sock"
                queue_limit = 16
                """, table: .scand)
        #expect(c.device == "/dev/video2" && c.width == 640 && c.height == 480 && c.framesPerSecond == 15)
        #expect(c.transform == FrameTransform(rotation: .quarter, mirrored: true))
        #expect(c.formats == BarcodeFormats.linear.union(BarcodeFormats(.qrCode)))
        #expect(c.regionOfInterest == (try NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5)))
        #expect(c.itfLengths == [6, 14])
        let tracker = c[section: TrackerSettings.self]
        #expect(tracker.lostAfter == .seconds(1) && tracker.updateInterval == .milliseconds(250) && tracker.confirmations[.itf] == 5)
        #expect(c.socketPath == "/tmp/x.sock" && c.clientQueueLimit == 16)
    }

    @Test(arguments: [
        ("[camera]\ndevcie = \"/dev/video0\"", 2, "unknown key 'devcie' in [camera]"),
        ("[cameras]\n", 1, "unknown table [cameras]"),
        ("[camera]\nfps = \"30\"", 2, "fps must be an integer, not a string"),
        ("[camera]\nrotation = 45", 2, "rotation must be 0, 90, 180 or 270"),
        ("[decoding]\nformats = [\"qr\", \"bogus\"]", 2, "unknown barcode format 'bogus'"),
        ("[decoding]\nroi = [0.5, 0.5, 0.9, 0.1]", 2, "x+w and y+h must not exceed 1"),
        ("[decoding]\nitf_lengths = [13]", 2, "itf_lengths must be even whole numbers"),
        ("[decoding]\nitf_lengths = [14.5]", 2, "itf_lengths must be even whole numbers"),
        ("[decoding]\nitf_lengths = 14", 2, "itf_lengths must be an array of numbers"),
        ("[tracking]\nconfirm = [\"ITF\"]", 2, "FORMAT=N"),
        ("[socket]\nqueue_limit = 0", 2, "queue_limit must be 1"),
        ("\n\n[camera]\nsize = \"big\"", 4, "size must be WIDTHxHEIGHT"),
        ("[mqtt]\nhots = \"x\"", 2, "unknown key 'hots' in [mqtt]"),
        ("[mqtt]\nport = 65536", 2, "port must be 0…65535"),
        ("[mqtt]\nport = \"1883\"", 2, "must be an integer"),
        ("[mqtt]\nkiosk_id = \"a/b\"", 2, "kiosk_id must be"),
        ("[mqtt]\nkiosk_id = \"#\"", 2, "kiosk_id must be"),
        ("[mqtt]\nsocket = \"relative.sock\"", 2, "socket must be an absolute path"),
        ("[mqtt]\nca_file = \"ca.pem\"", 2, "ca_file must be an absolute path"),
        ("[mqtt]\nhost = \"\"", 2, "host must be a host name"),
        ("[mqtt]\nstart = \"later\"", 2, #"start must be "all" or "now", not "later""#),
        ("[mqtt]\nmax_in_flight = 65536", 2, "max_in_flight must be 2…65535")
    ])
    func refusesWrongFilesWithLineAndReason(_ text: String, _ line: Int, _ reason: String) {
        #expect { try ScandConfig().applying(toml: text, table: .scand) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == line && p.message.contains(reason)
        }
    }
}

@Suite struct MQTTSettingsTests {
    @Test func readsTheMQTTTableThroughTheSettingsTable() throws {
        let c = try ScandConfig().applying(
            toml: """
                [camera]
                device = "/dev/video2"
                [socket]
                path = "/run/scand/other.sock"
                [mqtt]
                host = "broker.example"
                kiosk_id = "till-07"
                username = "till"
                password_file = "/etc/scand/mqtt-password"
                ca_file = "/etc/ssl/ca.pem"
                cert_file = "/etc/scand/till.pem"
                key_file = "/etc/scand/till.key"
                max_in_flight = 500
                """, table: .scand)
        let s = c.mqtt
        #expect(s.host == "broker.example" && s.effectivePort == 8883 && s.kioskID == "till-07")
        #expect(s.socketPath == "" && c.socketPath == "/run/scand/other.sock" && s.maxInFlight == 500 && s.usesTLS)
        #expect(try ScandConfig().applying(toml: "", table: .scand).mqtt.effectivePort == 1883)
        #expect(try ScandConfig().applying(toml: "[mqtt]\nport = 0\nkiosk_id = \"\"", table: .scand).mqtt == MQTTSettings())
        #expect(throws: MQTTSettings.Problem.self) { try c.mqtt.applying { $0.keyFile = nil }.validate() }
    }

    @Test func aNewBridgeStartsWithTheWholeJournalUnlessToldNow() throws {
        #expect(try ScandConfig().applying(toml: "", table: .scand).mqtt.start == .all)
        #expect(try ScandConfig().applying(toml: "[mqtt]\nstart = \"now\"", table: .scand).mqtt.start == .now)
    }
}

extension MQTTSettings {
    fileprivate func applying(_ change: (inout MQTTSettings) -> Void) -> MQTTSettings {
        var s = self
        change(&s)
        return s
    }
}
