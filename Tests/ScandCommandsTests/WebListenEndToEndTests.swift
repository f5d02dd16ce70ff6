import Foundation
import ScandTestSupport
import Testing

/// Issue 32, 5: `scand web` on an address it cannot listen on says so in one line naming the address and
/// what to do; it printed `Error: bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`.
@Suite struct WebListenEndToEndTests {
    let dir = ScandBinary.temporaryDirectory()

    /// A TCP socket listening on a loopback port the kernel chose, and that port.
    func occupiedPort() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(bound, "a loopback port")
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    @Test func anAddressInUseIsOneLineNamingItAndWhatToDo() throws {
        let (fd, port) = try occupiedPort()
        defer { close(fd) }
        let r = try ScandBinary.run(["web", "--listen", "127.0.0.1:\(port)", "--socket", dir + "/none.sock"])
        #expect(r.status == 71, "EX_OSERR: \(r.stderr)")
        // The page's relay may have said first that no daemon answers: the listening socket is one line.
        let lines = r.stderr.split(separator: "\n").filter { !$0.contains("none.sock") }
        #expect(lines.count == 1, "\(r.stderr)")
        let line = String(lines.first ?? "")
        #expect(line.contains("cannot listen on 127.0.0.1:\(port): the address is in use"), "\(line)")
        #expect(line.contains("--listen") && line.contains("[web] listen"), "\(line)")
        #expect(!line.contains("errno") && !line.contains("bind("), "\(line)")
    }

    @Test func anAddressNotOnThisMachineSaysSo() throws {
        // 192.0.2.1 (TEST-NET-1) is no interface's address here.
        let r = try ScandBinary.run(["web", "--listen", "192.0.2.1:8088", "--socket", dir + "/none.sock"])
        #expect(r.status == 71, "\(r.stderr)")
        #expect(r.stderr.contains("cannot listen on 192.0.2.1:8088: no interface of this machine has that address"), "\(r.stderr)")
    }
}
