import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func unreadRepliesCountAgainstTheQueueLimit() throws {
        let sock = dir + "/replies.sock"
        let config = e2e.write("[socket]\nqueue_limit = 16\n", "replies.toml")
        let daemon = try DaemonProcess(["run", "--config", config, "--socket", sock, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let greedy = try #require(SocketClient(path: sock))
        // 20,000 pipelined requests, never a reply read: 8 MB of STATUS if nothing bounded them.
        greedy.send(String(repeating: "?STATUS;\n", count: 20_000))
        #expect(daemon.wait { daemon.stderr.contains { $0.contains("stopped reading") && $0.contains("disconnected") } }, "\(daemon.stderr)")
        let line = try #require(status(sock))
        #expect(number("clientsDropped", in: line) == 1, "\(line)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }

    @Test func idleConnectionsAreClosedAndOneUserCannotTakeEverySlot() throws {
        let sock = dir + "/slots.sock"
        let config = e2e.write("[socket]\nrequest_timeout = 0.5\nmax_clients_per_uid = 2\n", "slots.toml")
        let daemon = try DaemonProcess(["run", "--config", config, "--socket", sock, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        // A connection that never asks is told why and closed.
        let idle = try #require(SocketClient(path: sock))
        #expect(idle.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true)
        let reason = try #require(idle.readLine())
        #expect(reason.hasPrefix(#"{"class":"ERROR""#) && reason.contains("no request within 0.5 s"), "\(reason)")
        #expect(idle.readLine() == nil)
        // Two watchers of this uid hold its two slots: a third connection is refused with the reason.
        let a = try #require(SocketClient(path: sock)), b = try #require(SocketClient(path: sock))
        for c in [a, b] {
            _ = c.readLine()
            c.send("?WATCH;\n")
            #expect(c.readLine()?.hasPrefix(#"{"class":"WATCH""#) == true)
        }
        for arguments in [["watch", "--socket", sock, "--status"], ["watch", "--socket", sock]] {
            let refused = try ScandBinary.run(arguments)
            #expect(refused.status == 75, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("scand refused the connection: too many connections from uid \(getuid())"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        b.send("?STATUS;\n")
        let line = try #require(b.read { $0.hasPrefix(#"{"class":"STATUS""#) })
        withExtendedLifetime(a) {}
        #expect(number("clientsRefused", in: line) == 2 && number("clientsTimedOut", in: line) == 1, "\(line)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
        #expect(daemon.stderr.filter { $0.contains("refused: too many connections") }.count == 1, "rate-limited: \(daemon.stderr)")
    }

    @Test func aSecondDaemonOnTheSamePathIsRefusedAndTheFirstKeepsItsSocket() throws {
        let sock = dir + "/owned.sock"
        let first = try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera"])
        #expect(first.wait { FileManager.default.fileExists(atPath: sock) })
        let second = try ScandBinary.run(["run", "--socket", sock, "--device", dir + "/no-camera"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("\(sock) is in use: another scand"), "\(second.stderr)")
        #expect(status(sock) != nil, "the first one still serves its clients")
        // Killed, the first one leaves a stale file behind: the next daemon replaces it.
        first.signal(SIGKILL)
        _ = first.finish()
        #expect(FileManager.default.fileExists(atPath: sock))
        let third = try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera"])
        #expect(third.wait { self.status(sock) != nil })
        // Someone else's socket put at the path since is not removed when this daemon exits.
        unlink(sock)
        let other = try #require(boundSocket(sock, type: SOCK_STREAM))
        defer { close(other) }
        third.signal(SIGTERM)
        #expect(third.finish() == 0)
        #expect(FileManager.default.fileExists(atPath: sock), "not scand's socket any more: left alone")
    }
}
