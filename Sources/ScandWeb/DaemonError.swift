import Glibc
import NIOCore

/// Why the daemon gave no answer; its description is the one line the page and the log show.
public enum DaemonError: Error, Equatable, CustomStringConvertible {
    /// Nothing to connect to, or no permission.
    case unreachable(String)
    /// The daemon answered the connection with an ERROR (too many clients, …).
    case refused(String)
    /// The connection closed before the answer came.
    case closed
    /// No answer in time.
    case timeout(seconds: Int)

    public var description: String {
        switch self {
        case .unreachable(let message): message
        case .refused(let message): "scand refused the connection: \(message)"
        case .closed: "scand closed the connection without an answer"
        case .timeout(let seconds): "scand did not answer within \(seconds) s"
        }
    }

    /// A connect failure in words: what is wrong and what to do.
    static func connecting(to path: String, _ error: any Error) -> DaemonError {
        switch (error as? IOError)?.errnoCode {
        case ENOENT, ECONNREFUSED:
            .unreachable("scand is not running: nothing listens on \(path)")
        case EACCES, EPERM:
            .unreachable("permission denied on \(path): scand web's user needs the socket's group")
        default:
            .unreachable("cannot connect to \(path): \(error)")
        }
    }
}
