import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ScandCore
import ScandLogging
import ScandProtocol
import Testing
@testable import ScandSocket

/// The client handler and the hub on an `EmbeddedChannel`: framing, answers, filters, slow and refused
/// clients and the idle timeout, with no socket and no thread.
@Suite struct ClientHandlerTests {
    struct Client {
        let channel: EmbeddedChannel
        let hub: EventHub

        init(maxClients: Int = 8, maxRequestBytes: Int = 64, hub: EventHub? = nil, controls: DaemonControls? = nil) throws {
            let hub = hub ?? EventHub(queueLimit: 16, maxClients: maxClients)
            self.hub = hub
            let log = Logger.scand(write: { _, _ in })
            let controls =
                controls
                ?? DaemonControls(
                    status: { StatusReport(device: nil, counters: FrameCounters(), clients: hub.counters, stdoutDropped: 0) },
                    metrics: { "scand_frames_captured_total 3\n" },
                    snapshot: { _, answer in answer(Event.error("no frame to show: test").line) },
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
            channel.embeddedEventLoop.run()  // answers given later hop onto the loop
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
        #expect(lines[2] == Event.error("unknown request '?FLY' (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?CONTROLS, ?METRICS)").line)
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

    /// Answers that come later, kept by the test and given when it says.
    final class LaterAnswers: Sendable {
        let statusAsked = NIOLockedValueBox(0)
        let snapshots = NIOLockedValueBox<[(wanted: @Sendable () -> Bool, answer: @Sendable (String) -> Void)]>([])

        var controls: DaemonControls {
            DaemonControls(
                status: { [statusAsked] in
                    statusAsked.withLockedValue { $0 += 1 }
                    return StatusReport(device: nil, counters: FrameCounters(), clients: ClientCounters(), stdoutDropped: 0)
                },
                metrics: { "" },
                snapshot: { [snapshots] wanted, answer in snapshots.withLockedValue { $0.append((wanted, answer)) } },
                regionOfInterest: { .full },
                setRegionOfInterest: { r, answer in answer(.regionOfInterest(r)) })
        }

        func answerSnapshot(_ i: Int, _ line: String) { snapshots.withLockedValue { $0[i] }.answer(line) }
    }

    /// Issue 25, 1: answers that come later, and in another order, still go out in the order asked, and a
    /// request after them starts only once they are out (so that STATUS shows what they did).
    @Test func answersGoOutInTheOrderTheRequestsCameAndLaterRequestsStartAfterThem() throws {
        let later = LaterAnswers()
        let client = try Client(controls: later.controls)
        _ = try client.received()
        try client.send("?SNAPSHOT;\n?SNAPSHOT;\n?STATUS;\n?VERSION;\n")
        #expect(later.snapshots.withLockedValue { $0.count } == 2, "snapshots wait together")
        later.answerSnapshot(1, "second")
        client.channel.embeddedEventLoop.run()
        #expect(try client.received().isEmpty, "the first answer holds the second back")
        #expect(later.statusAsked.withLockedValue { $0 } == 0, "STATUS waits for the answers before it")
        later.answerSnapshot(0, "first")
        client.channel.embeddedEventLoop.run()
        let lines = try client.received()
        #expect(Array(lines.prefix(2)) == ["first", "second"])
        #expect(lines.count == 4 && lines[2].hasPrefix(#"{"class":"STATUS""#) && lines[3] == Event.version(VersionInfo.banner).line, "\(lines)")
        #expect(later.statusAsked.withLockedValue { $0 } == 1)
    }

    /// Issue 25, 2: a connection has at most four snapshots waiting; more get an ERROR, in their place.
    @Test func aConnectionHasAtMostFourSnapshotsWaiting() throws {
        let later = LaterAnswers()
        let client = try Client(controls: later.controls)
        _ = try client.received()
        try client.send(String(repeating: "?SNAPSHOT;\n", count: 6) + "?VERSION;\n")
        #expect(later.snapshots.withLockedValue { $0.count } == 4)
        #expect(try client.received().isEmpty, "the first answer holds the rest back")
        for i in 0..<4 { later.answerSnapshot(i, "snapshot \(i)") }
        client.channel.embeddedEventLoop.run()
        let tooMany = Event.error("4 snapshots already wait for a frame on this connection; read their answers first").line
        #expect(
            try client.received() == [
                "snapshot 0", "snapshot 1", "snapshot 2", "snapshot 3", tooMany, tooMany, Event.version(VersionInfo.banner).line
            ])
        #expect(later.snapshots.withLockedValue { $0.allSatisfy { $0.wanted() } })
        try client.channel.close().wait()
        #expect(later.snapshots.withLockedValue { $0.allSatisfy { !$0.wanted() } }, "a closed client wants nothing more")
    }

    /// Lines pipelined behind an answer that waits are held, and the connection is not read meanwhile.
    @Test func heldLinesStopReadingUntilTheyStart() throws {
        let later = LaterAnswers()
        let client = try Client(controls: later.controls)
        _ = try client.received()
        let reads = ReadCounter()
        try client.channel.pipeline.syncOperations.addHandler(reads, position: .first)
        try client.send("?SNAPSHOT;\n?STATUS;\n")
        client.channel.read()
        #expect(reads.count == 0, "a line is held: no read")
        later.answerSnapshot(0, "snapshot")
        client.channel.embeddedEventLoop.run()
        #expect(reads.count == 1, "the held line started: the read waiting goes through")
        #expect(try client.received().count == 2)
    }

    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var count = 0
        func read(context: ChannelHandlerContext) {
            count += 1
            context.read()
        }
    }
}
