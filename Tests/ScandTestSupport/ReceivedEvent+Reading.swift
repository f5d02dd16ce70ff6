import ScandProtocol

extension ReceivedEvent {
    /// A line read as a client reads it (`EventDecoder`), or nil: for tests that pick the events out of output
    /// that holds other lines too.
    public init?(reading line: String) {
        guard let event = try? EventDecoder.decode(line) else { return nil }
        self = event
    }
}
