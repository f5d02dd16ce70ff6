import Foundation
import Testing
import ScandTestSupport

/// The .deb, proven on a booted Debian 12: `scripts/package` builds it (release build, Swift runtime and
/// zxing-cpp linked statically), lintian checks it, and `scripts/vm/run-in-debian-vm` boots a Debian 12 root
/// built with debootstrap (systemd as PID 1, the vivid camera, no Swift, no network), where
/// `scripts/vm/package-e2e-guest.sh` installs it with apt and drives the service.
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
            "./usr/bin/scand", "./lib/systemd/system/scand.service", "./lib/systemd/system/scand.socket",
            "./lib/systemd/system/scand-mqtt.service", "./lib/systemd/system/scand-web.service",
            "./etc/scand/scand.toml", "./etc/scand/web.toml", "./usr/lib/sysusers.d/scand.conf", "./usr/share/man/man8/scand.8.gz",
            "./usr/share/man/man5/scand.toml.5.gz", "./usr/share/bash-completion/completions/scand",
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
        let webUnit = try ScandBinary.runTool(
            "/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./lib/systemd/system/scand-web.service"]
        ).stdout
        #expect(webUnit.contains("ExecStart=/usr/bin/scand web --config /etc/scand/web.toml"))
        let sysusers = try ScandBinary.runTool("/bin/sh", ["-c", "dpkg-deb --fsys-tarfile '\(deb)' | tar -xOf - ./usr/lib/sysusers.d/scand.conf"])
            .stdout
        #expect(sysusers.contains("g scand-clients -") && sysusers.contains("g scand-admin -"), "\(sysusers)")

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
        // Three scenes, each a QR code left and right (payloads name the scene and the side).
        var inputs = [deb]
        for scene in ["a", "b", "c"] {
            let path = "\(dir)/frames-\(scene).raw"
            let synth = try ScandBinary.run([
                "synth", "--raw", "--frames", "2", "--size", "1280x720", "--module-size", "4",
                "--code", "QRCode:frames-\(scene) left@0.25,0.5", "--code", "QRCode:frames-\(scene) right@0.75,0.5", path
            ])
            #expect(synth.status == 0, "\(synth.stderr)")
            inputs.append(path)
        }
        // The root gets the package's Depends from Debian beforehand: the guest has no network.
        let depends = try Self.field(deb, "Depends").split(separator: ",").map {
            $0.split(separator: "|")[0].split(separator: "(")[0].trimmingCharacters(in: .whitespaces)
        }.joined(separator: ",")
        let started = Date()
        let vm = try ScandBinary.runTool(
            Self.root.appendingPathComponent("scripts/vm/run-in-debian-vm").path,
            ["--timeout", "1500", "--include", depends] + inputs.flatMap { ["--file", $0] }
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

        // restart: a new process, scanning again (the new ROI kept).
        #expect(s.status["restart"] == 0)
        #expect((s.lines["restart"] ?? []).contains("active") && (s.lines["restart"] ?? []).contains("new-pid yes"))
        #expect(texts("restart") == ["frames-a right"], "\(s.lines["restart"] ?? [])")

        // unplug and replug: lost, back, scanning; the service never stopped.
        let unplug = s.events("unplug")
        let lostAt = try #require(
            unplug.firstIndex { $0["state"] as? String == "lost" },
            "\(s.lines["unplug"] ?? [])\n\((s.lines["journal"] ?? []).joined(separator: "\n"))")
        let backAt = try #require(
            unplug.indices.first { $0 > lostAt && unplug[$0]["state"] as? String == "streaming" },
            "\(s.lines["unplug"] ?? [])")
        #expect(unplug[backAt...].contains { $0["class"] as? String == "SCAN" && $0["text"] as? String == "frames-b right" })
        #expect(s.lines["unplug"]?.last { !$0.isEmpty } == "active")

        // Hardening as the booted system rates it.
        let security = try #require(s.lines["security"]?.first { $0.contains("Overall exposure level") }, "\(s.lines["security"] ?? [])")
        let score = Double(security.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 99
        #expect(score <= 2.0, "\(security)")

        // purge: nothing named scand is left; the group stays, as Debian policy keeps system groups.
        #expect(s.status["purge"] == 0)
        let purge = (s.lines["purge"] ?? []).filter { !$0.isEmpty }
        #expect(purge.first { $0.hasPrefix("package:") } == "package: not-installed" || purge.contains("package: none"), "\(purge)")
        #expect(purge.contains("units: 0") && purge.contains("processes: 0"), "\(purge)")
        #expect(purge.contains { $0.hasPrefix("scand-clients:") }, "\(purge)")
        #expect(purge.filter { $0.hasPrefix("/") }.isEmpty, "left after purge: \(purge)")
        #expect(s.lines["end"] != nil, "the guest script did not finish: \(text)")
    }
}
