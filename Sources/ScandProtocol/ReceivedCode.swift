import Foundation
import ScandCore

/// What a client acts on in a SCAN, UPDATE or LOST line: the tracker's id, the format, the text (UPDATE
/// carries none), the camera and the time. The rest of the line stays in `ReceivedEvent.line` for clients
/// that relay it.
public struct ReceivedCode: Sendable, Equatable {
    public var id: Int
    /// The format's name as the daemon wrote it.
    public var formatName: String
    /// nil for a format this client does not know (a newer daemon's): its scans still come through.
    public var format: BarcodeFormat? { BarcodeFormat(name: formatName) }
    public var text: String?
    public var device: String?
    public var time: Date?

    public init(id: Int, formatName: String, text: String?, device: String?, time: Date? = nil) {
        self.id = id
        self.formatName = formatName
        self.text = text
        self.device = device
        self.time = time
    }
}
