import Foundation
import ScandCore
import ScandProtocol

/// The tests' one tracked code: a QR code of `text` in a 640x480 frame, code `id` of frame `id`.
public enum SampleCode {
    public static func tracked(_ id: Int, text: String) -> TrackedCode {
        let detection = Detection(
            format: .qrCode, text: text, bytes: Array(text.utf8),
            corners: Quadrilateral([Point(10, 10), Point(50, 10), Point(50, 50), Point(10, 50)]))
        return TrackedCode(
            id: id, device: "/dev/video0", time: Date(timeIntervalSince1970: 1_795_352_075), frame: UInt64(id), detection: detection,
            frameWidth: 640, frameHeight: 480)
    }
}
