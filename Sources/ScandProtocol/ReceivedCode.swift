import ScandCore

/// What a client acts on in a SCAN, UPDATE or LOST line: the tracker's id, the format and the text (UPDATE
/// carries none). The rest of the line stays in `ReceivedEvent.line` for clients that relay it.
public struct ReceivedCode: Sendable, Equatable {
    public var id: Int
    public var format: BarcodeFormat
    public var text: String?
    public var device: String?

    public init(id: Int, format: BarcodeFormat, text: String?, device: String?) {
        self.id = id
        self.format = format
        self.text = text
        self.device = device
    }
}
