import Foundation
import NIOCore
import NIOEmbedded
import Testing
import ScandCore
import ScandProtocol
@testable import ScandService

/// The client handler and the hub on an `EmbeddedChannel`: framing, answers, filters, slow and refused
/// clients and the idle timeout, with no socket and no thread.
@Suite struct ClientHandlerTests {
    struct Client {
        let channel: EmbeddedChannel
        let hub: EventHub

        init(maxClients: Int = 8, maxRequestBytes: Int = 64, hub: EventHub? = nil) throws {
            let hub = hub ?? EventHub(queueLimit: 16, maxClients: maxClients)
            self.hub = hub
            let log: @Sendable (String, LogLevel) -> Void = { _, _ in }
            let controls = DaemonControls(
                status: { StatusReport(device: nil, counters: FrameCounters(), clients: hub.counters, stdoutDropped: 0) },
                metrics: { "scand_frames_captured_total 3\n" },
                snapshot: { answer in answer(.error("no frame to show: test")) },
                regionOfInterest: { .full },
                setRegionOfInterest: { rect, answer in answer(.regionOfInterest(rect)) })
            let settings = ClientHandler.Settings(
                hub: hub, maxRequestBytes: maxRequestBytes, requestTimeout: .seconds(5), daemon: controls,
                admins: AdminGroup(name: "root"), log: log,
                refusals: RateLimitedLog(log: log), idleClosed: RateLimitedLog(log: log), drops: RateLimitedLog(log: log))
            channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(RequestLineDecoder(maxLength: maxRequestBytes)), ClientHandler(settings: settings)
            ])
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        }

        func send(_ text: String) throws { try channel.writeInbound(channel.allocator.buffer(string: text)) }

        /// Every line written to the client so far.
        func received() throws -> [String] {
            var lines: [String] = []
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
                lines += String(buffer: buffer).split(separator: "\n").map(String.init)
            }
            return lines
        }
    }

    static func scan(_ format: BarcodeFormat) -> Event {
        let d = Detection(format: format, text: "x", bytes: [0x78], corners: Quadrilateral([Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]))
        return .scan(TrackedCode(id: 1, device: "d", time: Date(timeIntervalSince1970: 0), frame: 1, detection: d, frameWidth: 0, frameHeight: 0))
    }

    @Test func greetsWithVersionAndAnswersLinesSplitAnyhow() throws {
        let client = try Client()
        #expect(try client.received() == [Event.version(VersionInfo.banner).line])
        try client.send("?VER")
        #expect(try client.received().isEmpty, "half a line is no request")
        try client.send("SION;\n?STATUS;\r\n?FLY;\n")
        let lines = try client.received()
        #expect(lines.count == 3 && lines[0].hasPrefix(#"{"class":"VERSION""#) && lines[1].hasPrefix(#"{"class":"STATUS""#))
        #expect(lines[2] == Event.error("unknown request '?FLY' (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?METRICS)").line)
    }

    @Test func anOverLongLineIsRefusedOnceAndTheNextLineIsRead() throws {
        let client = try Client(maxRequestBytes: 16)
        _ = try client.received()
        try client.send(String(repeating: "A", count: 40))
        try client.send(String(repeating: "A", count: 40) + "\n?VERSION;\n")
        let lines = try client.received()
        #expect(lines == [Event.error("request longer than 16 bytes refused").line, Event.version(VersionInfo.banner).line])
        #expect(client.channel.isActive)
    }

    @Test func watchFiltersChooseWhatTheHubDelivers() throws {
        let client = try Client()
        _ = try client.received()
        client.hub.publish(Self.scan(.qrCode))
        #expect(try client.received().isEmpty, "not watching yet")
        try client.send(#"?WATCH={"classes":["SCAN"],"formats":["qr"]};"# + "\n")
        #expect(try client.received() == [#"{"class":"WATCH","enable":true,"classes":["SCAN"],"formats":["QRCode"]}"#])
        client.hub.publish(.device(DeviceStatus(device: "d", state: .stopped)))
        client.hub.publish(Self.scan(.ean13))
        client.hub.publish(Self.scan(.qrCode))
        #expect(try client.received() == [Self.scan(.qrCode).line])
        #expect(client.hub.counters.watching == 1)
        try client.send(#"?WATCH={"enable":false};"# + "\n")
        client.hub.publish(Self.scan(.qrCode))
        #expect(try client.received() == [#"{"class":"WATCH","enable":false}"#])
    }

    @Test func anUnwritableClientIsDroppedAndCounted() throws {
        let client = try Client()
        try client.send("?WATCH;\n")
        _ = try client.received()
        client.channel.isWritable = false
        client.hub.publish(Self.scan(.qrCode))
        #expect(try client.received().isEmpty && !client.channel.isActive)
        #expect(client.hub.counters.droppedSlow == 1 && client.hub.counters.connected == 0)
    }

    @Test func aClientOverTheLimitIsRefusedWithTheReason() throws {
        let hub = EventHub(queueLimit: 16, maxClients: 1)
        let first = try Client(hub: hub)
        let second = try Client(hub: hub)
        #expect(try first.received() == [Event.version(VersionInfo.banner).line])
        #expect(try second.received() == [Event.error("too many clients (1); try again later").line])
        #expect(!second.channel.isActive && hub.counters.refused == 1 && hub.counters.connected == 1)
    }

    @Test func aClientThatAsksNothingIsClosedAfterTheTimeout() throws {
        let client = try Client()
        _ = try client.received()
        client.channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(client.channel.isActive)
        client.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(try client.received() == [Event.error("no request within 5.0 s; closing the connection").line])
        #expect(!client.channel.isActive && client.hub.counters.timedOut == 1)
    }

    @Test func settingsChangesNeedAKnownAdminPeerAndTheRestIsForEveryone() throws {
        let client = try Client()
        _ = try client.received()
        try client.send("?ROI;\n?SNAPSHOT;\n?METRICS;\n" + #"?ROI={"x":0.5,"y":0,"w":0.5,"h":1};"# + "\n")
        #expect(
            try client.received() == [
                #"{"class":"ROI","roi":[0,0,1,1]}"#,
                Event.error("no frame to show: test").line,
                Event.metrics("scand_frames_captured_total 3\n").line,
                // An embedded channel has no SO_PEERCRED: an unknown peer is nobody's admin.
                Event.error("changing settings needs membership of group 'root' (this client is not a member)").line
            ])
    }
}
