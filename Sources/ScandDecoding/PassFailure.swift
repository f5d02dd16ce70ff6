/// A pass that did not complete. The detections of every other pass are still reported.
public struct PassFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Refused before it reached the library (bad crop, bad image geometry).
        case badArgument = "bad-argument"
        /// The library threw a C++ exception (caught in the shim).
        case exception
        /// The isolated decoder process died: a library assert (SIGABRT) or a crash.
        case crashed
        /// The isolated decoder process overran its deadline and was killed.
        case timeout
        /// No decoder process could be started (scand-decoder missing), or a pipe failed.
        case system
    }

    public var pass: String
    public var kind: Kind
    public var signal: Int32
    public var message: String

    public var description: String {
        let sig = kind == .crashed && signal != 0 ? " (signal \(signal))" : ""
        return "decoder pass '\(pass)' \(kind.rawValue)\(sig): \(message)"
    }
}
