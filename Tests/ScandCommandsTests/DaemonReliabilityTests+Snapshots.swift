import Foundation
import ScandCore
import ScandTestSupport
import Testing

/// Issue 25, 2: a flood of `?SNAPSHOT;` from a client that never reads.
extension DaemonReliabilityTests {
    /// 30,000 pipelined `?SNAPSHOT;` sent while a till replays at its recorded pace: every ticket shown
    /// afterwards is still scanned (snapshots are made off the decode thread, once per frame, at most four
    /// waiting per client, and nothing for a client that was dropped).
    @Test func aSnapshotFloodDoesNotBlindTheDecoder() throws {
        let sock = dir + "/flood.sock", path = dir + "/flood.rec"
        let blank = LumaImage(width: 640, height: 360, fill: 235)
        var pages = Array(repeating: blank, count: 60)
        for i in 1...6 {
            let code = Scene.symbol(.qrCode, "ticket-\(i)", module: 3)
            pages += Array(repeating: Scene.page(width: 640, height: 360, background: 235, centred: [(code, x: 320, y: 180)]), count: 30)
            pages += Array(repeating: blank, count: 15)
        }
        try Scene.record(pages, to: path, gapMicroseconds: 33_333)
        let daemon = try DaemonProcess(["run", "--socket", sock, "--source", "replay:" + path, "--replay-pace", "recorded"])
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let flood = try #require(SocketClient(path: sock))
        let sender = Thread { flood.send(String(repeating: "?SNAPSHOT;\n", count: 30_000)) }
        sender.start()
        #expect(daemon.finish(seconds: 60) == 0, "\(daemon.stderr.suffix(5))")
        let scanned = Set(
            daemon.stdout.filter { $0.hasPrefix(#"{"class":"SCAN""#) }.compactMap { line in
                (1...6).first { line.contains(#""text":"ticket-\#($0)""#) }
            })
        #expect(scanned == Set(1...6), "tickets scanned: \(scanned.sorted())")
        #expect(Eventually.wait { sender.isFinished })
        withExtendedLifetime(flood) {}
    }

    /// A snapshot names the scanned codes read in the newest frame decoded (`inView`): once a code has left,
    /// the next snapshot says so, though its LOST comes `lost_after` later (5 s here), and the setup page
    /// hides its outline then (issue 46, item 12: it stayed up to half a second over an empty frame).
    @Test func aSnapshotSaysWhichScannedCodesAreStillInView() throws {
        let sock = dir + "/in-view.sock", path = dir + "/in-view.rec"
        let blank = LumaImage(width: 640, height: 360, fill: 235)
        let code = Scene.page(width: 640, height: 360, background: 235, centred: [(Scene.symbol(.qrCode, "in view", module: 3), x: 320, y: 180)])
        // 1 s blank, the code for 4 s, then blank for 20 s, at 10 frames a second.
        try Scene.record(
            Array(repeating: blank, count: 10) + Array(repeating: code, count: 40) + Array(repeating: blank, count: 200), to: path,
            gapMicroseconds: 100_000)
        let daemon = try DaemonProcess(["run", "--socket", sock, "--source", "replay:" + path, "--replay-pace", "recorded", "--lost-after", "5"])
        defer {
            daemon.signal(SIGTERM)
            _ = daemon.finish()
        }
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let client = try #require(SocketClient(path: sock))
        _ = client.readLine()
        func inView() -> [Int]? {
            client.send("?SNAPSHOT;\n")
            guard let line = client.read(until: { $0.hasPrefix(#"{"class":"SNAPSHOT""#) || $0.hasPrefix(#"{"class":"ERROR""#) }),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return nil }
            return object["inView"] as? [Int]
        }
        let scan = { daemon.stdout.first { $0.hasPrefix(#"{"class":"SCAN""#) && $0.contains(#""text":"in view""#) } }
        #expect(daemon.wait { scan() != nil }, "\(daemon.stderr.suffix(5))")
        let object = try #require(try scan().flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let id = try #require(object["id"] as? Int)
        #expect(Eventually.wait(seconds: 10) { inView() == [id] }, "the code in view is named")
        #expect(Eventually.wait(seconds: 10) { inView() == [] }, "the code gone is no longer named")
        #expect(!daemon.stdout.contains { $0.hasPrefix(#"{"class":"LOST""#) }, "before its LOST: \(daemon.stdout.suffix(3))")
    }
}
