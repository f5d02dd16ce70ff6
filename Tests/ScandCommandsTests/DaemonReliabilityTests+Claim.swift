import Foundation
import ScandTestSupport
import Testing

/// Issue 25, 8: daemons starting at once on one socket path.
extension DaemonReliabilityTests {
    /// The pid of the process serving `sock`, as the kernel tells (SO_PEERCRED).
    func serverPID(_ sock: String) -> Int32? {
        guard let c = SocketClient(path: sock) else { return nil }
        var cred = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var size = socklen_t(MemoryLayout.size(ofValue: cred))
        guard getsockopt(c.fd, SOL_SOCKET, 17 /* SO_PEERCRED */, &cred, &size) == 0 else { return nil }
        return cred.pid
    }

    /// 20 daemons started at once on one path: exactly one serves it, the others exit 1 saying that the path
    /// is in use; once the one left stops, nothing of any of them is left at the path but the lock file.
    @Test func ofTwentyDaemonsStartedAtOnceOnOnePathExactlyOneServesIt() throws {
        let sock = dir + "/race/scand.sock"
        let daemons = try (0..<20).map { _ in try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera"]) }
        defer { daemons.forEach { $0.signal(SIGKILL) } }
        // Every one of them was started before this wait: a loser still starting counts as running.
        #expect(daemons[0].wait(seconds: 60) { daemons.filter(\.process.isRunning).count <= 1 && FileManager.default.fileExists(atPath: sock) })
        let running = daemons.filter(\.process.isRunning)
        try #require(running.count == 1, "\(running.count) daemons running")
        for loser in daemons where loser !== running[0] {
            #expect(loser.finish() == 71, "EX_OSERR")
            #expect(loser.stderr.contains { $0.contains("\(sock) is in use: another scand") }, "\(loser.stderr)")
        }
        #expect(serverPID(sock) == running[0].process.pid, "the daemon left is the one answering")
        #expect(status(sock) != nil)
        running[0].signal(SIGTERM)
        #expect(running[0].finish() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/race") == ["scand.sock.lock"])
    }
}
