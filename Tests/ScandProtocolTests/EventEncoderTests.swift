import Foundation
import Testing
import ScandCore
@testable import ScandProtocol

/// Every class on the wire, byte for byte as scand-json(5)'s examples show it: the typed `Event` and its one
/// encoder must write what clients already parse.
@Suite struct EventEncoderTests {
    /// packaging/man/scand-json.5 as a reader sees it: the roff escapes its examples use turned back into text.
    static let manual: String? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../packaging/man/scand-json.5")
        return try? String(contentsOf: url, encoding: .utf8).roffUnescaped
    }()

    /// The manual's example line of a class (the first one starting with its `class`, and `also` if given).
    func documented(_ cls: String, also: String = "") throws -> String {
        let lines = try #require(Self.manual).split(separator: "\n").map(String.init)
        return try #require(lines.first { $0.hasPrefix(#"{"class":"\#(cls)""#) && (also.isEmpty || $0.contains(also)) }, "no \(cls) example")
    }

    static let time = Date(timeIntervalSince1970: 1_795_352_075.5785)  // 2026-11-22T12:54:35.578Z
    static let qr = Detection(
        format: .qrCode, text: "WIFI:S:kiosk;T:WPA;P:secret;;", bytes: Array("WIFI:S:kiosk;T:WPA;P:secret;;".utf8),
        corners: Quadrilateral([Point(342, 318), Point(426, 318), Point(426, 402), Point(342, 402)]),
        symbologyIdentifier: "]Q1", ecLevel: "L")

    static let boot = "5f0c9a7e31d24b6c8e1f02a9d4b7c3e6"
    static func at(_ seq: Int) -> EventStamp { EventStamp(boot: boot, seq: seq) }

    @Test func everyClassIsWrittenAsDocumented() throws {
        let streaming = DeviceStatus(device: "/dev/video0", state: .streaming, format: FrameFormat.packed(.yuyv, width: 1280, height: 720))
        #expect(
            EventEncoder.line(
                .version(VersionBanner(release: "0.1.0", protoMajor: 1, protoMinor: 4, zxing: "3.1.1")), stamp: EventStamp(boot: Self.boot))
                == (try documented("VERSION")))
        #expect(EventEncoder.line(.device(streaming), stamp: Self.at(2)) == (try documented("DEVICE", also: "streaming")))
        let waiting = DeviceStatus(
            device: "/dev/video0", state: .waiting,
            reason: "/dev/video0: no such device; is the camera plugged in? `scand devices` lists cameras", retryIn: .milliseconds(250))
        #expect(EventEncoder.line(.device(waiting), stamp: Self.at(1)) == (try documented("DEVICE", also: "waiting")))
        let scan = TrackedCode(
            id: 1, device: "/dev/video0", time: Self.time, frame: 812, detection: Self.qr, frameWidth: 1280, frameHeight: 720,
            latencyMilliseconds: 14.2)
        #expect(EventEncoder.line(.scan(scan), stamp: Self.at(3)) == (try documented("SCAN")))
        var moved = Self.qr
        moved.corners = Quadrilateral([Point(344, 318), Point(428, 318), Point(428, 402), Point(344, 402)])
        let update = TrackedCode(
            id: 1, device: "/dev/video0", time: Self.time + 0.033, frame: 813, detection: moved, frameWidth: 1280, frameHeight: 720)
        #expect(EventEncoder.line(.update(update), stamp: Self.at(4)) == (try documented("UPDATE")))
        let lost = TrackedCode(id: 1, device: "/dev/video0", time: Self.time + 1.524, frame: nil, detection: Self.qr, frameWidth: 0, frameHeight: 0)
        #expect(EventEncoder.line(.lost(lost), stamp: Self.at(5)) == (try documented("LOST")))
        var counters = FrameCounters()
        (counters.captured, counters.dropped, counters.decoded, counters.codes, counters.scans) = (446, 364, 82, 204, 3)
        (counters.decodeMillisecondsMean, counters.latencyP50Milliseconds, counters.latencyP99Milliseconds) = (14.2, 15.1, 23.9)
        #expect(EventEncoder.line(.stats(device: "/dev/video0", counters: counters), stamp: Self.at(7)) == (try documented("STATS")))
        let back = JournalNotice(
            state: .on, journal: "9b1e0c3d5a7f42e68c0d1b2a3f4e5d6c", notJournaled: JournalGap(first: 5, last: 6),
            message: "event journal 9b1e0c3d5a7f42e68c0d1b2a3f4e5d6c on again; seq 5…6 (2 events) were published live only and are not in it")
        #expect(EventEncoder.line(.journal(back), stamp: Self.at(8)) == (try documented("JOURNAL")))
        #expect(Event.watch(.init(enable: true, classes: [.scan, .lost])).line == (try documented("WATCH")))
        var status = FrameCounters()
        (status.captured, status.decoded, status.codes, status.scans) = (18, 17, 34, 2)
        (status.decodeMillisecondsMean, status.latencyP50Milliseconds, status.latencyP99Milliseconds) = (14.92, 16, 19.7)
        var clients = ClientCounters()
        (clients.connected, clients.watching) = (2, 1)
        #expect(
            Event.status(
                StatusReport(
                    device: streaming, counters: status, clients: clients, stdoutDropped: 0, regionOfInterest: .full,
                    journal: .on(JournalSpan(first: 1, last: 7, oldestTime: 1_795_351_802.114), boot: Self.boot))
            ).line == (try documented("STATUS")))
        // Issue 48: the events the journal holds, not last − first + 1 (1021 for 21 rows after a gap).
        let gapped = Event.status(
            StatusReport(
                device: streaming, counters: status, clients: clients, stdoutDropped: 0, regionOfInterest: .full,
                journal: .on(JournalSpan(first: 1, last: 1021, oldestTime: 0, events: 21), boot: Self.boot))
        ).line
        #expect(gapped.contains(#""first":1,"last":1021,"events":21,"#), "\(gapped)")
        #expect(
            Event.error("unknown request '?FLY' (known: ?WATCH, ?STATUS, ?VERSION, ?SNAPSHOT, ?ROI, ?CONTROLS, ?METRICS)").line
                == (try documented("ERROR")))
    }

    /// scand-json(5) describes every class the encoder has (a `.B CLASS` entry), every request the daemon
    /// knows, and every field its examples hold, in its text before the examples.
    @Test func theManualDescribesEveryClassRequestAndExampleField() throws {
        let manual = try #require(Self.manual)
        let parts = manual.components(separatedBy: "\n.SH EXAMPLES\n")
        let text = parts[0]
        let classes = try "\n" + #require(text.components(separatedBy: "\n.SH CLASSES\n").last?.components(separatedBy: "\n.SH ").first)
        for cls in Event.Class.allCases { #expect(classes.contains("\n.TP\n.B \(cls.rawValue)\n"), "no entry for \(cls.rawValue)") }
        let known = try #require(try documented("ERROR").firstRange(of: "(known: ").map { try documented("ERROR")[$0.upperBound...] })
        for request in known.dropLast(3).components(separatedBy: ", ") {
            #expect(text.contains(request + ";") || text.contains(request + "="), "\(request)")
        }
        func keys(_ value: Any) -> [String] {
            if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
            if let array = value as? [Any] { return array.flatMap(keys) }
            return []
        }
        let examples = try #require(parts.last).split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(examples.count > 20)
        for line in examples {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            for key in Set(keys(object)) {
                let described = text.range(of: #"(\.BR?|\.RB \(|"|…) "# + key + #"\b"#, options: .regularExpression) != nil
                #expect(described, "field \(key) of \(line.prefix(40))")
            }
        }
    }

    @Test func filtersReadTypedFields() throws {
        let scan = Event.scan(TrackedCode(id: 1, device: "d", time: Self.time, frame: 1, detection: Self.qr, frameWidth: 0, frameHeight: 0))
        let device = Event.device(DeviceStatus(device: "d", state: .stopped))
        let qrScans = ClientRequest.Watch(enable: true, classes: [.scan], formats: BarcodeFormats([.qrCode]))
        #expect(qrScans.accepts(scan) && !qrScans.accepts(device))
        #expect(!ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(scan))
        #expect(ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(device), "formats filter codes only")
        #expect(!ClientRequest.Watch(enable: false).accepts(device))
        // A replay and a client filter lines read back the same way.
        let line = try EventDecoder.decode(EventEncoder.line(scan, stamp: Self.at(3)))
        let replayed = try EventDecoder.decode(EventEncoder.markingReplayed(line.line))
        #expect(qrScans.accepts(line) && qrScans.accepts(replayed))
        #expect(!ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(line))
        #expect(!ClientRequest.Watch(enable: true, classes: [.lost]).accepts(line))
        let deviceLine = try EventDecoder.decode(EventEncoder.line(device, stamp: Self.at(4)))
        #expect(ClientRequest.Watch(enable: true, formats: BarcodeFormats([.ean13])).accepts(deviceLine), "formats filter codes only")
        #expect(!ClientRequest.Watch(enable: false).accepts(deviceLine))
    }

    @Test func aReplayedLineIsTheLiveLineMarkedAtTheEnd() throws {
        let device = Event.device(DeviceStatus(device: "d", state: .stopped))
        let live = EventEncoder.line(device, stamp: Self.at(9))
        let replayed = EventEncoder.line(device, stamp: EventStamp(boot: Self.boot, seq: 9, replayed: true))
        #expect(replayed == EventEncoder.markingReplayed(live))
        let read = try EventDecoder.decode(replayed)
        #expect(read.stamp?.replayed == true && read.liveLine == live && read.position == EventPosition(boot: Self.boot, seq: 9))
        #expect(EventEncoder.removingReplayMark(replayed) == live && EventEncoder.removingReplayMark(live) == live)
        #expect(live.hasPrefix(#"{"class":"DEVICE","boot":"\#(Self.boot)","seq":9,"path""#))
    }
}

extension String {
    /// The escapes scand's man pages write in examples, as the page shows them: `\-`, `\(aq`, `\(ga`, `\e`,
    /// `\[uXXXX]`.
    var roffUnescaped: String {
        var text = replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\:", with: "").replacingOccurrences(of: "\\(aq", with: "'")
            .replacingOccurrences(of: "\\(ga", with: "`").replacingOccurrences(of: "\\(dq", with: "\"").replacingOccurrences(of: "\\e", with: "\\")
        while let r = text.range(of: #"\\\[u[0-9A-F]{4}\]"#, options: .regularExpression),
            let scalar = UInt32(text[r].dropFirst(3).dropLast(), radix: 16).flatMap(Unicode.Scalar.init)
        {
            text.replaceSubrange(r, with: String(Character(scalar)))
        }
        return text
    }
}
