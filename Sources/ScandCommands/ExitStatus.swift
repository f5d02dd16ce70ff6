import ScandClient

/// One exit status per kind of error, for every command (BSD sysexits, as scand(8) lists them), except
/// `scand scan`, which exits as zbarimg does, and `scand watch --timeout`'s 4.
enum ExitStatus {
    /// EX_USAGE: a bad option or option value; a request the daemon refuses.
    static let usage: Int32 = 64
    /// EX_DATAERR: input data that cannot be used (a code that cannot be drawn).
    static let dataError: Int32 = 65
    /// EX_NOINPUT: an input file that does not exist or cannot be read.
    static let noInput: Int32 = 66
    /// EX_UNAVAILABLE: no daemon answers, or a service needed (uinput) is not there.
    static let unavailable: Int32 = 69
    /// EX_SOFTWARE: an internal error.
    static let software: Int32 = 70
    /// EX_OSERR: the system refused what was asked of it (a virtual keyboard).
    static let osError: Int32 = 71
    /// EX_OSFILE: a program scand needs (scand-decoder, scand-bench) is missing.
    static let missingFile: Int32 = 72
    /// EX_IOERR: reading or writing failed, a socket or a port cannot be served.
    static let ioError: Int32 = 74
    /// EX_TEMPFAIL: try again later (the daemon refused the connection: too many clients).
    static let temporaryFailure: Int32 = 75
    /// EX_NOPERM: no permission (the socket's group, uinput's).
    static let permission: Int32 = 77
    /// EX_CONFIG: a wrong configuration file; the units do not restart for it.
    static let configuration: Int32 = 78

    /// The status for a daemon that gave no answer.
    static func of(_ error: DaemonError) -> Int32 {
        switch error {
        case .unreachable(_, .permissionDenied): permission
        // The daemon's refusal of a change of settings to a client outside its admin group (`AdminGroup`).
        case .refusedRequest(let message) where message.hasPrefix("changing settings"): permission
        case .unreachable(_, .pathTooLong), .refusedRequest: usage
        case .refused, .backlogged: temporaryFailure
        case .unreachable, .closed, .timeout, .protocolViolation: unavailable
        }
    }
}
