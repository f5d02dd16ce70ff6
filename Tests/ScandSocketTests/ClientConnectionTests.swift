import Foundation
import Logging
import NIOConcurrencyHelpers
import ScandCore
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing
@testable import ScandSocket

/// One client's connection on a real Unix socket, served in this process: framing, answers and their order,
/// filters, slow and refused clients and the idle timeout. The clients block: they run on threads of their own
/// (`OffPool`), and return what the test checks.
@Suite(.timeLimit(.minutes(1))) struct ClientConnectionTests {
    static func controls(_ hub: EventHub) -> DaemonControls {
        DaemonControls(
            status: { StatusReport(device: nil, counters: FrameCounters(), clients: hub.counters, stdoutDropped: 0) },
            metrics: { "scand_frames_captured_total 3\n" },
            snapshot: { _ in Event.error("no frame to show: test").line },
            regionOfInterest: { .full },
            setRegionOfInterest: { .regionOfInterest($0) })
    }

    /// A server with the test's limits, on a socket of its own.
    static func server(
        maxClients: Int = 8, maxRequestBytes: Int = 64, queueLimit: Int = 16, requestTimeout: Duration = .seconds(30),
        controls: ((EventHub) -> DaemonControls)? = nil
    ) async throws -> LocalServer {
        let path = NSTemporaryDirectory() + "scand-connection-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let hub = EventHub(queueLimit: queueLimit, maxClients: maxClients)
        let server = LocalServer(
            path: path,
            server: SocketServer(
                listener: .path(path, group: ""), hub: hub, maxRequestBytes: maxRequestBytes, requestTimeout: requestTimeout,
                daemon: (controls ?? Self.controls)(hub), log: .scand(write: { _, _ in })))
        try await server.start()
        return server
    }

    struct NotConnected: Error {}

    /// `body` with a client connected to `server`, on a thread of the test's own.
    static func client<T: Sendable>(_ server: LocalServer, _ body: @escaping @Sendable (SocketClient) -> T) async throws -> T {
        let path = server.path
        return try await OffPool.wait {
            guard let client = SocketClient(path: path, seconds: 20) else { throw NotConnected() }
            return body(client)
        }
    }

    static func scan(_ format: BarcodeFormat) -> Event {
        let d = Detection(format: format, text: "x", bytes: [0x78], corners: Quadrilateral([Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]))
        return .scan(TrackedCode(id: 1, device: "d", time: Date(timeIntervalSince1970: 0), frame: 1, detection: d, frameWidth: 0, frameHeight: 0))
    }

    static let banner = Event.version(VersionInfo.banner).line

    @Test func greetsWithVersionAndAnswersLinesSplitAnyhow() async throws {
        let server = try await Self.server()
        let lines = try await Self.client(server) { c in
            let banner = c.readLine()
            c.send("?VER")
            c.send("SION;\n?STATUS;\r\n?FLY;\n")
            return [banner, c.readLine(), c.readLine(), c.readLine()].compactMap { $0 }
        }
        #expect(lines.count == 4 && lines[0] == Self.banner && lines[1] == Self.banner && lines[2].hasPrefix(#"{"class":"STATUS""#), "\(lines)")
        #expect(lines.last == Event.error("unknown request '?FLY' (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?CONTROLS, ?METRICS)").line)
        await server.stop()
    }

    @Test func anOverLongLineIsRefusedOnceAndTheNextLineIsRead() async throws {
        let server = try await Self.server(maxRequestBytes: 16)
        let lines = try await Self.client(server) { c in
            c.send(String(repeating: "A", count: 40))
            c.send(String(repeating: "A", count: 40) + "\n?VERSION;\n")
            return [c.readLine(), c.readLine(), c.readLine()]
        }
        #expect(lines == [Self.banner, Event.error("request longer than 16 bytes refused").line, Self.banner])
        await server.stop()
    }

    @Test func watchFiltersChooseWhatTheHubDelivers() async throws {
        let server = try await Self.server()
        let hub = server.hub
        let lines = try await Self.client(server) { c in
            _ = c.readLine()
            hub.publish(Self.scan(.qrCode))  // not watching yet
            c.send(#"?WATCH={"classes":["SCAN"],"formats":["qr"]};"# + "\n")
            var lines = [c.readLine()]
            hub.publish(.device(DeviceStatus(device: "d", state: .stopped)))
            hub.publish(Self.scan(.ean13))
            hub.publish(Self.scan(.qrCode))
            lines.append(c.readLine())
            lines.append(hub.counters.watching == 1 ? "watching" : "not watching")
            c.send(#"?WATCH={"enable":false};"# + "\n")
            lines.append(c.readLine())
            hub.publish(Self.scan(.qrCode))
            c.send("?VERSION;\n")
            lines.append(c.readLine())
            return lines
        }
        #expect(
            lines == [
                #"{"class":"WATCH","enable":true,"classes":["SCAN"],"formats":["QRCode"]}"#, Self.scan(.qrCode).line, "watching",
                #"{"class":"WATCH","enable":false}"#, Self.banner
            ])
        #expect(hub.counters.watching == 0)
        await server.stop()
    }

    @Test func aClientThatStopsReadingIsDroppedAndCounted() async throws {
        let server = try await Self.server()
        let hub = server.hub
        let (dropped, rest) = try await Self.client(server) { c in
            _ = c.readLine()
            c.send("?WATCH;\n")
            _ = c.readLine()
            // 20 MB: more than the socket's buffers and the channel's hold.
            let reason = String(repeating: "x", count: 4000)
            for _ in 0..<5000 where hub.counters.droppedSlow == 0 {
                hub.publish(.device(DeviceStatus(device: "/dev/video9", state: .waiting, reason: reason)))
            }
            let dropped = Eventually.wait { hub.counters.droppedSlow == 1 && hub.counters.connected == 0 }
            return (dropped, c.readAll().count)
        }
        #expect(dropped, "\(hub.counters)")
        #expect(rest < 5000, "the rest never waited for it")
        await server.stop()
    }

    @Test func aClientOverTheLimitIsRefusedWithTheReason() async throws {
        let server = try await Self.server(maxClients: 1)
        let path = server.path
        let (first, second) = try await Self.client(server) { c in
            let first = c.readLine()
            let second = SocketClient(path: path, seconds: 20).map { [$0.readLine(), $0.readLine()] }
            return (first, second)
        }
        #expect(first == Self.banner)
        #expect(second == [Event.error("too many clients (1); try again later").line, nil])
        #expect(server.hub.counters.refused == 1)
        await server.stop()
    }

    @Test func aClientThatAsksNothingIsClosedAfterTheTimeout() async throws {
        let server = try await Self.server(requestTimeout: .milliseconds(300))
        let lines = try await Self.client(server) { $0.readAll() }
        #expect(lines == [Self.banner, Event.error("no request within 0.3 s; closing the connection").line])
        #expect(server.hub.counters.timedOut == 1)
        await server.stop()
    }

    @Test func theDaemonsOwnUserMayChangeSettings() async throws {
        let server = try await Self.server()
        let lines = try await Self.client(server) { c in
            _ = c.readLine()
            c.send("?ROI;\n?SNAPSHOT;\n?METRICS;\n" + #"?ROI={"x":0.5,"y":0,"w":0.5,"h":1};"# + "\n")
            return [c.readLine(), c.readLine(), c.readLine(), c.readLine()]
        }
        #expect(
            lines == [
                #"{"class":"ROI","roi":[0,0,1,1]}"#, Event.error("no frame to show: test").line,
                Event.metrics("scand_frames_captured_total 3\n").line, #"{"class":"ROI","roi":[0.5,0,0.5,1]}"#
            ])
        await server.stop()
    }
}
