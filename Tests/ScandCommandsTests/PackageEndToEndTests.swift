import Foundation
import Testing
import ScandTestSupport

/// The .deb, proven on a booted Debian 12: `scripts/package` builds it (release build, Swift runtime and
/// zxing-cpp linked statically), lintian checks it, and `scripts/vm/run-in-debian-vm` boots a Debian 12 root
/// built with debootstrap (systemd as PID 1, the vivid camera, no Swift, no network), where
/// `scripts/vm/package-e2e-guest.sh` installs it with apt and drives the service, reboots, upgrades to a newer
/// build and purges.
@Suite(.serialized) struct PackageEndToEndTests {
    static let root = VividEndToEndTests.root
    static func executable(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
    static var canPackage: Bool {
        ["/usr/bin/dpkg-deb", "/usr/bin/dpkg-shlibdeps", "/usr/bin/dpkg-gencontrol", "/usr/bin/lintian"].allSatisfy(executable)
    }
    static var canBoot: Bool {
        executable("/usr/bin/qemu-system-x86_64") && executable("/usr/sbin/debootstrap") && (getuid() == 0 || executable("/usr/bin/sudo"))
    }

    /// Built once for both tests: the .deb's path, or scripts/package's output when it failed.
    static let built: (deb: String?, log: String) = {
        let out = ScandBinary.temporaryDirectory()
        guard let r = try? ScandBinary.runTool(root.appendingPathComponent("scripts/package").path, ["--output", out]) else {
            return (nil, "scripts/package did not start")
        }
        let deb = r.lines.last ?? ""
        return (r.status == 0 && deb.hasSuffix(".deb") ? deb : nil, r.stdout + r.stderr)
    }()

    /// The same build stamped as a newer version (`scripts/package --version`), for `apt upgrade`.
    static func upgrade(of deb: String, into dir: String) throws -> String {
        let version = try field(deb, "Version") + "+e2e1"
        let r = try ScandBinary.runTool(root.appendingPathComponent("scripts/package").path, ["--output", dir, "--version", version])
        guard r.status == 0, let path = r.lines.last, path.hasSuffix("_\(version)_amd64.deb") else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "scripts/package --version failed: \(r.stdout)\(r.stderr)"])
        }
        return path
    }

    /// `journal: "state":"on",…,"first":1,"last":42,…` (the guest's journal_span) as (first, last).
    static func span(_ lines: [String]?) -> (first: Int, last: Int)? {
        guard let line = lines?.last(where: { $0.hasPrefix("journal: ") && $0.contains(#""state":"on""#) }) else { return nil }
        func number(_ key: String) -> Int? {
            guard let r = line.range(of: #""\#(key)":"#) else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        guard let first = number("first"), let last = number("last") else { return nil }
        return (first, last)
    }

    /// What the booted root gets from Debian beforehand, the guest having no network: the package's Depends,
    /// and python3-evdev for the wedge's test. One list for both VM tests, so that debian-root builds their
    /// root once (about 5 minutes under debootstrap) rather than once for each.
    static func guestPackages(_ deb: String) throws -> String {
        let depends = try field(deb, "Depends").split(separator: ",").map {
            $0.split(separator: "|")[0].split(separator: "(")[0].trimmingCharacters(in: .whitespaces)
        }
        return (depends + ["python3-evdev"]).joined(separator: ",")
    }

    static func field(_ deb: String, _ name: String) throws -> String {
        try ScandBinary.runTool("/usr/bin/dpkg-deb", ["-f", deb, name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: canPackage, "needs dpkg-dev and lintian (scripts/install-deps --tests)"), .timeLimit(.minutes(60)))
    func packageHasWhatDebianExpects() throws {
        let deb = try #require(Self.built.deb, "\(Self.built.log)")
        let size = (try FileManager.default.attributesOfItem(atPath: deb)[.size] as? Int) ?? .max
        #expect(size <= 40 << 20, "\(size) bytes")

        // One version: the one the VERSION event reports.
        let version = try ScandBinary.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.field(deb, "Version") == version)
        #expect(deb.hasSuffix("/scand_\(version)_amd64.deb"))

        // Depends: Debian 12 libraries only, computed; neither Swift nor zxing-cpp is needed at run time.
        let depends = try Self.field(deb, "Depends")
        #expect(depends.contains("libc6 (>=") && depends.contains("libv4l-0") && depends.contains("systemd"), "\(depends)")
        #expect(depends.contains("libmosquitto1") && depends.contains("libsqlite3-0"), "scand mqtt and the journal: \(depends)")
        #expect(!depends.localizedCaseInsensitiveContains("swift") && !depends.localizedCaseInsensitiveContains("zxing"), "\(depends)")

        let listing = try ScandBinary.runTool("/usr/bin/dpkg-deb", ["--contents", deb]).stdout
        for path in [
            "./usr/bin/scand", "./usr/libexec/scand/scand-decoder", "./lib/systemd/system/scand.service", "./lib/systemd/system/scand.socket",
            "./lib/systemd/system/scand-mqtt.service", "./lib/systemd/system/scand-web.service", "./lib/systemd/system/scand-wedge.service",
            "./lib/udev/rules.d/70-scand-wedge.rules",
            "./etc/scand/scand.toml", "./etc/scand/web.toml", "./usr/lib/sysusers.d/scand.conf", "./usr/share/man/man8/scand.8.gz",
            "./usr/share/man/man5/scand.toml.5.gz", "./usr/share/man/man5/scand-json.5.gz", "./usr/share/bash-completion/completions/scand",
            "./usr/share/zsh/vendor-completions/_scand", "./usr/share/fish/vendor_completions.d/scand.fish",
            "./usr/share/doc/scand/copyright", "./usr/share/doc/scand/changelog.gz"
        ] {
            #expect(listing.contains(" \(path)\n") || listing.hasSuffix(" \(path)"), "\(path) missing")
        }
        let control = ScandBinary.temporaryDirectory()
        #expect(try ScandBinary.runTool("/usr/bin/dpkg-deb", ["--control", deb, control]).status == 0)
        #expect(try String(contentsOfFile: control + "/conffiles", encoding: .utf8) == "/etc/scand/scand.toml\n/etc/scand/web.toml\n")
        let copyright = try ScandBinary.runTool("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./usr/share/doc/scand/copyright"])
            .stdout
        #expect(copyright.contains("zxing-cpp") && copyright.contains("Apache-2.0") && copyright.contains("stb_easy_font"))
        let unit = try ScandBinary.runTool("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./lib/systemd/system/scand.service"])
            .stdout
        #expect(unit.contains("ExecStart=/usr/bin/scand run"))
        #expect(unit.contains("\nStateDirectory=scand\n"), "the journal and the rect of interest outlive a restart")
        let webUnit = try ScandBinary.runTool(
            "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./lib/systemd/system/scand-web.service"]
        ).stdout
        #expect(webUnit.contains("ExecStart=/usr/bin/scand web --config /etc/scand/web.toml"))
        let sysusers = try ScandBinary.runTool("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./usr/lib/sysusers.d/scand.conf"])
            .stdout
        #expect(
            sysusers.contains("g scand-clients -") && sysusers.contains("g scand-admin -") && sysusers.contains("g scand-uinput -"), "\(sysusers)")
        let rule = try ScandBinary.runTool(
            "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./lib/udev/rules.d/70-scand-wedge.rules"]
        ).stdout
        #expect(rule.contains(#"KERNEL=="uinput""#) && rule.contains(#"GROUP="scand-uinput", MODE="0660""#), "\(rule)")

        // lintian: no error and no warning (overrides, each with its reason, are in packaging/debian).
        let lintian = try ScandBinary.runTool("/usr/bin/lintian", ["--tag-display-limit", "0", deb])
        let complaints = lintian.lines.filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(complaints.isEmpty, "\(lintian.stdout)\(lintian.stderr)")
    }

    @Test(
        .enabled(if: canPackage && canBoot, "needs qemu-system-x86 and debootstrap, run as root (scripts/install-deps --tests)"),
        .timeLimit(.minutes(60)))
    func installsAndServesOnBootedDebian() throws {
        let deb = try #require(Self.built.deb, "\(Self.built.log)")
        let dir = ScandBinary.temporaryDirectory()
        let upgrade = try Self.upgrade(of: deb, into: dir + "/upgrade")
        // Three scenes, each a QR code left and right (payloads name the scene and the side).
        var inputs = [deb, dir + "/upgrade"]
        for scene in ["a", "b", "c"] {
            let path = "\(dir)/frames-\(scene).raw"
            let synth = try ScandBinary.run([
                "synth", "--raw", "--frames", "2", "--size", "1280x720", "--module-size", "4",
                "--code", "QRCode:frames-\(scene) left@0.25,0.5", "--code", "QRCode:frames-\(scene) right@0.75,0.5", path
            ])
            #expect(synth.status == 0, "\(synth.stderr)")
            inputs.append(path)
        }
        let started = Date()
        let vm = try ScandBinary.runTool(
            Self.root.appendingPathComponent("scripts/vm/run-in-debian-vm").path,
            ["--timeout", "1500", "--include", try Self.guestPackages(deb)] + inputs.flatMap { ["--file", $0] }
                + [Self.root.appendingPathComponent("scripts/vm/package-e2e-guest.sh").path])
        let text = vm.stdout
        print(
            "package end-to-end: VM wall time \(Int(Date().timeIntervalSince(started))) s; "
                + (text.split(separator: "\n").first { $0.hasPrefix("=== timing") } ?? "no timing")
                + text.split(separator: "\n").filter { $0.contains("unnoticed") }.map { "; " + $0 }.joined())
        #expect(vm.status == 0, "\(text)\n\(vm.stderr)")
        let s = VividEndToEndTests.Sections(text)
        func texts(_ section: String) -> Set<String> {
            Set(s.events(section).filter { $0["class"] as? String == "SCAN" }.compactMap { $0["text"] as? String })
        }

        // apt installs it offline and the service is up, enabled, socket-activated; a SCAN follows.
        #expect(s.status["install"] == 0, "\(s.lines["install"] ?? [])")
        let state = s.lines["state"] ?? []
        #expect(Array(state.prefix(4)) == ["active", "active", "enabled", "enabled"], "\(state)")
        #expect(state.contains("srw-rw---- scand-clients /run/scand/scand.sock"), "\(state)")
        #expect(!texts("first").isEmpty, "\(s.lines["first"] ?? [])")

        // A member of scand-clients subscribes and gets the new scene's codes; anyone else is refused.
        #expect(texts("member") == ["frames-b left", "frames-b right"], "\(s.lines["member"] ?? [])")
        #expect(s.status["outsider"] == 77, "\(s.lines["outsider"] ?? [])")
        #expect((s.lines["outsider"] ?? []).contains { $0.contains("permission denied") })

        // reload: the same process now decodes only the right half.
        #expect(s.status["reload"] == 0)
        #expect(
            (s.lines["reload"] ?? []).contains("configuration reloaded") && (s.lines["reload"] ?? []).contains("same-pid yes"),
            "\(s.lines["reload"] ?? [])")
        #expect(texts("reload") == ["frames-c right"], "\(s.lines["reload"] ?? [])")

        // The state directory: where the start-up line says, a DynamicUser's, with the journal in it.
        let persisted = s.lines["persisted"] ?? []
        #expect(
            persisted.contains {
                // The first start after the install: the journal is new and empty.
                $0.hasPrefix("state directory /var/lib/scand: event journal /var/lib/scand/journal.sqlite (empty)")
                    && $0.hasSuffix("a rect of interest set over the socket is kept in /var/lib/scand/roi")
            }, "\(persisted)")
        #expect(persisted.contains("private/scand") && persisted.contains("journal.sqlite"), "\(persisted)")

        // A rect set over the socket, and a client cut off across a restart that comes back with since.
        let leftHalf = #""class":"ROI","roi":[0,0,0.5,1]"#
        #expect((s.lines["roi"] ?? []).contains { $0.contains(leftHalf) }, "\(s.lines["roi"] ?? [])")
        let cutOff = try #require((s.lines["roi"] ?? []).first { $0.hasPrefix("cut-off ") }?.split(separator: " "), "\(s.lines["roi"] ?? [])")
        #expect(s.status["restart"] == 0)
        let restart = s.lines["restart"] ?? []
        #expect(restart.contains("active") && restart.contains("new-pid yes"), "\(restart)")
        #expect(restart.contains { $0.contains(leftHalf) }, "the rect set over the socket outlived the restart: \(restart)")
        let replayed = s.events("since").filter { $0["seq"] != nil }
        let after = (Int(cutOff[2]) ?? 0) + 1
        #expect(replayed.map { $0["seq"] as? Int ?? 0 } == Array(after..<after + replayed.count), "every event after the cut-off once, in order")
        #expect(replayed.contains { $0["text"] as? String == "frames-a left" && $0["replayed"] as? Bool == true }, "\(s.lines["since"] ?? [])")
        #expect(texts("since").isSubset(of: ["frames-b left", "frames-a left"]), "the left half only: \(texts("since"))")
        let spans = ["persisted", "restart", "reboot", "rebooted", "upgrade"].map { Self.span(s.lines[$0]) }
        #expect(spans.allSatisfy { $0?.first == 1 }, "one journal from the install on: \(spans)")
        let lasts = spans.map { $0?.last ?? 0 }
        #expect(lasts == lasts.sorted() && lasts.first! < lasts.last!, "the journal grows: \(lasts)")

        // unplug and replug: lost, back, scanning; the service never stopped.
        let unplug = s.events("unplug")
        let lostAt = try #require(
            unplug.firstIndex { $0["state"] as? String == "lost" },
            "\(s.lines["unplug"] ?? [])\n\((s.lines["journal"] ?? []).joined(separator: "\n"))")
        let backAt = try #require(
            unplug.indices.first { $0 > lostAt && unplug[$0]["state"] as? String == "streaming" },
            "\(s.lines["unplug"] ?? [])")
        #expect(unplug[backAt...].contains { $0["class"] as? String == "SCAN" && $0["text"] as? String == "frames-c left" })
        #expect(s.lines["unplug"]?.last { !$0.isEmpty } == "active")

        // A reboot: the service is back from boot on, with its journal and its rect; since from before it.
        let rebooted = s.lines["rebooted"] ?? []
        #expect(Array(rebooted.prefix(2)) == ["active", "active"], "\(rebooted)")
        #expect(rebooted.contains { $0.hasPrefix("state directory /var/lib/scand: event journal") } && rebooted.contains("journal.sqlite"))
        #expect(rebooted.contains { $0.contains(leftHalf) }, "\(rebooted)")
        let beforeReboot = try #require(rebooted.first { $0.hasPrefix("since ") }?.split(separator: " "))
        let afterReboot = s.events("rebooted").filter { $0["seq"] != nil }
        #expect((afterReboot.first?["seq"] as? Int) == (Int(beforeReboot[2]) ?? 0) + 1, "\(rebooted)")
        #expect(afterReboot.contains { $0["text"] as? String == "frames-b left" }, "\(rebooted)")

        // apt upgrade to a newer build: the edited conffile and the journal are kept.
        #expect(s.status["upgrade"] == 0, "\(s.lines["upgrade"] ?? [])")
        let upgraded = s.lines["upgrade"] ?? []
        let newVersion = try Self.field(upgrade, "Version")
        #expect(upgraded.contains("version \(newVersion)"), "\(upgraded)")
        #expect(upgraded.contains("roi = [0.5, 0.0, 0.5, 1.0]"), "the admin's edit stays: \(upgraded)")
        #expect(!upgraded.contains { $0.contains(".dpkg-") }, "\(upgraded)")
        let beforeUpgrade = try #require(upgraded.first { $0.hasPrefix("since ") }?.split(separator: " "))
        let afterUpgrade = s.events("upgrade").filter { $0["seq"] != nil }
        #expect((afterUpgrade.first?["seq"] as? Int) == (Int(beforeUpgrade[2]) ?? 0) + 1, "\(upgraded)")
        #expect(afterUpgrade.contains { $0["text"] as? String == "frames-c left" }, "\(upgraded)")

        // Hardening as the booted system rates it.
        let security = try #require(s.lines["security"]?.first { $0.contains("Overall exposure level") }, "\(s.lines["security"] ?? [])")
        let score = Double(security.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
        #expect(score <= 2.0, "\(security)")

        // purge: nothing named scand is left (the state in /var/lib/private neither); the group stays, as
        // Debian policy keeps system groups.
        #expect(s.status["purge"] == 0)
        let purge = (s.lines["purge"] ?? []).filter { !$0.isEmpty }
        #expect(purge.first { $0.hasPrefix("package:") } == "package: not-installed" || purge.contains("package: none"), "\(purge)")
        #expect(purge.contains("units: 0") && purge.contains("processes: 0"), "\(purge)")
        #expect(purge.contains { $0.hasPrefix("scand-clients:") }, "\(purge)")
        #expect(purge.filter { $0.hasPrefix("/") }.isEmpty, "left after purge: \(purge)")
        #expect(s.lines["end"] != nil, "the guest script did not finish: \(text)")
    }
}
