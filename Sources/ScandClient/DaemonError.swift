import Glibc
import NIOCore

/// Why the daemon gave no answer; its description is the one line a page, a log or a terminal shows.
public enum DaemonError: Error, Equatable, CustomStringConvertible {
    /// Nothing to connect to, or no permission.
    case unreachable(String, Reason)
    /// The daemon answered the connection with an ERROR (too many clients, …).
    case refused(String)
    /// The daemon answered the request with an ERROR (a malformed or forbidden request).
    case refusedRequest(String)
    /// The connection closed before the answer came.
    case closed
    /// No answer in time.
    case timeout(seconds: Int)
    /// The request waited this long behind others of this client and was never sent.
    case backlogged(seconds: Int)
    /// The daemon sent what is not one of its lines.
    case protocolViolation(String)

    /// Why a connection could not be made, for an exit status.
    public enum Reason: Sendable, Equatable {
        case notRunning, permissionDenied, pathTooLong, other
    }

    public var description: String {
        switch self {
        case .unreachable(let message, _): message
        case .refused(let message): "scand refused the connection: \(message)"
        case .refusedRequest(let message): "scand refused the request: \(message)"
        case .closed: "scand closed the connection without an answer"
        case .timeout(let seconds): "scand did not answer within \(seconds) s"
        case .backlogged(let seconds): "too many requests are waiting for scand: this one waited \(seconds) s and was not sent"
        case .protocolViolation(let message): message
        }
    }

    /// A connect failure in words: what is wrong and what to do.
    static func connecting(to path: String, _ error: any Error) -> DaemonError {
        switch (error as? IOError)?.errnoCode {
        case ENOENT, ENOTDIR:
            return .unreachable(
                "scand is not running: no socket at \(path) (start it with `systemctl start scand` or `scand run`, or name its socket with --socket)",
                .notRunning)
        case ECONNREFUSED:
            return .unreachable(
                "scand is not running: nothing listens on \(path), a socket left by a scand that stopped (start it with `systemctl start scand` or `scand run`)",
                .notRunning)
        case EACCES, EPERM:
            return .unreachable("permission denied on \(path): \(SocketGroup.advice(for: path))", .permissionDenied)
        case ENAMETOOLONG:
            return .unreachable("socket path too long: \(path)", .pathTooLong)
        default:
            if error as? SocketAddressError == .unixDomainSocketPathTooLong { return .unreachable("socket path too long: \(path)", .pathTooLong) }
            return .unreachable("cannot connect to \(path): \(error)", .other)
        }
    }
}
