import NIOCore

/// A request line from a socket client, or the news that one was too long.
package enum RequestLine: Sendable, Equatable {
    case line(String)
    /// A line over the limit: refused, its bytes discarded up to the next newline, the connection kept.
    case tooLong
}

/// Splits a client's bytes into newline-terminated lines of at most `maxLength` bytes (without the newline).
/// A longer line is reported once, as soon as it is known to be too long, and skipped up to its newline:
/// memory per client stays bounded whatever a client sends.
package struct RequestLineDecoder: ByteToMessageDecoder {
    package typealias InboundOut = RequestLine

    let maxLength: Int
    /// Discarding the rest of an over-long line.
    private var skipping = false

    package init(maxLength: Int) { self.maxLength = maxLength }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maxLength || skipping {
                if !skipping { context.fireChannelRead(wrapInboundOut(.tooLong)) }
                skipping = true
                buffer.moveReaderIndex(to: buffer.writerIndex)
            }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        if skipping || length > maxLength {
            if !skipping { context.fireChannelRead(wrapInboundOut(.tooLong)) }
            skipping = false
            buffer.moveReaderIndex(forwardBy: length + 1)
            return .continue
        }
        let line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(.line(line)))
        return .continue
    }

    /// A last line without its newline is not a request: gpsd's clients end each one.
    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
