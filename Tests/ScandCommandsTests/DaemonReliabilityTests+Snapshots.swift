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
}
