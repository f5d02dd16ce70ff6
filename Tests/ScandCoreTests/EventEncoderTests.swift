import Foundation
import Testing
@testable import ScandCore

/// Every class on the wire, byte for byte as the README's schema shows it: the typed `Event` and its one
/// encoder must write what clients already parse.
@Suite struct EventEncoderTests {
    static let readme: String? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
        return try? String(contentsOf: url, encoding: .utf8)
    }()

    /// The README's example line of a class (the first one starting with its `class`, and `also` if given).
    func documented(_ cls: String, also: String = "") throws -> String {
        let lines = try #require(Self.readme).split(separator: "\n").map(String.init)
        return try #require(lines.first { $0.hasPrefix(#"{"class":"\#(cls)""#) && (also.isEmpty || $0.contains(also)) }, "no \(cls) example")
    }

    static let time = Date(timeIntervalSince1970: 1_795_352_075.5785)  // 2026-11-22T12:54:35.578Z
    static let qr = Detection(format: .qrCode, text: "WIFI:S:kiosk;T:WPA;P:secret;;", bytes: Array("WIFI:S:kiosk;T:WPA;P:secret;;".utf8),
                              corners: Quadrilateral([Point(342, 318), Point(426, 318), Point(426, 402), Point(342, 402)]),
                              symbologyIdentifier: "]Q1", ecLevel: "L")

    @Test func everyClassIsWrittenAsDocumented() throws {
        let streaming = DeviceStatus(device: "/dev/video0", state: .streaming, format: FrameFormat.packed(.yuyv, width: 1280, height: 720))
        #expect(Event.version(VersionBanner(release: "0.1.0", protoMajor: 1, protoMinor: 2, zxing: "3.1.1")).line == (try documented("VERSION")))
        #expect(Event.device(streaming).line == (try documented("DEVICE", also: "streaming")))
        let waiting = DeviceStatus(device: "/dev/video0", state: .waiting,
                                   reason: "/dev/video0: no such device; is the camera plugged in? `scand devices` lists cameras", retryIn: .milliseconds(250))
        #expect(Event.device(waiting).line == (try documented("DEVICE", also: "waiting")))
        let scan = TrackedCode(id: 1, device: "/dev/video0", time: Self.time, frame: 812, detection: Self.qr, frameWidth: 1280, frameHeight: 720,
                               latencyMilliseconds: 14.2)
        #expect(Event.scan(scan).line == (try documented("SCAN")))
        var moved = Self.qr
        moved.corners = Quadrilateral([Point(344, 318), Point(428, 318), Point(428, 402), Point(344, 402)])
        let update = TrackedCode(id: 1, device: "/dev/video0", time: Self.time + 0.033, frame: 813, detection: moved, frameWidth: 1280, frameHeight: 720)
        #expect(Event.update(update).line == (try documented("UPDATE")))
        let lost = TrackedCode(id: 1, device: "/dev/video0", time: Self.time + 1.524, frame: nil, detection: Self.qr, frameWidth: 0, frameHeight: 0)
        #expect(Event.lost(lost).line == (try documented("LOST")))
        var counters = FrameCounters()
        (counters.captured, counters.dropped, counters.decoded, counters.codes, counters.scans) = (446, 364, 82, 204, 3)
        (counters.decodeMillisecondsMean, counters.latencyP50Milliseconds, counters.latencyP99Milliseconds) = (14.2, 15.1, 23.9)
        #expect(Event.stats(device: "/dev/video0", counters: counters).line == (try documented("STATS")))
        #expect(Event.watch(.init(enable: true, classes: [.scan, .lost])).line == (try documented("WATCH")))
        var status = FrameCounters()
        (status.captured, status.decoded, status.codes, status.scans) = (18, 17, 34, 2)
        (status.decodeMillisecondsMean, status.latencyP50Milliseconds, status.latencyP99Milliseconds) = (14.92, 16, 19.7)
        var clients = ClientCounters()
        (clients.connected, clients.watching) = (2, 1)
        #expect(Event.status(StatusReport(device: streaming, counters: status, clients: clients, stdoutDropped: 0, regionOfInterest: .full)).line == (try documented("STATUS")))
        #expect(Event.error("unknown request '?FLY' (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?METRICS)").line == (try documented("ERROR")))
    }

    @Test func filtersReadTypedFields() {
        let scan = Event.scan(TrackedCode(id: 1, device: "d", time: Self.time, frame: 1, detection: Self.qr, frameWidth: 0, frameHeight: 0))
        let device = Event.device(DeviceStatus(device: "d", state: .stopped))
        let qrScans = ClientRequest.Watch(enable: true, classes: [.scan], formats: BarcodeFormats([.qrCode]))
        #expect(qrScans.accepts(scan) && !qrScans.accepts(device))
        #expect(!ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(scan))
        #expect(ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(device), "formats filter codes only")
        #expect(!ClientRequest.Watch(enable: false).accepts(device))
    }
}
