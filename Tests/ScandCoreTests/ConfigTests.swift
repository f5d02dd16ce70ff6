import Testing
@testable import ScandCore

@Suite struct TOMLTests {
    @Test func parsesTheSubsetScandUses() throws {
        let doc = try TOML.parse(
            """
            # comment
            top = 1
            [camera]
            device = "/dev/v4l/by-id/usb-\\u0041cme"   # trailing comment
            size = '1920x1080'
            fps = 1_000
            mirror = true
            [decoding]
            roi = [0.25, 0, 0.5, 1.0]
            formats = ["qr", "EAN-13"]
            """)
        #expect(doc.tables[""]?["top"]?.value == .integer(1))
        #expect(doc.tables["camera"]?["device"]?.value == .string("/dev/v4l/by-id/usb-Acme"))
        #expect(doc.tables["camera"]?["size"]?.value == .string("1920x1080"))
        #expect(doc.tables["camera"]?["fps"]?.value == .integer(1000))
        #expect(doc.tables["camera"]?["mirror"]?.line == 7)
        #expect(doc.tables["decoding"]?["roi"]?.value == .array([.float(0.25), .integer(0), .float(0.5), .float(1)]))
    }

    @Test(arguments: [
        ("a = ", 1, "missing value"), ("[camera\nx=1", 1, "malformed table header"), ("a = 1\na = 2", 2, "set twice"),
        ("a = \"open", 1, "unterminated string"), ("a = bare", 1, "strings need quotes"), ("[t]\n[t]", 2, "appears twice"),
        ("a = [1, 2", 1, "expected ',' or ']'"), ("= 3", 1, "expected key"), ("a = 1 2", 1, "unexpected text")
    ])
    func refusesWithTheLine(_ text: String, _ line: Int, _ reason: String) {
        #expect { try TOML.parse(text) } throws: { e in
            let p = e as! TOML.ParseError
            return p.line == line && p.message.contains(reason)
        }
    }
}

@Suite struct ConfigFileEncodingTests {
    /// As Characters, "\r\n" is one grapheme: a CRLF file once parsed as one line, so a typo passed.
    @Test func crlfLineEndsAreLinesAndKeepTheirNumbers() throws {
        let good = try ScandConfig().applying(toml: "[camera]\r\nfps = 15\r\n# note\r\nmirror = true\r\n")
        #expect(good.framesPerSecond == 15 && good.transform.mirrored)
        #expect { try ScandConfig().applying(toml: "[camera]\r\nsize = \"640x480\"\r\nfsp = 30\r\n") } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 3 && p.message.contains("unknown key 'fsp' in [camera]")
        }
        #expect { try TOML.parse("[camera]\rfps = 15\r") } throws: { e in
            let p = e as! TOML.ParseError
            return p.line == 1 && p.message.contains("carriage return without a line feed")
        }
    }

    @Test func aByteOrderMarkOrInvalidUTF8IsRefusedWithItsLine() throws {
        for bytes in [[0xEF, 0xBB, 0xBF] + Array("[camera]\nfps = 15\n".utf8), Array("\u{FEFF}[camera]\n".utf8)] {
            #expect { try ScandConfig().applying(file: bytes) } throws: { e in
                let p = e as! ScandConfig.Problem
                return p.line == 1 && p.message.contains("byte-order mark")
            }
        }
        #expect { try ScandConfig().applying(file: Array("[camera]\n\ndevice = \"/dev/vid".utf8) + [0xFF, 0x22, 0x0A]) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 3 && p.message.contains("not valid UTF-8")
        }
        #expect(try ScandConfig().applying(file: Array("[camera]\r\nfps = 15".utf8)).framesPerSecond == 15)
    }

    @Test func aSocketGroupThatDoesNotExistIsAConfigurationError() throws {
        let text = "[socket]\ngroup = \"kiosk\"\n"
        #expect { try ScandConfig().applying(toml: text, groupExists: { $0 != "kiosk" }) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == 2 && p.message.contains("group 'kiosk' does not exist")
        }
        #expect(try ScandConfig().applying(toml: text, groupExists: { $0 == "kiosk" }).socketGroup == "kiosk")
    }

    @Test func socketLimitsAndTheRequestTimeout() throws {
        let c = try ScandConfig().applying(toml: "[socket]\nrequest_timeout = 0.5\nmax_clients_per_uid = 3\n")
        #expect(c.requestTimeout == .milliseconds(500) && c.maxClientsPerUID == 3)
        #expect(throws: ScandConfig.Problem.self) { try ScandConfig().applying(toml: "[socket]\nrequest_timeout = 0\n") }
    }

    @Test func onlyCameraSettingsRestartTheCamera() throws {
        let old = ScandConfig()
        let decoding = try old.applying(toml: "[decoding]\nformats = [\"qr\"]\n[tracking]\nlost_after = 1\n[camera]\nrotation = 90\n")
        #expect(decoding.cameraChanges(from: old).isEmpty)
        let camera = try old.applying(toml: "[camera]\nsize = \"640x480\"\nfps = 15\n")
        #expect(camera.cameraChanges(from: old) == ["size 1280x720 → 640x480", "fps highest → 15"])
    }
}

@Suite struct ScandConfigTests {
    @Test func theShippedFileMatchesTheDefaults() throws {
        // config/scand.toml documents every setting at its default: applying it changes nothing.
        let path = #filePath.replacingOccurrences(of: "Tests/ScandCoreTests/ConfigTests.swift", with: "config/scand.toml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try ScandConfig().applying(toml: text) == ScandConfig())
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
                """)
        #expect(c.device == "/dev/video2" && c.width == 640 && c.height == 480 && c.framesPerSecond == 15)
        #expect(c.transform == FrameTransform(rotation: .quarter, mirrored: true))
        #expect(c.formats == BarcodeFormats.linear.union(BarcodeFormats(.qrCode)))
        #expect(c.regionOfInterest == (try NormalizedRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5)))
        #expect(c.itfLengths == [6, 14])
        #expect(c.tracker.lostAfter == .seconds(1) && c.tracker.updateInterval == .milliseconds(250))
        #expect(c.tracker.confirmations[.itf] == 5)
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
        ("\n\n[camera]\nsize = \"big\"", 4, "size must be WIDTHxHEIGHT")
    ])
    func refusesWrongFilesWithLineAndReason(_ text: String, _ line: Int, _ reason: String) {
        #expect { try ScandConfig().applying(toml: text) } throws: { e in
            let p = e as! ScandConfig.Problem
            return p.line == line && p.message.contains(reason)
        }
    }
}
