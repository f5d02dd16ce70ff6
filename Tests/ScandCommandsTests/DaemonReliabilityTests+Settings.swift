import Foundation
import ScandCore
import ScandProtocol
import ScandTestSupport
import Testing

/// Issue 25, 1: many `?ROI=` pipelined on several connections at once.
extension DaemonReliabilityTests {
    /// The rect's place in STATUS, `"roi":[…]`, as a `ROI` line encodes it.
    func encodedRect(in line: String) -> String? {
        guard let r = line.range(of: #""roi":["#), let end = line[r.upperBound...].firstIndex(of: "]") else { return nil }
        return String(line[r.lowerBound...end])
    }

    /// Four connections pipeline 60 `?ROI=` each, then `?STATUS;`, all at once: every request is answered,
    /// in order, each with its own rect; STATUS comes after them; the rect kept on disk is the one STATUS
    /// shows, number for number, and the one a restart uses.
    @Test func pipelinedRectsOfInterestAreAnsweredInOrderAndKeptAsShown() throws {
        let sock = dir + "/roi.sock", state = dir + "/roi-state"
        func start() throws -> DaemonProcess {
            try DaemonProcess(["run", "--socket", sock, "--device", dir + "/no-camera", "--state-directory", state])
        }
        var daemon = try start()
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        let clients = try (0..<4).map { _ in try #require(SocketClient(path: sock)) }
        for c in clients { #expect(c.readLine()?.hasPrefix(#"{"class":"VERSION""#) == true) }
        let perClient = 60
        @Sendable func rect(_ k: Int, _ i: Int) -> NormalizedRect {
            try! NormalizedRect(x: Double(k * 100 + i) / 1000, y: 0, width: 0.5, height: 1)  // in range by construction
        }
        DispatchQueue.concurrentPerform(iterations: clients.count) { k in
            let requests = (0..<perClient).map { i in
                let r = rect(k, i)
                return #"?ROI={"x":\#(r.x),"y":0,"w":0.5,"h":1};"# + "\n"
            }
            clients[k].send(requests.joined() + "?STATUS;\n")
        }
        for (k, c) in clients.enumerated() {
            var answers: [String] = []
            while answers.count < perClient + 1, let line = c.readLine() { answers.append(line) }
            let expected = (0..<perClient).map { Event.regionOfInterest(rect(k, $0)).line }
            #expect(Array(answers.prefix(perClient)) == expected, "client \(k): \(answers.filter { !$0.contains(#""class":"ROI""#) }.prefix(3))")
            #expect(answers.last?.hasPrefix(#"{"class":"STATUS""#) == true, "client \(k): STATUS after its ROIs: \(answers.suffix(2))")
        }
        #expect(!daemon.stderr.contains { $0.contains("cannot keep the rect of interest") }, "\(daemon.stderr.suffix(5))")
        let shown = try #require(status(sock).flatMap(encodedRect(in:)))
        let kept = try #require(RegionOfInterestFile.load(state + "/roi"))
        #expect(shown == encodedRect(in: Event.regionOfInterest(kept).line), "STATUS \(shown), kept \(kept)")
        let lastOfEach = clients.indices.map { encodedRect(in: Event.regionOfInterest(rect($0, perClient - 1)).line) }
        #expect(lastOfEach.contains(shown), "the last write of some connection wins: \(shown)")
        let left = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("roi") }
        #expect(left == ["roi"], "no temporary file left: \(left)")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)

        daemon = try start()
        #expect(daemon.wait { FileManager.default.fileExists(atPath: sock) })
        #expect(status(sock).flatMap(encodedRect(in:)) == shown, "a restart uses what STATUS showed")
        daemon.signal(SIGTERM)
        #expect(daemon.finish() == 0)
    }
}

/// The kept rect as the daemon reads it at start.
enum RegionOfInterestFile {
    static func load(_ path: String) -> NormalizedRect? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return try? NormalizedRect.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
