import Foundation
import ScandClient
import ScandCore
import ScandProtocol
import ScandTestSupport
import ScandWedge
import Testing

/// `scand wedge` against the real daemon: a replay where items come and go, the wedge printing each code's
/// key events (`--dry-run`; the VM test types them on a real uinput keyboard), killed and restarted, and the
/// daemon stopped and started again, so that every code is typed once, in order, under the layout.
@Suite(.serialized) final class WedgeEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    var socket: String { dir + "/scand.sock" }
    var stateDirectory: String { dir + "/state" }
    var stateFile: String { dir + "/wedge-position.json" }

    /// Each item shown alone for 8 frames, 8 empty frames between, at 30 fps (a till), after `leadIn` seconds.
    static func items(_ codes: [(BarcodeFormat, String)], leadIn: Double, to path: String) throws -> String {
        let blank = LumaImage(width: 640, height: 360, fill: 235)
        var pages: [LumaImage] = []
        for (format, text) in codes {
            let symbol = Scene.symbol(format, text, module: format == .qrCode ? 3 : 2)
            let page = Scene.page(width: 640, height: 360, background: 235, centred: [(symbol, x: 320, y: 180)])
            pages += Array(repeating: page, count: 8) + Array(repeating: blank, count: 8)
        }
        return try Scene.record(pages: pages, leadIn: leadIn, tail: 0.5, blank: blank, to: path)
    }

    func daemon(_ recording: String) throws -> DaemonProcess {
        let daemon = try DaemonProcess([
            "run", "--socket", socket, "--state-directory", stateDirectory, "--replay-pace", "recorded", "--source", "replay:" + recording
        ])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: self.socket) })
        return daemon
    }

    func wedge(_ options: [String]) throws -> DaemonProcess {
        try DaemonProcess(["wedge", "--dry-run", "--socket", socket, "--state-file", stateFile, "--key-delay-ms", "0"] + options)
    }

    /// The key events of each code the wedge printed, as (code, value) pairs.
    static func keys(_ stdout: [String]) -> [[KeyEvent]] {
        stdout.filter { $0.hasPrefix("KEYS ") }.map { line in
            line.split(separator: " ").dropFirst().map { token in
                KeyEvent(KeyCode(rawValue: UInt16(token.dropLast()) ?? 0), pressed: token.hasSuffix("↓"))
            }
        }
    }

    /// German text with the layout's dead keys (^, `, é), AltGr (@, €, {, }), ü ö ß; a code de cannot type
    /// (ñ); control characters; a GS1-style GS; and a Code 128 the wedge's --formats leaves out. (A lone § or
    /// µ comes back from zxing as half-width katakana: it guesses Shift_JIS for a short Latin-1 payload; the €
    /// makes the writer encode UTF-8.)
    static let german: [(BarcodeFormat, String)] = [
        (.qrCode, "Grüße-1 ^x `y"), (.qrCode, "Straße 2 {@}"), (.code128, "NOT-TYPED-3"), (.qrCode, "Preis 4€ é"),
        (.qrCode, "mañana 5"), (.qrCode, "Tab\there\r\n6"), (.qrCode, "0109501101530003\u{1D}10AB7"), (.qrCode, "ÖLZ 8 <|>"),
        (.qrCode, "item-9 ~"), (.qrCode, "item-10 ä"), (.qrCode, "item-11 §€"), (.qrCode, "item-12 µ€")
    ]
    /// What the wedge types of `german`, in order: the Code 128 filtered out, ñ refused, controls dropped.
    static let germanTyped = [
        "Grüße-1 ^x `y", "Straße 2 {@}", "Preis 4€ é", "Tabhere6", "0109501101530003|10AB7", "ÖLZ 8 <|>", "item-9 ~", "item-10 ä", "item-11 §€",
        "item-12 µ€"
    ].map { $0 + "\n" }

    @Test func everyScanIsTypedOnceInOrderAcrossAWedgeKillAndADaemonRestart() throws {
        // A wedge without a state file types from the next SCAN on: it must be subscribed before the first item,
        // which comes after a lead-in long enough for a wedge started on a loaded machine (2 s was not, once).
        let first = try Self.items(Array(Self.german[..<8]), leadIn: 8, to: dir + "/first.rec")
        let second = try Self.items(Array(Self.german[8...]), leadIn: 1, to: dir + "/second.rec")
        let daemon = try daemon(first)
        let options = ["--layout", "de", "--formats", "QRCode", "--gs-replacement", "|"]
        let wedge = try wedge(options)
        #expect(wedge.wait { wedge.stderr.contains { $0.contains("subscribed to scand") } }, "\(wedge.stderr)")
        #expect(FleetRecordings.scans(daemon.stdout).isEmpty, "subscribed before the first SCAN: \(daemon.stdout)")
        #expect(wedge.wait { Self.keys(wedge.stdout).count >= 2 }, "\(wedge.stderr)")
        // SIGKILL: no clean stop; the state file holds the last code typed, the daemon's journal the rest.
        wedge.signal(SIGKILL)
        _ = wedge.finish()
        let typedBeforeKill = Self.keys(wedge.stdout)
        // Items pass meanwhile: the daemon scans at least one more code with no wedge running.
        func scans() -> Int { FleetRecordings.scans(daemon.stdout).count }
        let scannedAtKill = scans()
        #expect(daemon.wait(seconds: 30) { scans() > scannedAtKill }, "\(daemon.stderr)")
        let again = try self.wedge(options)
        #expect(daemon.finish(seconds: 30) == 0, "the recording ends")
        let next = try self.daemon(second)
        #expect(next.finish(seconds: 30) == 0)
        #expect(again.wait { Self.keys(again.stdout).count + typedBeforeKill.count >= Self.germanTyped.count }, "\(again.stderr)")
        again.signal(SIGTERM)
        #expect(again.finish() == 0)

        let typed = (typedBeforeKill + Self.keys(again.stdout)).map(KeyboardLayout.de.decode)
        #expect(typed == Self.germanTyped, "each once, in order:\n\(typed)\n\(again.stderr)")
        // The ü of the first code is KEY_LEFTBRACE (26) and its ^ the dead key KEY_GRAVE (41) then space: by hand.
        let firstCode = try #require(typedBeforeKill.first)
        #expect(firstCode.contains(KeyEvent(KeyCode(rawValue: 26), pressed: true)))
        let caret = try #require(firstCode.firstIndex(of: KeyEvent(KeyCode(rawValue: 41), pressed: true)))
        #expect(Array(firstCode[caret..<caret + 4].map(\.key.rawValue)) == [41, 41, 57, 57])
        let log = again.stderr.joined(separator: "\n")
        #expect(log.contains("resuming after {\"boot\":"), "\(log)")
        #expect(log.contains("the de layout cannot type 'ñ' (U+00F1); nothing of it was typed"), "\(log)")
        #expect(log.contains("without its 3 control characters"), "\(log)")
        #expect(log.contains("subscribing again"), "the daemon's restart: \(log)")
        #expect(log.contains("stopped: ") && log.contains("1 refused") && log.contains("3 control characters dropped"), "\(log)")
        let position = try #require(
            EventPosition.parse(json: try String(contentsOfFile: stateFile, encoding: .utf8).trimmingCharacters(in: .newlines)))
        #expect(position.seq > 10)
    }

    /// `scand wedge --dry-run` run by hand by a user who is not root, without a state_file: the packaged
    /// /var/lib/scand-wedge is not theirs, so the position goes to ~/.local/state/scand-wedge, as scand mqtt's
    /// does (it failed to write /var/lib/scand-wedge/position.json).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root to run as nobody"))
    func aUserRunningItByHandKeepsThePositionInTheirOwnStateDirectory() throws {
        let idle = ["run", "--socket", socket, "--state-directory", stateDirectory, "--device", dir + "/no-camera"]
        let daemon = try DaemonProcess(idle)
        #expect(daemon.wait { FileManager.default.fileExists(atPath: self.socket) })
        #expect(daemon.wait { !FleetRecordings.positions(daemon.stdout).isEmpty }, "a numbered event: the journal is not empty")
        let home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        chown(home, 65534, 65534)
        chmod(dir, 0o755)
        chmod(socket, 0o777)
        let user = try SpawnedProcess(
            "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", ScandBinary.path, "wedge", "--dry-run", "--socket", socket],
            environment: ["STATE_DIRECTORY": "", "XDG_STATE_HOME": "", "HOME": home])
        let expected = home + "/.local/state/scand-wedge/position.json"
        #expect(user.wait { ((try? PositionFile.read(expected)) ?? nil) != nil }, "\(user.stderr)")
        user.signal(SIGTERM)
        #expect(user.finish() == 0)
        #expect(user.stderr.contains { $0.contains("state file \(expected)") }, "\(user.stderr)")
        #expect(!user.stderr.contains { $0.contains("/var/lib/scand-wedge") }, "\(user.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    /// A wedge that has typed nothing yet holds where its subscription started (the daemon's answer to its
    /// WATCH) in its state file: stopped while the daemon stops and another scans with no socket open, then
    /// started again, it types those scans, each once. It wrote nothing, subscribed live again and lost them.
    @Test func aWedgeRestartedBeforeItsFirstScanTypesWhatWasScannedMeanwhile() throws {
        let idle = ["run", "--socket", socket, "--state-directory", stateDirectory, "--device", dir + "/no-camera"]
        let quiet = try DaemonProcess(idle)
        #expect(quiet.wait { FileManager.default.fileExists(atPath: self.socket) })
        #expect(quiet.wait { !FleetRecordings.positions(quiet.stdout).isEmpty }, "a numbered event: the journal is not empty")
        let first = try wedge([])
        #expect(first.wait { ((try? PositionFile.read(self.stateFile)) ?? nil) != nil }, "before any SCAN: \(first.stderr)")
        first.signal(SIGTERM)
        #expect(first.finish() == 0)
        quiet.signal(SIGTERM)
        #expect(quiet.finish() == 0)
        // Scans with no socket to connect to: the wedge can only get them from the journal.
        let recording = try Self.items([(.qrCode, "missed-1"), (.qrCode, "missed-2")], leadIn: 1, to: dir + "/missed.rec")
        let scanning = try DaemonProcess([
            "run", "--socket", "none", "--state-directory", stateDirectory, "--replay-pace", "recorded", "--source", "replay:" + recording
        ])
        #expect(scanning.finish(seconds: 60) == 0)
        #expect(FleetRecordings.scans(scanning.stdout).count == 2, "\(scanning.stdout)")
        let again = try DaemonProcess(idle)
        #expect(again.wait { FileManager.default.fileExists(atPath: self.socket) })
        let second = try wedge([])
        #expect(second.wait { Self.keys(second.stdout).count >= 2 }, "\(second.stderr)")
        second.signal(SIGTERM)
        #expect(second.finish() == 0)
        #expect(Self.keys(second.stdout).map(KeyboardLayout.us.decode) == ["missed-1\n", "missed-2\n"], "each once: \(second.stderr)")
        again.signal(SIGTERM)
        #expect(again.finish() == 0)
    }

    /// Ctrl-C stops the wedge, which says so: the daemon closed nothing, and nothing is subscribed again
    /// (issue 46, item 5).
    @Test func aWedgeStoppedWithControlCSaysItStoppedNotThatScandClosed() throws {
        let quiet = try daemon(try Self.items([], leadIn: 30, to: dir + "/ctrl-c.rec"))
        let wedge = try wedge([])
        #expect(wedge.wait { wedge.stderr.contains { $0.contains("subscribed to scand") } }, "\(wedge.stderr)")
        wedge.signal(SIGINT)
        #expect(wedge.finish() == 0, "\(wedge.stderr)")
        #expect(!wedge.stderr.contains { $0.contains("closed") || $0.contains("subscribing again") }, "\(wedge.stderr)")
        #expect(wedge.stderr.last?.contains("stopped:") == true, "\(wedge.stderr)")
        quiet.signal(SIGTERM)
        #expect(quiet.finish() == 0)
    }

    @Test func aWrongSettingOrNoUinputIsOneLineAndItsExitStatus() throws {
        let layout = try ScandBinary.run(["wedge", "--dry-run", "--layout", "dvorak", "--socket", socket, "--state-file", stateFile])
        // A bad option value is 64 (EX_USAGE), as for every command, and a prefix the layout cannot type given
        // as an option too; a configuration file's, 78.
        #expect(
            layout.status == 64 && layout.stderr.contains("--layout: must be \"us\", \"uk\", \"de\" or \"fr\", not \"dvorak\""), "\(layout.stderr)")
        let prefix = try ScandBinary.run(["wedge", "--dry-run", "--prefix", "né", "--socket", socket, "--state-file", stateFile])
        #expect(prefix.status == 64 && prefix.stderr.contains("prefix: the us layout cannot type 'é' (U+00E9)"), "\(prefix.stderr)")
        let link = try ScandBinary.run(["wedge", "--dry-run", "--digital-link", "gs1", "--socket", socket, "--state-file", stateFile])
        #expect(
            link.status == 64 && link.stderr.contains("--digital-link: must be \"uri\" or \"element_string\", not \"gs1\""), "\(link.stderr)")
        let config = dir + "/bad.toml"
        try "[wedge]\nsuffix = \"space\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let file = try ScandBinary.run(["wedge", "--dry-run", "--config", config])
        #expect(file.status == 78 && file.stderr.contains("line 2: suffix must be \"enter\", \"tab\" or \"none\""), "\(file.stderr)")
        let missing = try ScandBinary.run(["wedge", "--uinput", dir + "/no-uinput", "--socket", socket, "--state-file", stateFile])
        #expect(missing.status == 69 && missing.stderr.contains("no uinput device (load the module: modprobe uinput)"), "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
        let notUinput = try ScandBinary.run(["wedge", "--uinput", "/dev/null", "--socket", socket, "--state-file", stateFile])
        #expect(notUinput.status == 71 && notUinput.stderr.contains("/dev/null: cannot create a virtual keyboard"), "\(notUinput.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func theUnitReachesUinputAndTheSocketOnlyAndIsHardened() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("systemd/scand-wedge.service"), encoding: .utf8)
        for line in [
            "DevicePolicy=closed", "DeviceAllow=/dev/uinput rw", "SupplementaryGroups=scand-uinput scand-clients", "RestrictAddressFamilies=AF_UNIX",
            "PrivateNetwork=yes", "StateDirectory=scand-wedge", "DynamicUser=yes", "RestartPreventExitStatus=78"
        ] {
            #expect(text.contains("\n\(line)\n"), "\(line)")
        }
        #expect(!text.contains("PrivateDevices=yes"), "it would hide /dev/uinput")
        let unit = dir + "/scand-wedge.service"
        try text.replacingOccurrences(of: "/usr/local/bin/scand", with: ScandBinary.path).write(toFile: unit, atomically: true, encoding: .utf8)
        let verify = try UnitVerification.verify([unit])
        #expect(verify.status == 0 && !verify.stderr.contains("scand-wedge"), "\(verify.stdout)\(verify.stderr)")
        let security = try ScandBinary.runTool("/usr/bin/systemd-analyze", ["security", "--offline=true", unit])
        let line = try #require(security.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = Double(line.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
        #expect(score <= 2.0, "\(line)")
    }
}

/// The wedge on a booted Debian 12 (qemu, systemd, the vivid camera, the uinput module): the .deb installed
/// with apt, `scand-wedge.service` enabled, and for each layout the key events of the keyboard it creates,
/// read with python3-evdev from /dev/input while three QR codes stream into the camera: two typable, one not.
@Suite(.serialized) struct WedgeVirtualMachineTests {
    static let payloads: [(layout: KeyboardLayout.Name, typed: [String], refused: String)] = [
        (.us, ["us a@B#{}|~`^ 1", "us <>?:\"_+=[]\\ 2"], "us café 3"),
        (.uk, ["uk £5 €6 ¬ \\|", "uk \"@'#~ é à 2"], "uk 中 3"),
        (.de, ["de Grüße ^ ` 1", "de €@{}[]\\|~ ß é 2"], "de mañana 3"),
        (.fr, ["fr ça été où ê ë 1", "fr &\"'(-_)=@$*µ 2"], "fr Ça 3")
    ]

    /// The events of one section's "KEY CODE VALUE" lines.
    static func events(_ lines: [String]) -> [KeyEvent] {
        lines.filter { $0.hasPrefix("KEY ") }.compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let code = UInt16(parts[1]), let value = Int(parts[2]) else { return nil }
            return KeyEvent(KeyCode(rawValue: code), pressed: value == 1)
        }
    }

    static func contains(_ events: [KeyEvent], _ run: [(UInt16, Bool)]) -> Bool {
        let wanted = run.map { KeyEvent(KeyCode(rawValue: $0.0), pressed: $0.1) }
        return events.indices.contains { i in events[i...].starts(with: wanted) }
    }

    @Test(
        .enabled(if: PackageEndToEndTests.canPackage && PackageEndToEndTests.canBoot, "needs qemu-system-x86 and debootstrap, run as root"),
        .timeLimit(.minutes(60)))
    func typesEveryLayoutOnAUinputKeyboardOnBootedDebian() throws {
        let deb = try #require(PackageEndToEndTests.built.deb, "\(PackageEndToEndTests.built.log)")
        let dir = ScandBinary.temporaryDirectory()
        var inputs = [deb]
        for (layout, typed, refused) in Self.payloads {
            let path = "\(dir)/frames-\(layout.rawValue).raw"
            let codes = zip(typed + [refused], ["0.2,0.5", "0.5,0.5", "0.8,0.5"]).flatMap { ["--code", "QRCode:\($0)@\($1)"] }
            let synth = try ScandBinary.run(["synth", "--raw", "--frames", "2", "--size", "1280x720", "--module-size", "4"] + codes + [path])
            #expect(synth.status == 0, "\(synth.stderr)")
            try "\(typed.count)\n".write(toFile: "\(dir)/typed-\(layout.rawValue)", atomically: true, encoding: .utf8)
            inputs += [path, "\(dir)/typed-\(layout.rawValue)"]
        }
        let blank = try ScandBinary.run(["synth", "--raw", "--frames", "2", "--size", "1280x720", dir + "/blank.raw"])
        #expect(blank.status == 0, "\(blank.stderr)")
        try Self.payloads.map(\.layout.rawValue).joined(separator: " ").write(toFile: dir + "/layouts", atomically: true, encoding: .utf8)
        inputs += [dir + "/blank.raw", dir + "/layouts"]
        let started = Date()
        let vm = try ScandBinary.runTool(
            PackageEndToEndTests.root.appendingPathComponent("scripts/vm/run-in-debian-vm").path,
            ["--timeout", "1500", "--include", try PackageEndToEndTests.guestPackages(deb)] + inputs.flatMap { ["--file", $0] }
                + [PackageEndToEndTests.root.appendingPathComponent("scripts/vm/wedge-e2e-guest.sh").path])
        let text = vm.stdout
        print(
            "wedge end-to-end: VM wall time \(Int(Date().timeIntervalSince(started))) s; "
                + (text.split(separator: "\n").first { $0.hasPrefix("=== timing") } ?? "no timing") + "; "
                + (text.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? "no security rating"))
        #expect(vm.status == 0, "\(text)\n\(vm.stderr)")
        let s = VividEndToEndTests.Sections(text)
        #expect(s.status["install"] == 0, "\(s.lines["install"] ?? [])")
        let uinput = s.lines["uinput"] ?? []
        #expect(uinput.contains("crw-rw---- scand-uinput /dev/uinput"), "the package's udev rule: \(uinput)")
        #expect(uinput.contains("disabled"), "packaged disabled: \(uinput)")

        for (layout, typed, _) in Self.payloads {
            let section = "layout-\(layout.rawValue)"
            let lines = s.lines[section] ?? []
            #expect(s.status[section] == 0, "\(layout): \(lines)")
            #expect(lines.contains { $0.hasPrefix("DEVICE /dev/input/event") && $0.hasSuffix(" scand keyboard wedge") }, "\(lines)")
            #expect(!lines.contains("DROPPED"), "\(layout): the key reader fell behind and the kernel dropped events: \(lines)")
            let events = Self.events(lines)
            let text = KeyboardLayout.named(layout).decode(events)
            // Each typable code once, Enter after it, in whichever order the camera saw them; the third not at all.
            #expect(
                text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init).sorted() == typed.sorted()
                    && text.hasSuffix("\n"),
                "\(layout): typed \(text.debugDescription)")
            // Every press released, no modifier left down.
            #expect(events.filter(\.pressed).count == events.filter { !$0.pressed }.count)
            #expect(lines.contains("active"))
            // By hand, independent of the table: a key of each layout by its evdev code.
            switch layout {
            case .us: #expect(Self.contains(events, [(42, true), (3, true), (3, false), (42, false)]), "@ is Shift+KEY_2")
            case .uk: #expect(Self.contains(events, [(42, true), (4, true), (4, false), (42, false)]), "£ is Shift+KEY_3")
            case .de: #expect(Self.contains(events, [(41, true), (41, false), (57, true), (57, false)]), "^ is dead KEY_GRAVE, then space")
            case .fr: #expect(Self.contains(events, [(26, true), (26, false), (18, true), (18, false)]), "ê is dead KEY_LEFTBRACE, then KEY_E")
            }
        }
        let log = (s.lines["log"] ?? []).joined(separator: "\n")
        #expect(log.contains("the de layout cannot type 'ñ' (U+00F1); nothing of it was typed"), "\(log)")
        #expect(log.contains("the us layout cannot type 'é' (U+00E9)") && log.contains("the fr layout cannot type 'Ç' (U+00C7)"), "\(log)")
        #expect(log.contains("resuming after {\"boot\":"), "restarted for the next layout, from its state file: \(log)")
        let security = try #require(s.lines["security"]?.first { $0.contains("Overall exposure level") }, "\(s.lines["security"] ?? [])")
        let score = Double(security.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
        #expect(score <= 2.0, "\(security)")
        #expect(s.lines["end"] != nil, "the guest script did not finish: \(text)")
    }
}
