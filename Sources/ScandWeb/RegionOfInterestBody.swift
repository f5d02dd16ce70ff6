import Foundation
import NIOCore
import ScandCore
import ScandProtocol

/// The body of POST /api/roi, `{"x":0.1,"y":0.2,"w":0.5,"h":0.6}` in 0…1 of the frame, checked here so a
/// wrong one gets 400 with its reason and never reaches the daemon.
struct RegionOfInterestBody: Equatable {
    var rect: NormalizedRect

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(json body: ByteBuffer) throws(Problem) {
        let shape = #"expected {"x":…,"y":…,"w":…,"h":…} in 0…1 of the frame"#
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] else {
            throw Problem(description: "not JSON: \(shape)")
        }
        if let extra = object.keys.sorted().first(where: { !["x", "y", "w", "h"].contains($0) }) {
            throw Problem(description: "unknown field '\(extra.prefix(32))': \(shape)")
        }
        struct Numbers: Decodable { var x, y, w, h: Double }
        let numbers: Numbers
        do { numbers = try JSONDecoder().decode(Numbers.self, from: Data(body.readableBytesView)) } catch {
            throw Problem(description: "x, y, w and h must all be numbers: \(shape)")
        }
        let (x, y, w, h) = (numbers.x, numbers.y, numbers.w, numbers.h)
        guard x >= 0, y >= 0, w > 0, h > 0, x + w <= 1.000_001, y + h <= 1.000_001 else {
            throw Problem(description: "the rect must lie in the frame (x, y ≥ 0, w, h > 0, x + w ≤ 1, y + h ≤ 1), got \(x),\(y),\(w),\(h)")
        }
        // A sum over 1 by less than rounding is the frame's edge.
        do { rect = try NormalizedRect(x: x, y: y, width: min(w, 1 - x), height: min(h, 1 - y)) } catch {
            throw Problem(description: "\(error.description): \(shape)")
        }
    }

    /// The daemon's request (its encoder writes 4 decimals: a tenth of a pixel at 1080p).
    var request: ClientRequest { .setRegionOfInterest(rect) }
}
