import ScandCapture
import ScandCore

/// `scand bench frames`'s cluttered counter: photos of things that look like codes and are none (the shared
/// test data's falsepositives-1: shelf edges, text, grilles, stripes), laid at their own contrast in a grid of
/// cells over a counter wider than the frame, with fresh sensor noise in every frame, as 720p MJPEG from a
/// webcam. Panning, the camera moves along the counter `pan` px a frame (every frame a new scene, nothing to
/// read); still, it rests (only the noise differs) but for a hand passing over it every 4 s. What a till's camera
/// sees between items.
package enum ClutterScene {
    /// Pixels the view moves a frame while panning (a camera nudged, a counter being wiped: 180 px a second).
    static let pan = 6
    /// Frames before the pan starts over (two seconds).
    static let panFrames = 60

    /// Still, a hand passes over the counter this often (frames: 4 s), for `handFrames`, and the counter comes
    /// back to rest as it was: a till between customers.
    static let stillFrames = 120
    static let handFrames = 6

    package static func frames(width: Int, height: Int, photos: [LumaImage], panning: Bool) -> [Frame] {
        let count = panning ? panFrames : 8 + handFrames
        let canvasWidth = width + (panning ? pan * count : 0)
        var counter = LumaImage(width: canvasWidth, height: height, fill: 150)
        TillSession.lay(photos, on: &counter, seed: 5, columns: max(1, canvasWidth / 480), rows: 2, halved: false)
        var rng = Xorshift(seed: 11)
        let encoder = MJPEGEncoder(quality: 85)
        let made = (0..<count).map { f in
            var view = LumaImage(width: width, height: height)
            let x0 = panning ? f * pan : 0
            // The hand: a dark oval sweeping across the lower half.
            let hand = !panning && f >= 8 ? (x: (f - 8) * width / handFrames, y: height * 2 / 3) : nil
            for y in 0..<height {
                for x in 0..<width {
                    let noise = Int(rng.next() % 7) + Int(rng.next() % 7) + Int(rng.next() % 7) - 9
                    var v = Int(counter[x0 + x, y]) + noise
                    if let hand, (x - hand.x) * (x - hand.x) / 4 + (y - hand.y) * (y - hand.y) < height * height / 25 { v = 70 + noise }
                    view[x, y] = UInt8(clamping: v)
                }
            }
            return encoder.frame(view, sequence: UInt64(f))
        }
        guard !panning else { return made }
        // At rest for `stillFrames` (the noise frames in turn), then the hand.
        return (0..<stillFrames).map { made[$0 % 8] } + made[8...]
    }
}
