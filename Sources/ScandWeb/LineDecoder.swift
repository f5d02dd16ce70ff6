import NIOCore

/// Splits the daemon's stream into lines (without the newline). A SNAPSHOT line is the longest the
/// daemon sends (a base64 JPEG of at most 640 px a side, well under a megabyte); a longer line is a
/// broken stream, not something to buffer.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String
    static let maxLength = 8 << 20

    struct LineTooLong: Error, CustomStringConvertible {
        var description: String { "the daemon sent a line over \(LineDecoder.maxLength) bytes" }
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maxLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        let line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData  // a last line without its newline was cut off: dropped
    }
}
