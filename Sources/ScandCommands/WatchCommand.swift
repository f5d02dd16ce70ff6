import ArgumentParser
import Foundation
import ScandCore
import ScandService

/// `scand watch`: the command-line subscriber. Prints the daemon's events, one JSON object per line.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Subscribe to a running scand and print its events.",
        discussion: "Exit status: 0 when the daemon closes the connection, 69 when no daemon is running, 77 without permission."
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
        try client.send((status ? "?STATUS;" : request) + "\n")
        while let line = client.readLine() {
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
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            Glibc.close(fd)
            throw ConnectError(description: "socket path too long: \(path)", exitCode: 64)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 {
            let e = errno
            Glibc.close(fd)
            switch e {
            case ENOENT, ECONNREFUSED:
                throw ConnectError(description: "scand is not running: nothing listens on \(path) (start it with `systemctl start scand` or `scand run`)", exitCode: 69)
            case EACCES, EPERM:
                throw ConnectError(description: "permission denied on \(path): join the socket's group (usermod -aG GROUP USER)", exitCode: 77)
            default:
                throw ConnectError(description: "cannot connect to \(path): \(String(cString: strerror(e)))", exitCode: 69)
            }
        }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ValidationError("the daemon closed the connection") }
            offset += n
        }
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
