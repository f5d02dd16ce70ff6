import Foundation

/// One line from the daemon: its class, and the message of an ERROR.
public struct DaemonAnswer: Sendable, Equatable {
    public var line: String

    public init(line: String) { self.line = line }

    /// The `class` field. The daemon's encoder writes it first, so a SNAPSHOT's 50 KB need not be parsed
    /// to learn it; a line that does not start so is parsed as JSON.
    public var eventClass: String? {
        let prefix = #"{"class":""#
        if line.hasPrefix(prefix) {
            let rest = line.utf8.dropFirst(prefix.utf8.count)
            if let quote = rest.firstIndex(of: UInt8(ascii: "\"")) { return String(rest[..<quote]) }
        }
        return object?["class"] as? String
    }

    /// The `message` of an ERROR, or the line itself when it is not the JSON it should be.
    public var message: String { (object?["message"] as? String) ?? line }

    public var isError: Bool { eventClass == "ERROR" }

    /// The line as a JSON object; nil when it is not one.
    public var object: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}
