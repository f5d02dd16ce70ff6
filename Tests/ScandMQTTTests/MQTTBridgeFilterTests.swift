import ScandCore
import ScandProtocol
import Testing

@testable import ScandMQTT

/// `[mqtt] classes`, `formats` and `topic_prefix` in the bridge: the daemon is asked for the events
/// published (the others never cross the socket) and the topics start with the prefix.
@Suite struct MQTTBridgeFilterTests {
    static let boot = MQTTBridgeTests.boot
    static func at(_ seq: Int) -> EventPosition { EventPosition(boot: boot, seq: seq) }
    static func take(_ seq: Int, _ eventClass: String, into bridge: inout MQTTBridge) -> [MQTTBridge.Action] {
        bridge.handle(.line(MQTTBridgeTests.received(MQTTBridgeTests.line(seq, eventClass))))
    }

    /// Every subscription, the first and each one again after the daemon closed, asks for the classes and
    /// formats published, since the last event the daemon sent: what it filtered out is not sent again, so
    /// a position that stays on the last one sent skips no wanted event. It asked for every class.
    @Test func everySubscriptionAsksTheDaemonForTheClassesAndFormatsPublished() throws {
        let formats = try BarcodeFormats.parse("qr,ean13")
        var b = MQTTBridge(kioskID: "k", classes: [.scan, .lost], formats: formats, release: "0", acknowledged: Self.at(3))
        #expect(b.start() == [.subscribe(.init(enable: true, classes: [.scan, .lost], formats: formats, since: Self.at(3)))])
        #expect(
            ClientRequest.watch(b.watch).line
                == #"?WATCH={"enable":true,"classes":["LOST","SCAN"],"formats":["EAN-13","QRCode"],"since":\#(Self.at(3).json)};"#)
        _ = b.handle(.daemonConnected)
        _ = b.handle(.brokerConnected)
        // The UPDATEs 5…9 stayed in the daemon.
        var mid: Int32 = 1
        let mids =
            MQTTBridgeTests.publishAll(Self.take(4, "SCAN", into: &b), &b, nextMid: &mid)
            + MQTTBridgeTests.publishAll(Self.take(10, "LOST", into: &b), &b, nextMid: &mid)
        #expect(b.handle(.acknowledged(mid: mids[0])) == [.persist(Self.at(4))])
        #expect(b.handle(.acknowledged(mid: mids[1])) == [.persist(Self.at(10))])
        #expect(b.watch == .init(enable: true, classes: [.scan, .lost], formats: formats, since: Self.at(10)))
        var now = MQTTBridge(kioskID: "k", classes: [.scan], release: "0", acknowledged: nil, start: .now)
        #expect(now.start() == [.subscribe(.init(enable: true, classes: [.scan]))])
    }

    /// Status, will and events all under `<prefix>/<kiosk-id>/`; `scand` without one, as before the setting.
    @Test func theTopicsStartWithThePrefix() {
        var b = MQTTBridge(kioskID: "till-1", topicPrefix: "site/berlin/scand", release: "0", acknowledged: Self.at(1))
        #expect(b.statusTopic == "site/berlin/scand/till-1/status")
        _ = b.handle(.daemonConnected)
        #expect(
            Self.take(2, "SCAN", into: &b) == [.publish(ticket: 1, topic: "site/berlin/scand/till-1/events/scan", payload: MQTTBridgeTests.line(2))])
        #expect(b.handle(.brokerConnected).first == .publishStatus(topic: "site/berlin/scand/till-1/status", payload: b.onlinePayload))
        let plain = MQTTBridge(kioskID: "till-1", release: "0", acknowledged: nil)
        #expect(plain.statusTopic == "scand/till-1/status" && plain.topic(forClass: .stats) == "scand/till-1/events/stats")
    }

    /// `[mqtt] classes` names what the daemon numbers and journals, and nothing else: a class it does not
    /// journal could not be sent again after an outage.
    @Test func thePublishableClassesAreTheJournaledOnes() {
        let journaled = Set(Event.Class.watchable).subtracting([.version, .watch]).map(\.rawValue)
        #expect(MQTTSettings.publishableClasses == journaled.sorted())
        #expect(MQTTSettings.publishableClasses.allSatisfy { Event.Class(rawValue: $0) != nil })
        #expect(MQTTSettings().classes == ["SCAN"])
    }
}
