import ArgumentParser
import Foundation
import ScandClient
import ScandCore
import ScandFiles

/// Where a client finds the daemon when neither `--socket` nor a configuration file names its socket: the
/// socket a daemon run by this user makes (`$XDG_RUNTIME_DIR/scand.sock`), then the packaged daemon's
/// (/run/scand/scand.sock, for members of its group), the first that accepts a connection. When none does,
/// one line names each path tried and why it failed.
struct DaemonSocket {
    /// Why a path did not answer, or that it did.
    enum Probe: Equatable {
        case answers
        case missing
        /// No permission; the group that may connect, when the socket file says.
        case permissionDenied(group: String?)
        /// A socket file with nothing behind it (a daemon that stopped without removing it).
        case refused
        case failed(String)

        var reason: String {
            switch self {
            case .answers: "answers"
            case .missing: "no such socket"
            case .permissionDenied(let group?):
                "permission denied: join its group \(group) (sudo usermod -aG \(group) $USER, then log in again)"
            case .permissionDenied(nil): "permission denied"
            case .refused: "nothing listens there"
            case .failed(let why): why
            }
        }
    }

    /// `--socket`'s help, for every client command.
    static let optionHelp = ArgumentHelp(
        "The daemon's socket (default: the first that answers of $XDG_RUNTIME_DIR/scand.sock, where `scand run` puts it for this user, and /run/scand/scand.sock, the packaged daemon's).",
        valueName: "PATH")

    /// The paths to try, in order: root's daemon has the system path only (as `scand run` makes it for root).
    let candidates: [String]
    var probe: (String) -> Probe = Self.probe

    init(candidates: [String]) {
        self.candidates = candidates
    }

    init(euid: uid_t = geteuid(), environment: [String: String] = ProcessInfo.processInfo.environment) {
        let own = Self.ownPath(euid: euid, environment: environment)
        self.init(candidates: own == ScandConfig.systemSocketPath ? [own] : [own, ScandConfig.systemSocketPath])
    }

    /// Where `scand run` puts its socket for this user when nothing says otherwise: /run/scand for root (as
    /// the systemd units have it), the user's runtime directory for anyone else.
    static func ownPath(euid: uid_t = geteuid(), environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if euid == 0 { return ScandConfig.systemSocketPath }
        if let dir = environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") { return dir + "/scand.sock" }
        return "/tmp/scand-\(euid).sock"
    }

    /// The first candidate that accepts a connection, else an error naming every path tried and why. A
    /// single candidate is not probed: the connection itself says what is wrong.
    func resolve() throws(DaemonError) -> String {
        let (answering, tried) = firstAnswering()
        if let answering { return answering }
        let denied = tried.contains { if case .permissionDenied = $0.1 { true } else { false } }
        let list = tried.map { "\($0.0) (\($0.1.reason))" }.joined(separator: "; ")
        throw .unreachable(
            "no scand answers: tried \(list). Start it (`systemctl start scand`, or `scand run`), or name its socket with --socket",
            denied ? .permissionDenied : .notRunning)
    }

    /// For a client that waits for the daemon (`--reconnect`, the wedge, the bridge, the web page): the first
    /// candidate that answers, else the first whose socket file is there (a daemon stopped, a group not
    /// joined yet), else the first.
    func waitingPath() -> String {
        let (answering, tried) = firstAnswering()
        return answering ?? tried.first { $0.1 != .missing }?.0 ?? candidates.first ?? ScandConfig.systemSocketPath
    }

    private func firstAnswering() -> (String?, [(String, Probe)]) {
        guard candidates.count > 1 else { return (candidates.first ?? ScandConfig.systemSocketPath, []) }
        var tried: [(String, Probe)] = []
        for path in candidates {
            let outcome = probe(path)
            if outcome == .answers { return (path, tried) }
            tried.append((path, outcome))
        }
        return (nil, tried)
    }

    /// Connects without blocking and closes at once: whether something accepts connections on `path` (a
    /// full backlog counts: the daemon is there, busy).
    static func probe(_ path: String) -> Probe {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno)).lowercased()) }
        defer { close(fd) }
        switch UnixSocketAddress.connect(fd, to: path) {
        case 0, EAGAIN, EINPROGRESS: return .answers
        case ENOENT, ENOTDIR: return .missing
        case EACCES, EPERM: return .permissionDenied(group: group(of: path))
        case ECONNREFUSED: return .refused
        case let e: return .failed(String(cString: strerror(e)).lowercased())
        }
    }

    /// The group of the socket file (scand-clients for the packaged daemon), when it can be read.
    static func group(of path: String) -> String? { SocketGroup.of(path) }
}
