import Foundation
import NIOConcurrencyHelpers

/// Debian's mosquitto on 127.0.0.1 with a free port and a configuration of its own in a temporary
/// directory, owned by the test: stopped (SIGTERM, which saves its persistence file) and started again on
/// the same port at will, killed when the test lets go of it.
public final class MosquittoBroker: Sendable {
    public static let executable = "/usr/sbin/mosquitto"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public let port: Int
    public let directory: String
    private let process = NIOLockedValueBox<SpawnedProcess?>(nil)

    public struct TLS: Sendable {
        public var caFile: String
        public var certFile: String
        public var keyFile: String
        /// Clients must present a certificate the CA signed.
        public var requireClientCertificate = true

        public init(caFile: String, certFile: String, keyFile: String) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    public init(tls: TLS? = nil) throws {
        port = try Self.freePort()
        directory = TestFiles.directory("scand-e2e-mosquitto")
        var config = """
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence true
            persistence_location \(directory)/
            log_dest file \(directory)/mosquitto.log
            log_type all

            """
        if geteuid() == 0 { config += "user root\n" }  // else it drops to the user mosquitto, who cannot read this directory
        if let tls {
            config += "cafile \(tls.caFile)\ncertfile \(tls.certFile)\nkeyfile \(tls.keyFile)\n"
            config += "require_certificate \(tls.requireClientCertificate)\n"
        }
        try config.write(toFile: directory + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        process.withLockedValue { p in
            p?.signal(SIGKILL)
            p?.wait()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the broker and waits until it accepts connections.
    public func start() throws {
        let p = try SpawnedProcess(Self.executable, ["-c", directory + "/mosquitto.conf"])
        process.withLockedValue { $0 = p }
        if Eventually.wait(seconds: 20, until: { Self.accepts(port: port) || !p.isRunning }), Self.accepts(port: port) { return }
        throw BrokerError("mosquitto did not start on port \(port): \(log.suffix(2000))")
    }

    /// SIGTERM and wait: the broker saves its sessions and queued messages first.
    public func stop() {
        guard let p = process.withLockedValue({ $0 }) else { return }
        p.signal(SIGTERM)
        p.wait()
    }

    /// SIGKILL and wait: a broker that crashes, its TLS sessions cut without a close.
    public func kill() {
        guard let p = process.withLockedValue({ $0 }) else { return }
        p.signal(SIGKILL)
        p.wait()
    }

    public var log: String { (try? String(contentsOfFile: directory + "/mosquitto.log", encoding: .utf8)) ?? "" }

    public struct BrokerError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = loopback(port: port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    static func loopback(port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return addr
    }

    /// A port the kernel just handed out on 127.0.0.1 (free, and not reused at once).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = loopback(port: 0)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
        }
        guard ok else { throw BrokerError("no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
