import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What a connection's handler has seen of its requests and responses, which the application answers in
/// order: request heads passed on, responses written whole, and whether a request's body or a response is
/// under way. `RequestBodyDeadline` and `ParseErrorResponder` both decide from it when an answer of their own
/// may be written.
struct HTTPExchanges {
    private(set) var requests = 0
    private(set) var responses = 0
    /// A request's head came and its end has not.
    private(set) var reading = false
    /// A response's head is written and its end is not.
    private(set) var responding = false

    mutating func read(_ part: HTTPRequestPart) {
        switch part {
        case .head:
            requests += 1
            reading = true
        case .end: reading = false
        case .body: break
        }
    }

    mutating func wrote(_ part: HTTPResponsePart) {
        switch part {
        case .head(let head) where head.status.kind != .informational: responding = true
        case .end:
            responding = false
            responses += 1
        default: break
        }
    }

    /// The handler's own last answer, `status` with no body, the connection closing once it is out.
    static func closingAnswer(_ status: HTTPResponse.Status) -> (head: HTTPResponsePart, end: HTTPResponsePart) {
        (.head(HTTPResponse(status: status, headerFields: [.connection: "close", .contentLength: "0"])), .end(nil))
    }
}
