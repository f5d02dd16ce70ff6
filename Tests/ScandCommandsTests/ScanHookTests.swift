import Foundation
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandCommands

/// `scand watch --exec`'s command as a process: what it inherits, and how it is ended with all it started.
@Suite struct ScanHookTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "scanhook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    static let scan = try! EventDecoder.decode(
        #"{"class":"SCAN","boot":"0123456789abcdef0123456789abcdef","seq":4,"id":7,"device":"/dev/video0","format":"EAN-13","text":"x"}"#)

    func run(_ command: String, timeout: Duration = .seconds(30), grace: Duration = .seconds(30)) async -> ScanHook.Outcome {
        await ScanHook(command: command, shell: true, timeout: timeout, grace: grace).run(for: Self.scan.code!, line: Self.scan)
    }

    /// Alive: neither gone nor a zombie waiting for its new parent to reap it.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let state = stat.split(separator: ")").last?.split(separator: " ").first
        else { return false }
        return state != "Z" && state != "X"
    }

    struct NoPid: Error {}

    func pid(in file: String) throws -> pid_t {
        guard let pid = pid_t(try String(contentsOfFile: dir + "/" + file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw NoPid()
        }
        return pid
    }

    /// The watcher's descriptors (its daemon connection, its event loop's) are not the command's, even one
    /// open without close-on-exec: a background child of the command would keep them open past the watch.
    @Test func theCommandInheritsNothingButStdinStdoutAndStderr() async throws {
        let held = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, as some of the watcher's are
        #expect(held > 2)
        defer { close(held) }
        // sleep opens nothing of its own (a shell or ls would): what it holds, it inherited.
        let hook = ScanHook(command: "sleep 1000.125", shell: false, timeout: .seconds(60), grace: .seconds(1))
        let run = Task { await hook.run(for: Self.scan.code!, line: Self.scan) }
        var child: pid_t?
        #expect(
            await Eventually.check(seconds: 60) {
                child = Self.child(running: ["sleep", "1000.125"]); return child != nil
            })
        // Just after its exec the command's dynamic loader holds a library open for a moment (seen as fd 3): an
        // inherited descriptor stays, so the command must come to hold only these three.
        let pid = try #require(child)
        var fds: [Int] = []
        let onlyThree = await Eventually.check(seconds: 10) {
            fds = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { Int($0) }.sorted()
            return fds == [0, 1, 2]
        }
        run.cancel()
        #expect(await run.value == .signalled(SIGTERM))
        #expect(onlyThree, "\(fds)")
    }

    /// This process's child with this command line.
    static func child(running arguments: [String]) -> pid_t? {
        let wanted = arguments.joined(separator: "\0") + "\0"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
                String(decoding: cmdline, as: UTF8.self) == wanted, getpgid(pid) == pid,
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1, pid_t(fields[1]) == getpid()
            else { continue }
            return pid
        }
        return nil
    }

    /// The command ends at SIGTERM, a child of it that ignores SIGTERM does not: it is killed with the
    /// command's group as soon as the command has ended, not left running (and not after the whole grace).
    @Test func aTimedOutCommandIsEndedWithAChildThatIgnoresSIGTERM() async throws {
        let started = ContinuousClock.now
        // A grace far longer than a loaded test process may take to run the steps (25 s seen in the in-process
        // phase, its cooperative threads busy with other suites' blocking waits).
        let outcome = await run(
            "(trap '' TERM; exec sleep 1000) & echo $! > \(dir)/child; wait", timeout: .milliseconds(300), grace: .seconds(300))
        #expect(outcome == .timedOut(.milliseconds(300)))
        #expect(ContinuousClock.now - started < .seconds(150), "SIGKILL came at the command's end, not after the grace")
        let child = try pid(in: "child")
        #expect(await Eventually.check(seconds: 60) { !Self.isAlive(child) }, "the child ignoring SIGTERM was killed")
        if Self.isAlive(child) { kill(child, SIGKILL) }
    }

    /// A command that ignores SIGTERM itself is killed after the grace, with what it left in the background.
    @Test func aCommandIgnoringSIGTERMIsKilledWithItsBackgroundChildAfterTheGrace() async throws {
        let outcome = await run(
            "trap '' TERM; sleep 1000 & echo $! > \(dir)/child; wait", timeout: .milliseconds(200), grace: .milliseconds(300))
        #expect(outcome == .timedOut(.milliseconds(200)))
        let child = try pid(in: "child")
        #expect(await Eventually.check(seconds: 60) { !Self.isAlive(child) })
        if Self.isAlive(child) { kill(child, SIGKILL) }
    }

    /// Issue 48: a child that left the command's process group with setsid survived the timeout.
    @Test func aChildThatCalledSetsidIsEndedWithTheCommand() async throws {
        let outcome = await run("setsid sleep 1000 & echo $! > \(dir)/child; wait", timeout: .milliseconds(300), grace: .seconds(300))
        #expect(outcome == .timedOut(.milliseconds(300)))
        let child = try pid(in: "child")
        #expect(getsid(child) == child || !Self.isAlive(child), "the child has a session of its own")
        #expect(await Eventually.check(seconds: 60) { !Self.isAlive(child) }, "the setsid child outlived the command")
        if Self.isAlive(child) { kill(child, SIGKILL) }
    }

    /// A watch that ends while a command runs ends the command and its group too.
    @Test func aCancelledRunEndsTheCommandsGroup() async throws {
        let run = Task { await self.run("sleep 1000 & echo $! > \(dir)/child; wait", grace: .milliseconds(300)) }
        #expect(await Eventually.check(seconds: 60) { (try? pid(in: "child")) != nil })
        run.cancel()
        #expect(await run.value == .signalled(SIGTERM))
        let child = try pid(in: "child")
        #expect(await Eventually.check(seconds: 60) { !Self.isAlive(child) })
        if Self.isAlive(child) { kill(child, SIGKILL) }
    }
}
