/// Where `scand web` listens: `HOST:PORT`, an IPv6 host in brackets (`[::1]:8088`). Port 0 takes a free one.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public static let `default` = ListenAddress(host: "127.0.0.1", port: 8088)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public typealias Problem = ScandCore.Problem

    public init(parsing text: String) throws(Problem) {
        let problem = Problem("listen address must be HOST:PORT (127.0.0.1:8088, [::1]:8088), got '\(text.prefix(64))'")
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw problem }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw problem }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { throw problem }  // an IPv6 address needs its brackets
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) }),
            portText.allSatisfy(\.isASCII), let port = Int(portText)
        else { throw problem }
        guard (0...65535).contains(port) else {
            throw Problem("listen port must be 0…65535, got \(port)")
        }
        self.init(host: String(host), port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
