import FuzzSupport
@testable import Hummingbird
@testable import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
@testable import ScandWeb

// A connection's first bytes to `scand web`, through the child channel its server builds (WebApp.server:
// FirstRequestHeadGuard in front of Hummingbird's HTTP/1 decoder), on an
// EmbeddedChannel. Internal pieces, reached with @testable (a debug build has testability): the child channel
// is built by a Hummingbird `package` closure. The first input byte picks the head limit. Whatever comes, the
// server writes nothing but HTTP responses, and a connection whose first head does not end within the limit
// (431) or the header timeout (408) is closed.

func seeds() -> [Fuzz.Seed] {
    let boot = "0123456789abcdef0123456789abcdef"
    let heads = [
        "GET / HTTP/1.1\r\nHost: localhost:8080\r\n\r\n",
        "GET /events?classes=SCAN,LOST&formats=qr HTTP/1.1\r\nHost: localhost\r\nLast-Event-ID: \(boot):42\r\nAccept: text/event-stream\r\n\r\n",
        "POST /api/roi HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 33\r\n\r\n{\"x\":0.1,\"y\":0.2,\"w\":0.6,\"h\":0.5}",
        "GET /events?classes=SCAN,UPDATE,LOST,DEVICE&view=1 HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: local"
    ]
    // A limit byte of 255 (the server's default limit), then the bytes.
    return heads.enumerated().map { (name: "head-\($0.offset)", bytes: [255] + Array($0.element.utf8)) }
}

let logger = Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() }

// One loop for every input. Unlike EmbeddedEventLoop it is thread-safe: what the child channel is handed from
// elsewhere comes back onto this loop, after the input's checks if it is late, never beside them.
let loop = NIOAsyncTestingEventLoop()

func test(_ input: [UInt8]) {
    guard let limitByte = input.first else { return }
    var limits = WebServerLimits()
    if limitByte != 255 { limits.maxHeaderBytes = 16 + 8 * Int(limitByte) }
    let bytes = Array(input.dropFirst())
    do {
        let builder = WebApp.server(limits: limits, metrics: WebMetrics())
        let child = try builder.buildChildChannel { _, _, _ in }
        try connect(child, bytes, limits)
    } catch {
        Fuzz.fail("the server's child channel failed: \(error)")
    }
}

private func connect<Child: ServerChildChannel>(_ child: Child, _ bytes: [UInt8], _ limits: WebServerLimits) throws {
    let channel = NIOAsyncTestingChannel(loop: loop)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
    _ = try loop.flatSubmit { child.setup(channel: channel, logger: logger) }.wait()
    // First in the pipeline, before the head guard: it sees every byte that leaves.
    let written = NIOLockedValueBox("")
    try loop.submit { try channel.pipeline.syncOperations.addHandler(WrittenBytes(into: written), position: .first) }.wait()
    // In two reads, cut where the bytes say: the guard keeps the end of a head that straddles them.
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    for part in [bytes[..<cut], bytes[cut...]] where channel.isActive {
        // An error the pipeline does not handle ends at its tail; the connection's fate is checked below.
        try loop.submit { channel.pipeline.fireChannelRead(channel.allocator.buffer(bytes: part)) }.wait()
    }
    let endOfHead = FirstRequestHeadGuard.endOfHead(in: bytes)
    let later = loop.makePromise(of: Void.self)
    later.completeWithTask { await loop.advanceTime(by: TimeAmount(limits.headerTimeout) + .seconds(3)) }
    try later.futureResult.wait()
    let text = written.withLockedValue { $0 }
    Fuzz.require(text.isEmpty || text.hasPrefix("HTTP/1.1 "), "the server wrote \(text.prefix(80).debugDescription), not an HTTP response")
    if endOfHead.map({ $0 > limits.maxHeaderBytes }) ?? true {
        Fuzz.require(!channel.isActive, "a first head that never ended within \(limits.maxHeaderBytes) bytes left the connection open")
    }
    try? channel.close().wait()
}

/// Everything the server writes, as text.
private final class WrittenBytes: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    let text: NIOLockedValueBox<String>

    init(into text: NIOLockedValueBox<String>) { self.text = text }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = String(buffer: unwrapOutboundIn(data))
        text.withLockedValue { $0 += bytes }
        context.write(data, promise: promise)
    }
}

Fuzz.run(seeds: seeds, test: test)
