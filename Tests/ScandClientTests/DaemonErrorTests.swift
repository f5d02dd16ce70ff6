import Foundation
import Glibc
import NIOCore
import ScandTestSupport
import Testing

@testable import ScandClient

/// What a client says when it cannot reach the daemon: no socket, a socket nothing listens on, and which
/// group to join (issue 46, item 4: root was told "nothing listens" of a missing socket, and "join GROUP").
@Suite struct DaemonErrorTests {
    let dir = TestFiles.directory("scand-daemon-error")

    /// The errno a real connect gets on each path, in the words a client prints (not through a client's
    /// queue, whose patience a loaded machine would test instead).
    @Test func aMissingSocketIsNoSocketAndAStaleOneIsNothingListening() throws {
        let missing = dir + "/missing.sock", stale = dir + "/stale.sock"
        let fd = try #require(UnixSocket.bound(stale, type: SOCK_STREAM), "a socket file nothing listens on")
        close(fd)
        for (path, expected) in [(missing, "scand is not running: no socket at \(missing) ("), (stale, "nothing listens on \(stale)")] {
            let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(client) }
            let code = UnixSocket.connect(client, to: path)
            let error = DaemonError.connecting(to: path, IOError(errnoCode: code, reason: "connect"))
            guard case .unreachable(let message, .notRunning) = error else {
                Issue.record("\(path): \(error)")
                continue
            }
            #expect(message.contains(expected), "\(message)")
            #expect(!message.contains("GROUP"))
        }
    }

    /// The group is named: the socket file's, or its directory's when the file cannot be looked at.
    @Test func permissionAdviceNamesTheSocketsGroup() throws {
        let group = try #require(getgrgid(65534).map { String(cString: $0.pointee.gr_name) }, "a group with gid 65534")
        let socket = dir + "/group.sock"
        FileManager.default.createFile(atPath: socket, contents: nil)
        #expect(chown(socket, getuid(), 65534) == 0)
        #expect(SocketGroup.of(socket) == group)
        #expect(SocketGroup.advice(for: socket) == "join its group \(group) (sudo usermod -aG \(group) $USER, then log in again)")
        let hidden = dir + "/hidden"
        try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
        #expect(chown(hidden, getuid(), 65534) == 0)
        #expect(SocketGroup.of(hidden + "/scand.sock") == group, "the directory's group, the file being absent")
        let error = DaemonError.connecting(to: socket, IOError(errnoCode: EACCES, reason: "connect"))
        #expect(error.description == "permission denied on \(socket): join its group \(group) (sudo usermod -aG \(group) $USER, then log in again)")
    }
}
