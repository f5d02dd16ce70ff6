import Foundation
import NIOCore
import NIOPosix
import ScandFiles
import ScandLogging

extension SocketServer {
    /// The listening socket: each accepted client an async channel of request lines in, lines out.
    typealias Listening = NIOAsyncChannel<ClientConnection.Accepted, Never>

    /// Starts listening. Returns the listener, and the socket file's identity when scand created it: on exit
    /// the file is removed only if it is still that one (a second daemon may have replaced it since).
    func bind() async throws -> (Listening, FileIdentity?) {
        switch listener {
        case .inherited(let fd):
            let listening = try await listen(on: fd)
            log("serving clients on the socket systemd passed (scand.socket)", .info)
            return (listening, nil)
        case .path(let path, let groupName):
            return try await bind(path, group: groupName)
        }
    }

    /// Binds `path` here rather than in NIO, which would remove whatever socket is at the path when it closes:
    /// the file is removed on exit only if it is still the one made here. Bound under a name of its own and
    /// renamed into place once listening, so a client that sees the path can connect (when the path is too
    /// long for that name, bound in place). The name is this process's own: no other daemon's staging can
    /// remove it.
    private func bind(_ path: String, group groupName: String) async throws -> (Listening, FileIdentity?) {
        var gid: gid_t?
        if !groupName.isEmpty {
            guard let g = getgrnam(groupName) else { throw BindError(description: "socket group '\(groupName)' does not exist") }
            gid = g.pointee.gr_gid
        }
        let dir = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fresh = path + ".new.\(getpid())"
        let staging = fresh.utf8.count < 108 ? fresh : path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BindError(description: "cannot listen on \(path): \(String(cString: strerror(errno)))") }
        if staging != path { unlink(staging) }  // a leftover of a process of this pid that died between bind and rename
        let e = UnixSocketAddress.bind(fd, to: staging)
        guard e == 0 else {
            close(fd)
            // EADDRINUSE: another daemon bound the path since `claim`.
            throw BindError(description: "cannot listen on \(path): \(String(cString: strerror(e)).lowercased())")
        }
        // Clients of the group may connect; nobody else. Set before listening, so nobody connects earlier.
        chmod(staging, 0o660)
        let given = gid.map { chown(staging, UInt32.max, $0) == 0 } ?? true
        let reason = String(cString: strerror(errno))
        guard given else {
            close(fd)
            unlink(staging)
            throw BindError(description: "cannot give \(path) to group '\(groupName)': \(reason)")
        }
        do {
            let listening = try await listen(on: fd)
            if staging != path, rename(staging, path) != 0 {
                let why = String(cString: strerror(errno))
                try? await listening.channel.close()
                unlink(staging)
                throw BindError(description: "cannot listen on \(path): \(why)")
            }
            let file = FileIdentity(path: path)  // after chmod, chown and rename, which change it
            // Where clients connect: a daemon not run by root picks its own path (XDG_RUNTIME_DIR or /tmp).
            log("serving clients on \(path) (mode 0660" + (groupName.isEmpty ? ")" : ", group \(groupName))"), .info)
            return (listening, file)
        } catch let error as BindError {
            throw error
        } catch {
            unlink(staging)
            throw BindError(description: "cannot listen on \(path): \(error)")
        }
    }

    /// Listens on a bound socket; each client is set up as it is accepted (`ClientConnection.accept`).
    private func listen(on fd: Int32) async throws -> Listening {
        let maxRequestBytes = self.maxRequestBytes
        let listening = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            // A client with more than 256 KiB waiting is unwritable: it is not keeping up (`ClientWriter`).
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 256 * 1024))
            // Read once the task serving a client has wrapped it (`ClientConnection.Accepted`).
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .bind(fd) { ClientConnection.accept($0, maxRequestBytes: maxRequestBytes) }
        widenBacklog(fd)
        return listening
    }

    /// A burst of connections up to max_clients waits in the kernel's queue rather than failing with EAGAIN
    /// (the kernel caps it at net.core.somaxconn). NIO listens on a socket it is handed with a backlog of 128
    /// and ignores its backlog option there; listen(2) again on a listening socket only changes the backlog.
    private func widenBacklog(_ fd: Int32) {
        Glibc.listen(fd, Int32(clamping: max(maxClients, Int(SOMAXCONN))))
    }
}
