import Foundation
import NIOConcurrencyHelpers
import ScandCore
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandSocket

/// The socket server on a real Unix socket, with events published from several threads while clients come,
/// watch and go: every watcher gets every event, each publisher's in order (and ThreadSanitizer, in the
/// test command, watches the hub, the subscribers and the channels being shared).
@Suite struct SocketServerTests {
    static func controls() -> DaemonControls {
        DaemonControls(
            status: { StatusReport(device: nil, counters: FrameCounters(), clients: ClientCounters(), stdoutDropped: 0) },
            metrics: { "" }, snapshot: { _ in Event.error("none").line }, regionOfInterest: { .full },
            setRegionOfInterest: { .regionOfInterest($0) })
    }

    /// A blocking client: connect, read the banner, watch, then read lines until `count` events came.
    static func watch(_ path: String, events count: Int) -> [String] {
        guard let client = SocketClient(path: path, seconds: 20) else { return ["connect failed"] }
        client.send("?WATCH={\"classes\":[\"DEVICE\"]};\n")
        var lines: [String] = [], events = 0
        while events < count, let line = client.readLine() {
            lines.append(line)
            if line.hasPrefix(#"{"class":"DEVICE""#) { events += 1 }
        }
        return lines
    }

    /// An open descriptor of `file` in this process, from /proc/self/fd.
    static func descriptor(of file: String) -> Int32? {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap(Int32.init).first { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == file }
    }

    /// A server stopped and claimed again in-process while a decoder process being started still shares its
    /// lock file (posix_spawn's child holds a copy of every descriptor until its exec): the lock is free at
    /// once, with no wait for the child.
    @Test func aClaimAfterAStopIsFreeWhileAChildStillSharesTheLockFile() async throws {
        let path = NSTemporaryDirectory() + "scand-reclaim-\(getpid()).sock"
        func server() -> SocketServer {
            SocketServer(
                listener: .path(path, group: ""), hub: EventHub(queueLimit: 10, maxClients: 1), maxRequestBytes: 4096,
                daemon: Self.controls(), log: .scand(write: { _, _ in }))
        }
        let first = server()
        let claim = try first.claim()
        // The child's copy: another descriptor of the same open file, still open after the stop.
        let lock = try #require(Self.descriptor(of: path + ".lock"))
        let childsCopy = dup(lock)
        defer { close(childsCopy) }
        claim.release()
        let second = server()
        let asked = ContinuousClock.now
        let again = try second.claim()
        #expect(ContinuousClock.now - asked < .milliseconds(500))
        again.release()
    }

    /// Publishing from threads of its own: the end-to-end suites' blocking tests may hold the cooperative
    /// pool for longer than the watchers wait, and only the server's start and stop need it.
    @Test func eventsFromManyThreadsReachEveryWatcherInOrder() async throws {
        let path = NSTemporaryDirectory() + "scand-server-\(getpid()).sock"
        let hub = EventHub(queueLimit: 100_000, maxClients: 16)
        let server = LocalServer(
            path: path,
            server: SocketServer(
                listener: .path(path, group: ""), hub: hub, maxRequestBytes: 4096, daemon: Self.controls(), log: .scand(write: { _, _ in })))
        try await server.start()
        let perPublisher = 400, publishers = 2
        // Watchers first, each on a thread of its own; the publishers start once all of them watch.
        let results = NIOLockedValueBox<[[String]]>([])
        let watchers = (0..<3).map { _ in
            Thread {
                let lines = Self.watch(path, events: perPublisher * publishers)
                results.withLockedValue { $0.append(lines) }
            }
        }
        watchers.forEach { $0.start() }
        await Eventually.check { hub.counters.watching >= 3 }
        let watching = hub.counters.watching
        #expect(watching == 3, "\(hub.counters) \(results.withLockedValue { $0.map { $0.prefix(3) } })")
        // A client that comes and goes while events flow.
        let passer = Thread { _ = Self.watch(path, events: 10) }
        passer.start()
        let threads = (0..<publishers).map { p in
            Thread {
                for i in 0..<perPublisher {
                    hub.publish(.device(DeviceStatus(device: "p\(p)", state: .waiting, reason: "\(i)")))
                    if i % 50 == 0 { sched_yield() }
                }
            }
        }
        threads.forEach { $0.start() }
        #expect(await Eventually.check { threads.allSatisfy(\.isFinished) })
        await Eventually.check { results.withLockedValue { $0.count } >= 3 }
        let all = results.withLockedValue { $0 }
        #expect(all.count == 3)
        for lines in all {
            let events = lines.filter { $0.hasPrefix(#"{"class":"DEVICE""#) }
            let count = events.count
            #expect(count == perPublisher * publishers, "\(lines.prefix(3))")
            for p in 0..<publishers {
                let mine = events.filter { $0.contains(#""path":"p\#(p)""#) }
                let expected = (0..<perPublisher).map { Event.device(DeviceStatus(device: "p\(p)", state: .waiting, reason: "\($0)")).line }
                let inOrder = mine == expected
                #expect(
                    inOrder,
                    "publisher \(p): \(mine.count) events, the first out of order: \(zip(mine, expected).first { $0 != $1 }.map { "\($0)" } ?? "none")"
                )
            }
        }
        #expect(hub.counters.droppedSlow == 0)
        await server.stop()
    }

    /// Whether the server ended `client`'s connection (end of stream, or reset) rather than leave it open past
    /// the client's seconds of silence.
    static func endedByServer(_ client: SocketClient) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(client.fd, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            return n == 0 || errno == ECONNRESET
        }
    }

    /// Clients that connect as the server's task is cancelled: NIO's listener drops the clients it accepted and
    /// had not handed over yet. A client's channel wrapped for serving and dropped so traps the process (NIO's
    /// writer never finished: swift-nio issue 2813; the CI run of f7f6762 crashed so); none may, and each client
    /// is closed, not left open.
    @Test func clientsComingAsTheServerIsCancelledAreClosedAndNothingTraps() async throws {
        let path = NSTemporaryDirectory() + "scand-cancelled-\(getpid()).sock"
        for round in 0..<5 {
            let server = LocalServer(
                path: path,
                server: SocketServer(
                    listener: .path(path, group: ""), hub: EventHub(queueLimit: 10, maxClients: 64), maxRequestBytes: 4096,
                    daemon: Self.controls(), log: .scand(write: { _, _ in })))
            try await server.start()
            let clients = (0..<64).compactMap { _ in SocketClient(path: path, seconds: 10) }
            await server.stop()
            let open = clients.filter { !Self.endedByServer($0) }.count
            #expect(open == 0, "round \(round): \(open) of \(clients.count) clients left open")
        }
    }
}
