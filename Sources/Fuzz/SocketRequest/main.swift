import FuzzSupport
import NIOCore
import NIOEmbedded
import ScandCore
import ScandProtocol
import ScandSocket

// The socket's request path: a client's bytes cut into lines by the daemon's own RequestLineDecoder (in two
// reads, split where the input says), each line read by ClientRequest.parse. The first byte picks the line
// limit, so that over-long lines are met too. A request that parses, written again by its encoder (`line`),
// must parse to a request whose line reads back to itself; a refusal is one short line.

func seeds() -> [Fuzz.Seed] {
    let boot = EventPosition.randomBootID()
    let requests: [ClientRequest] = [
        .status, .version, .snapshot, .metrics, .regionOfInterest, .cameraControls, .watch(.init(enable: true)),
        .watch(.init(enable: false)),
        .watch(
            .init(enable: true, classes: [.scan, .lost], formats: try? BarcodeFormats.parse("qr,ean13"), since: EventPosition(boot: boot, seq: 42))),
        .setRegionOfInterest(try! NormalizedRect(x: 0.1, y: 0.2, width: 0.6, height: 0.5)),
        .setCameraControls(
            CameraControlChange(
                settings: [
                    CameraControlSetting(name: "brightness", value: .integer(520)), CameraControlSetting(name: "focus_auto", value: .boolean(false)),
                    CameraControlSetting(name: "power_line_frequency", value: .text("50 Hz"))
                ], keep: true))
    ]
    // A limit byte of 255 (the daemon's default line limit), then the request and its newline.
    var seeds = requests.enumerated().map { (name: "request-\($0.offset)", bytes: [255] + Array(($0.element.line + "\n").utf8)) }
    seeds.append((name: "pipelined", bytes: [255] + Array(requests.map { $0.line + "\r\n" }.joined().utf8)))
    return seeds
}

func test(_ input: [UInt8]) {
    guard let limitByte = input.first else { return }
    // 255 stands for the daemon's default limit; smaller values make short limits that lines run over.
    let limit = limitByte == 255 ? ScandConfig().maxRequestBytes : 1 + Int(limitByte)
    let bytes = input.dropFirst()
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(RequestLineDecoder(maxLength: limit)))
    let cut = bytes.startIndex + (bytes.isEmpty ? 0 : Int(limitByte) % (bytes.count + 1))
    do {
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes[..<cut]))
        try channel.writeInbound(channel.allocator.buffer(bytes: bytes[cut...]))
        while let read = try channel.readInbound(as: RequestLine.self) {
            guard case .line(let line) = read else { continue }
            // Each byte is at most one scalar (a byte that is not UTF-8 becomes U+FFFD, 3 bytes).
            Fuzz.require(
                line.unicodeScalars.count <= limit && !line.contains("\n"), "a line of \(line.unicodeScalars.count) scalars past the limit \(limit)")
            check(line, limit: limit)
        }
        _ = try channel.finish()
    } catch {
        Fuzz.fail("the line decoder threw \(error)")
    }
}

private func check(_ line: String, limit: Int) {
    let request: ClientRequest
    do { request = try ClientRequest.parse(line, maxLength: limit) } catch {
        Fuzz.requireOneLine(error.description)
        return
    }
    if case .watch(let watch) = request, let since = watch.since {
        Fuzz.require(!since.seq.addingReportingOverflow(1).overflow && since.seq > 0, "since's seq \(since.seq) is no event's")
    }
    // The encoder's line must be read back; a rect's numbers are rounded once, then stable.
    do {
        let again = try ClientRequest.parse(request.line)
        Fuzz.require(again.answerClass == request.answerClass, "\(request.line) reads back as \(again.line)")
        let third = try ClientRequest.parse(again.line)
        Fuzz.require(third == again, "\(again.line) reads back as \(third.line)")
    } catch {
        Fuzz.fail("the encoder's own line \(request.line.debugDescription) is refused: \(error)")
    }
}

Fuzz.run(seeds: seeds, test: test)
