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
        #expect(second.status == 71, "EX_OSERR")
        #expect(second.stderr.contains("\(sock) is in use: another scand"), "\(second.stderr)")
        #expect(second.stdout.isEmpty, "no VERSION from a daemon that does not run: \(second.stdout)")
        #expect(status(sock) != nil, "the first one still serves its clients")
        // Killed, the first one leaves a stale file behind: the next daemon replaces it.
        first.signal(SIGKILL)
        _ = first.finish()
        #expect(FileManager.default.fileExists(atPath: sock))
        let third = try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera"])
        #expect(third.wait { self.status(sock) != nil })
        // Someone else's socket put at the path since is not removed when this daemon exits.
        unlink(sock)
        let other = try #require(UnixSocket.bound(sock, type: SOCK_STREAM))
        defer { close(other) }
        third.signal(SIGTERM)
        #expect(third.finish() == 0)
        #expect(FileManager.default.fileExists(atPath: sock), "not scand's socket any more: left alone")
    }
}

extension DaemonReliabilityTests {
    /// 200 clients connecting at once, non-blocking (a connect that finds the listen queue full fails with
    /// EAGAIN): every one is accepted and greeted.
    @Test func aBurstOfTwoHundredConnectsIsEveryOneGreeted() throws {
        let sock = dir + "/burst.sock"
        let config = e2e.write("[socket]\nmax_clients = 256\nmax_clients_per_uid = 256\n", "burst.toml")
        let daemon = try DaemonProcess(["run", "--config", config, "--socket", sock, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        var fds: [Int32] = []
        var failures: [String] = []
        for _ in 0..<200 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let e = UnixSocket.connect(fd, to: sock)
            if e != 0 { failures.append(String(cString: strerror(e))) }
            fds.append(fd)
        }
        defer { fds.forEach { close($0) } }
        #expect(failures.isEmpty, "\(failures.count) connects failed: \(Set(failures))")
        // Each socket's first line, read as it arrives.
        var greeted = 0
        var pending = [Int32: [UInt8]]()
        var open = Set(fds)
        Eventually.wait(seconds: 20, poll: .zero) {  // poll(2) itself waits for the next greeting
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 1000) > 0 else { return open.isEmpty }
            for p in polls where p.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { read(p.fd, $0.baseAddress, $0.count) }
                guard n > 0 else { open.remove(p.fd); continue }
                pending[p.fd, default: []] += chunk[..<n]
                if let nl = pending[p.fd]!.firstIndex(of: 10) {
                    if String(decoding: pending[p.fd]![..<nl], as: UTF8.self).hasPrefix(#"{"class":"VERSION""#) { greeted += 1 }
                    open.remove(p.fd)
                }
            }
            return open.isEmpty
        }
        #expect(greeted == 200)
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }
}

extension DaemonReliabilityTests {
    /// Issue 31, 1: one `?WATCH` with a `since` at seq 2^63 − 1 stopped the daemon (SIGILL: `seq + 1` overflowed in the
    /// replay's start). Numbers near 2^63 in any request are now one-line ERRORs, and the daemon goes on serving.
    @Test func numbersNearTwoToTheSixtyThreeAreOneLineErrorsNotACrash() throws {
        let sock = dir + "/huge-numbers.sock", state = dir + "/huge-numbers-state"
        let daemon = try DaemonProcess(["run", "--socket", sock, "--state-directory", state, "--device", dir + "/no-camera"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = try #require(SocketClient(path: sock))
        let version = try #require(client.readLine())
        let boot = try #require(version.range(of: #""boot":""#).map { String(version[$0.upperBound...].prefix(32)) })
        for request in [
            #"?WATCH={"since":{"boot":"\#(boot)","seq":9223372036854775807}};"#,
            #"?WATCH={"since":{"boot":"0123456789abcdef0123456789abcdef","seq":9223372036854775807}};"#,
            #"?WATCH={"since":{"boot":"\#(boot)","seq":9223372036854775808}};"#,
            #"?WATCH={"since":{"boot":"\#(boot)","seq":-9223372036854775808}};"#,
            #"?ROI={"x":9223372036854775807,"y":0,"w":1,"h":1};"#,
            #"?ROI={"x":1e308,"y":0,"w":1e308,"h":1};"#,
            #"?CONTROLS={"set":[{"name":"brightness","value":9223372036854775807}]};"#
        ] {
            client.send(request + "\n")
            let answer = try #require(client.readLine(), "no answer to \(request): \(daemon.stderr)")
            #expect(answer.hasPrefix(#"{"class":"ERROR""#), "\(request): \(answer)")
        }
        client.send("?STATUS;\n")
        #expect(client.read { $0.hasPrefix(#"{"class":"STATUS""#) } != nil, "the daemon serves on: \(daemon.stderr)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }
}
