import Foundation
import ScandProtocol

extension Event {
    /// The event of what the tracker reported.
    /// - Parameters:
    ///   - frame: the frame it was seen in (sequence, width, height); nil for a LOST decided between frames.
    ///   - latencyMilliseconds: capture to now, reported with a SCAN.
    public init(_ e: TrackEvent, device: String, time: Date, frame: (sequence: UInt64, width: Int, height: Int)?, latencyMilliseconds: Double?) {
        let code = TrackedCode(
            id: e.id, device: device, time: time, frame: frame?.sequence, detection: e.detection,
            frameWidth: frame?.width ?? 0, frameHeight: frame?.height ?? 0, latencyMilliseconds: latencyMilliseconds)
        switch e {
        case .scan: self = .scan(code)
        case .update: self = .update(code)
        case .lost: self = .lost(code)
        }
    }
}
