import ScandSocket
import ScandPipeline

/// Where the daemon stands in one line, for systemd.
public enum StatusSummary {
    /// One line for systemctl status.
    public static func line(_ p: LivePipeline, hub: EventHub) -> String {
        let c = p.counters
        let camera: String
        if let d = p.deviceStatus {
            switch d.state {
            case .streaming: camera = "streaming \(d.device)" + (d.format.map { " \($0.width)x\($0.height)" } ?? "")
            case .waiting, .lost: camera = "waiting for \(d.device): \(d.reason ?? "")"
            case .stopped: camera = "stopped \(d.device)"
            }
        } else {
            camera = "opening the camera"
        }
        return "\(camera); \(c.decoded) frames decoded, \(c.scans) scans; \(hub.counters.watching) subscribers"
    }
}
