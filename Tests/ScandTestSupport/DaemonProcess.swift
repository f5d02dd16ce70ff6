import Foundation

/// The real `scand` running in the background, started with posix_spawn and SIGTERM unblocked
/// (`SpawnedProcess`), its stdout and stderr collected line by line.
public final class DaemonProcess: Sendable {
    public let process: SpawnedProcess

    /// - Parameter stdoutUnread: stdout is a pipe (of one page) that nobody reads, as a stuck consumer's.
    /// - Parameter withoutStdinAndStdout: started with descriptors 0 and 1 closed.
    public init(
        _ arguments: [String], environment: [String: String] = [:], executable: String = ScandBinary.path, stdoutUnread: Bool = false,
        withoutStdinAndStdout: Bool = false
    ) throws {
        process = try SpawnedProcess(
            executable, arguments, environment: environment, stdoutUnread: stdoutUnread, withoutStdinAndStdout: withoutStdinAndStdout)
    }

    public var stdout: [String] { process.stdout }
    public var stderr: [String] { process.stderr }

    /// Waits until `condition` holds, up to `seconds`.
    @discardableResult
    public func wait(seconds: Double = 20, until condition: () -> Bool) -> Bool { Eventually.wait(seconds: seconds, until: condition) }

    public func signal(_ sig: Int32) { process.signal(sig) }

    /// Waits for exit (after SIGKILL past `seconds`) and for the output to be read.
    public func finish(seconds: Double = 20) -> Int32 { process.finish(seconds: seconds) }
}
