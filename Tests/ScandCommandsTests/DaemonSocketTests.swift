import Foundation
import ScandClient
import ScandTestSupport
import Testing

@testable import ScandCommands

/// Which socket a client picks when nothing names one, on real Unix sockets: one that listens, one left
/// behind by a daemon that stopped (bound, nothing listening), and none at all.
@Suite struct DaemonSocketTests {
    let dir = ScandBinary.temporaryDirectory()

    /// A Unix socket bound at `path`, listening or not; closed when the test ends with the returned fd.
    func socketFile(_ path: String, listening: Bool) throws -> Int32 {
        let fd = try #require(UnixSocket.bound(path, type: SOCK_STREAM), "socket at \(path)")
        try #require(!listening || listen(fd, 4) == 0, "socket at \(path) listening")
        return fd
    }

    @Test func theFirstThatAnswersIsUsed() throws {
        let missing = dir + "/missing.sock", stale = dir + "/stale.sock", live = dir + "/live.sock"
        let staleFD = try socketFile(stale, listening: false), liveFD = try socketFile(live, listening: true)
        defer { [staleFD, liveFD].forEach { close($0) } }
        #expect(DaemonSocket.probe(missing) == .missing)
        #expect(DaemonSocket.probe(stale) == .refused)
        #expect(DaemonSocket.probe(live) == .answers)
        #expect(try DaemonSocket(candidates: [missing, stale, live]).resolve() == live)
        #expect(DaemonSocket(candidates: [missing, stale, live]).waitingPath() == live)
    }

    @Test func noneAnsweringNamesEachPathAndWhy() throws {
        let missing = dir + "/missing.sock", stale = dir + "/stale.sock"
        let staleFD = try socketFile(stale, listening: false)
        defer { close(staleFD) }
        let sockets = DaemonSocket(candidates: [missing, stale])
        #expect(throws: DaemonError.self) { try sockets.resolve() }
        do { _ = try sockets.resolve() } catch {
            guard case .unreachable(let message, .notRunning) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains("\(missing) (no such socket)"), "\(message)")
            #expect(message.contains("\(stale) (nothing listens there)"), "\(message)")
            #expect(!message.contains("\n"))
        }
        // A client that waits for the daemon waits where a socket file is.
        #expect(sockets.waitingPath() == stale)
        #expect(DaemonSocket(candidates: [missing, dir + "/other.sock"]).waitingPath() == missing)
    }

    @Test func rootHasTheSystemSocketAndAUserTheirsFirst() {
        #expect(DaemonSocket(euid: 0, environment: ["XDG_RUNTIME_DIR": "/run/user/0"]).candidates == ["/run/scand/scand.sock"])
        #expect(
            DaemonSocket(euid: 1000, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).candidates == [
                "/run/user/1000/scand.sock", "/run/scand/scand.sock"
            ])
        #expect(DaemonSocket(euid: 1000, environment: [:]).candidates == ["/tmp/scand-1000.sock", "/run/scand/scand.sock"])
    }
}
