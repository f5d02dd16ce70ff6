/// Faults a test can inject into an isolated pass, to prove that a crash costs only that pass.
public enum DecoderFault: Int32, Sendable, Hashable {
    case none = 0, abort = 1, segfault = 2, hang = 3
    /// Tries to open a socket and create a file, and reports what the sandbox said in `DecodeReport.notes`.
    case sandboxProbe = 4
}
