import Foundation
import ScandTestSupport
import Testing

/// Faults an adversarial run found (issue 15), against the real binary: clients that never read or never
/// ask, a stdout nobody drains, a second daemon on the same path, odd configuration files, recordings that
/// break off, reloads.
@Suite(.serialized) struct DaemonReliabilityTests {
    let e2e = DaemonEndToEndTests()
    var dir: String { e2e.dir }

    func status(_ sock: String) -> String? {
        guard let c = SocketClient(path: sock) else { return nil }
        _ = c.readLine()
        c.send("?STATUS;\n")
        return c.read { $0.hasPrefix(#"{"class":"STATUS""#) }
    }

    func number(_ key: String, in line: String) -> Int? {
        guard let r = line.range(of: "\"\(key)\":") else { return nil }
        return Int(line[r.upperBound...].prefix { $0.isNumber })
    }
}
