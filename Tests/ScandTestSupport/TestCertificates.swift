import Foundation

/// A CA, a broker certificate for 127.0.0.1/localhost and a client certificate, made with openssl in a
/// temporary directory; and a second CA that signed none of them.
public struct TestCertificates: Sendable {
    public let directory: String
    public var caFile: String { directory + "/ca.pem" }
    public var serverCert: String { directory + "/server.pem" }
    public var serverKey: String { directory + "/server.key" }
    public var clientCert: String { directory + "/client.pem" }
    public var clientKey: String { directory + "/client.key" }
    public var otherCAFile: String { directory + "/other-ca.pem" }

    public static var opensslAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    public init() throws {
        directory = TestFiles.directory("scand-e2e-certs")
        let d = directory
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=scand test CA",
            "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem"
        ])
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=some other CA",
            "-keyout", "\(d)/other-ca.key", "-out", "\(d)/other-ca.pem"
        ])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: "\(d)/server.ext", atomically: true, encoding: .utf8)
        for (name, subject, ext) in [("server", "/CN=localhost", ["-extfile", "\(d)/server.ext"]), ("client", "/CN=till-1", [])] {
            try Self.openssl(["req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", "\(d)/\(name).key", "-out", "\(d)/\(name).csr"])
            try Self.openssl(
                [
                    "x509", "-req", "-in", "\(d)/\(name).csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key", "-CAcreateserial",
                    "-days", "2", "-out", "\(d)/\(name).pem"
                ] + ext)
        }
    }

    public func remove() { try? FileManager.default.removeItem(atPath: directory) }

    static func openssl(_ arguments: [String]) throws {
        let p = try ScandBinary.runTool("/usr/bin/openssl", arguments)
        guard p.status == 0 else {
            throw MosquittoBroker.BrokerError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(p.stderr)")
        }
    }
}
