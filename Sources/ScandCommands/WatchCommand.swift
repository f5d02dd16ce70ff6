import ArgumentParser
import Foundation
import ScandCore
import ScandService

/// `scand watch`: the command-line subscriber. Prints the daemon's events, one JSON object per line.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a running scand and print its events.",
        discussion: """
            Exit status: 0 when the daemon closes the connection, 64 when it refuses the request, 69 when no daemon is \
            running, 75 when it refuses the connection (too many clients: try again later), 77 without permission. \
            A refusal prints the daemon's reason.
            """
    )

    @Option(name: .long, help: "The daemon's socket (default: where `scand run` puts it for this user; /run/scand/scand.sock for root).")
    var socket: String = defaultSocketPath()

    @Option(name: .long, help: "Only these event classes, comma-separated (SCAN, LOST, UPDATE, DEVICE, …).")
    var classes: String?

    @Option(name: .long, help: "Only codes of these formats, comma-separated.")
    var formats: String?

    @Flag(name: .long, help: "Print one STATUS object and exit.")
    var status = false

    func run() throws {
        var request = "?WATCH={\"enable\":true"
        if let classes {
            let list = classes.split(separator: ",").map { "\"\($0.trimmingCharacters(in: .whitespaces).uppercased())\"" }
            request += ",\"classes\":[\(list.joined(separator: ","))]"
        }
        if let formats {
            do { _ = try BarcodeFormats.parse(formats) } catch { throw ValidationError(error.description) }
            let list = formats.split(separator: ",").map { "\"\($0.trimmingCharacters(in: .whitespaces))\"" }
            request += ",\"formats\":[\(list.joined(separator: ","))]"
        }
        request += "};"
        let client: UnixLineClient
        do { client = try UnixLineClient(path: socket) } catch {
            OutputSinkLog.write(error.description)
            throw ExitCode(error.exitCode)
        }
        defer { client.close() }
        // A daemon that refuses the connection may have closed it already; its reason is still there to read.
        let sent = client.send((status ? "?STATUS;" : request) + "\n")
        var greeted = false
        while let line = client.readLine() {
            if line.hasPrefix(#"{"class":"ERROR""#) {
                let reason = Self.message(ofError: line)
                OutputSinkLog.write(greeted ? "scand refused the request: \(reason)" : "scand refused the connection: \(reason)")
                throw ExitCode(greeted ? 64 : 75)
            }
            greeted = true
            // The daemon escapes control characters already; escaping again here means nothing a barcode
            // holds reaches the terminal raw, whoever wrote the line.
            let safe = line.escapingControlCharacters()
            if status {
                guard safe.contains(#""class":"STATUS""#) else { continue }
                OutputSink.writeAll(1, safe + "\n")
                return
            }
            OutputSink.writeAll(1, safe + "\n")  // unbuffered: a pipe reader sees each event at once
        }
        if !sent || status {
            OutputSinkLog.write("scand closed the connection without an answer")
            throw ExitCode(69)
        }
    }

    /// The `message` of an ERROR line (the whole line if it is not the JSON it should be).
    static func message(ofError line: String) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["message"] as? String) ?? line
    }
}

/// A blocking line client for a Unix stream socket.
final class UnixLineClient {
    struct ConnectError: Error, CustomStringConvertible {
        var description: String
        var exitCode: Int32
    }

    private let fd: Int32
    private var buffer = [UInt8]()

    init(path: String) throws(ConnectError) {
        fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ConnectError(description: "socket: \(String(cString: strerror(errno)))", exitCode: 71) }
        let e = UnixSocketAddress.connect(fd, to: path)
        if e != 0 {
            Glibc.close(fd)
            switch e {
            case ENAMETOOLONG:
                throw ConnectError(description: "socket path too long: \(path)", exitCode: 64)
            case ENOENT, ECONNREFUSED:
                throw ConnectError(
                    description: "scand is not running: nothing listens on \(path) (start it with `systemctl start scand` or `scand run`)",
                    exitCode: 69)
            case EACCES, EPERM:
                throw ConnectError(description: "permission denied on \(path): join the socket's group (usermod -aG GROUP USER)", exitCode: 77)
            default:
                throw ConnectError(description: "cannot connect to \(path): \(String(cString: strerror(e)))", exitCode: 69)
            }
        }
    }

    /// Whether the whole text was sent (false once the daemon has closed the connection; no SIGPIPE).
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// The next line without its newline; nil at end of stream.
    func readLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }

    func close() { Glibc.close(fd) }
}
