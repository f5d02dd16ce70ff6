import Foundation
import ScandTestSupport
import Testing

/// Issue 32, 4: a client run by a user other than root finds the packaged daemon's socket
/// (/run/scand/scand.sock) when that user is in the socket's group, and says which paths it tried, and why
/// each failed, when no daemon answers. The real daemon serves the system path; the clients run as nobody
/// (setpriv), with their own $XDG_RUNTIME_DIR holding no daemon.
@Suite(.serialized) struct DaemonSocketEndToEndTests {
    static let systemSocket = "/run/scand/scand.sock"
    static var canRun: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && !FileManager.default.fileExists(atPath: systemSocket)
    }

    let dir = ScandBinary.temporaryDirectory()
    /// /run/scand is removed after a test that made it (the daemon makes its socket's directory).
    let runDirectoryExisted = FileManager.default.fileExists(atPath: "/run/scand")

    func stop(_ daemon: DaemonProcess) {
        daemon.signal(SIGTERM)
        _ = daemon.finish()
        guard !runDirectoryExisted else { return }
        unlink(Self.systemSocket + ".lock")  // the daemon's claim on the path, which it leaves
        rmdir("/run/scand")
    }

    /// `scand ARGS` as uid/gid 65534 (nobody, nogroup) with no supplementary group but `groups`.
    func asNobody(_ arguments: [String], groups: [String] = []) throws -> ScandBinary.Result {
        let runtime = dir + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(dir, 0o755)
        chmod(runtime, 0o777)
        let membership = groups.isEmpty ? ["--clear-groups"] : ["--groups=" + groups.joined(separator: ",")]
        return try ScandBinary.runTool(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534"] + membership + ["/usr/bin/env", "XDG_RUNTIME_DIR=" + runtime, ScandBinary.path] + arguments)
    }

    /// The daemon on the system path, its socket in `group`.
    func startDaemon(group: String) throws -> DaemonProcess {
        let config = dir + "/scand.toml"
        try "[socket]\npath = \"\(Self.systemSocket)\"\ngroup = \"\(group)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["run", "--config", config, "--device", dir + "/no-camera", "--state-directory", dir + "/state"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: Self.systemSocket) }, "\(daemon.stderr)")
        return daemon
    }

    @Test(.enabled(if: canRun, "needs root, setpriv and no daemon on /run/scand/scand.sock"))
    func aMemberOfTheSocketsGroupFindsThePackagedDaemon() throws {
        let daemon = try startDaemon(group: "nogroup")
        defer { stop(daemon) }
        let watch = try asNobody(["watch", "--status"])
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.hasPrefix(#"{"class":"STATUS""#), "\(watch.stdout)")
        let roi = try asNobody(["roi"])
        #expect(roi.status == 0 && roi.stdout == "0,0,1,1\n", "\(roi.stdout)\(roi.stderr)")
        // Reading is for the socket's group; setting for the admin group (none here: root only), 77 as the socket's.
        let set = try asNobody(["roi", "0.25,0.25,0.5,0.5"])
        #expect(set.status == 77 && set.stderr.contains("changing settings is for root only"), "\(set.stderr)")
    }

    @Test(.enabled(if: canRun, "needs root, setpriv and no daemon on /run/scand/scand.sock"))
    func withoutTheGroupItNamesEachPathTriedAndTheGroupToJoin() throws {
        let daemon = try startDaemon(group: "daemon")
        defer { stop(daemon) }
        for command in [["watch", "--status"], ["roi"], ["controls"]] {
            let r = try asNobody(command)
            #expect(r.status == 77, "\(command): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(command): one line: \(r.stderr)")
            let line = String(lines.first ?? "")
            #expect(line.contains(dir + "/runtime/scand.sock (no such socket)"), "\(line)")
            #expect(line.contains(Self.systemSocket + " (permission denied: join its group daemon"), "\(line)")
        }
        // In the group, the same user is served.
        let member = try asNobody(["watch", "--status"], groups: ["daemon"])
        #expect(member.status == 0, "\(member.stderr)")
    }

    @Test(.enabled(if: canRun, "needs root, setpriv and no daemon on /run/scand/scand.sock"))
    func noDaemonAnywhereIsOneLineWithEveryPath() throws {
        let r = try asNobody(["watch", "--status"])
        #expect(r.status == 69, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(dir + "/runtime/scand.sock (no such socket)"), "\(r.stderr)")
        #expect(r.stderr.contains(Self.systemSocket + " (no such socket)"), "\(r.stderr)")
        #expect(r.stderr.contains("systemctl start scand"), "\(r.stderr)")
    }
}
