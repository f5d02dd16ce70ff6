import Foundation
import ScandCore
import Synchronization

/// The daemon's side of the wire contract, served on a real Unix socket by the test: events numbered
/// (boot, seq) or not at all (a daemon older than the journal), a `since` answered with what came after it
/// (each marked replayed; a `since` from another boot gets an ERROR and everything), then live events. It
/// records every request it gets.
final class FakeDaemon: Sendable {
    let path: String
    let boot: String
    let numbered: Bool
    private let listener: Int32
    private struct State {
        var events: [String] = []
        var requests: [String] = []
        var live: Int32?
    }
    private let state = Mutex(State())

    init(path: String, numbered: Bool = true) throws {
        self.path = path
        self.numbered = numbered
        var rng = SystemRandomNumberGenerator()
        boot = EventPosition.randomBootID(using: &rng)
        guard let fd = boundSocket(path, type: SOCK_STREAM), listen(fd, 8) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot serve \(path)"])
        }
        listener = fd
        Thread.detachNewThread { [self] in accept() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        state.withLock { if let fd = $0.live { close(fd) } }
        unlink(path)
    }

    var requests: [String] { state.withLock { $0.requests } }
    var count: Int { state.withLock { $0.events.count } }

    func line(_ seq: Int) -> String {
        numbered
            ? #"{"class":"SCAN","boot":"\#(boot)","seq":\#(seq),"id":\#(seq),"format":"QRCode","text":"ticket \#(seq)"}"#
            : #"{"class":"SCAN","id":\#(seq),"format":"QRCode","text":"ticket \#(seq)"}"#
    }

    /// Publishes `n` more events to the live client, if one is there.
    func publish(_ n: Int) {
        state.withLock { s in
            for _ in 0..<n {
                let line = line(s.events.count + 1)
                s.events.append(line)
                if let fd = s.live, !Self.write(fd, line + "\n") {
                    close(fd)
                    s.live = nil
                }
            }
        }
    }

    /// Drops the live client, as a daemon restart does.
    func dropClient() {
        state.withLock { s in
            if let fd = s.live { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
            s.live = nil
        }
    }

    private func accept() {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            serve(fd)
        }
    }

    private func serve(_ fd: Int32) {
        let version =
            numbered
            ? #"{"class":"VERSION","boot":"\#(boot)","release":"0.1.0","proto_major":1,"proto_minor":3}"#
            : #"{"class":"VERSION","release":"0.1.0","proto_major":1,"proto_minor":1}"#
        _ = Self.write(fd, version + "\n")
        var request = [UInt8]()
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 10 { request.append(byte) }
        let text = String(decoding: request, as: UTF8.self)
        state.withLock { s in
            s.requests.append(text)
            _ = Self.write(fd, #"{"class":"WATCH","enable":true}"# + "\n")
            if numbered, let r = text.range(of: #""since":"#), let end = text.range(of: "}", range: r.upperBound..<text.endIndex),
                let since = EventPosition.parse(json: String(text[r.upperBound...end.lowerBound]))
            {
                // As the daemon: after a position of this boot; for any other, an ERROR, then all it keeps.
                var after = since.seq
                if since.boot != boot {
                    after = 0
                    let what =
                        s.events.isEmpty
                        ? "which is empty; live events follow" : "it is not from this journal: the journal keeps seq 1…\(s.events.count)"
                    _ = Self.write(
                        fd,
                        #"{"class":"ERROR","message":"since \#(since.json.replacingOccurrences(of: "\"", with: "\\\"")) is not in the journal, \#(what)"}"#
                            + "\n")
                }
                for line in s.events.dropFirst(after) { _ = Self.write(fd, EventEnvelope.markingReplayed(line) + "\n") }
            }
            if let old = s.live { close(old) }
            s.live = fd
        }
    }

    static func write(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
