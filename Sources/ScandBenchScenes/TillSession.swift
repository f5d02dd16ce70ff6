import Foundation
import ScandCapture
import ScandCore
import ScandDecoding

/// A generated till session at 720p and 30 fps: items of the retail mix brought to a webcam one after another
/// over a counter, each held 1–3 s (or shaken) or swiped through in 10–15 frames, with a short empty counter
/// between them. Seeded: the same frames every run. Each item's label is made once; a frame costs a copy of
/// the counter, the label turned and moved (smeared along its motion while it moves), and sensor noise over
/// it: linear in the label's area.
package struct TillSession {
    static let width = 1280, height = 720
    static let frameMicroseconds: UInt64 = 33_333
    static let leadIn = 15

    /// Where an item is in one frame, and the smear its motion leaves during the exposure (px).
    struct Pose: Equatable {
        var x: Double
        var y: Double
        var degrees: Double
        var smearX = 0.0
        var smearY = 0.0
    }

    /// One item's time in front of the camera.
    package struct Appearance {
        package var item: Int
        /// The first frame with the item in view.
        package var start: Int
        var poses: [Pose]
        /// The first frame of the next item's appearance (or the session's end): SCANs before it are this item's.
        package var windowEnd: Int
        package var end: Int { start + poses.count }
        /// The frame the item is held stillest, in the middle of its hold (or of its swipe).
        var bestFrame: Int
    }

    package let seed: UInt64
    package let items: [TillItem]
    package private(set) var appearances: [Appearance] = []
    package private(set) var frameCount = 0
    /// The counter with sensor noise: four of them, taken in turn, so no two frames in a row are alike.
    let counters: [LumaImage]
    /// Sensor noise added over the item, from a random place in this table each frame.
    let noise: [Double]

    /// `clutter`: photos of things that look like codes (shelf edges, text, grilles, stripes) laid over the
    /// counter, each in a cell of its own, chosen and placed by the seed; none: the plain counter.
    package init(items count: Int, seed: UInt64 = 30, mix: TillMix.Kind = .retail, clutter: [LumaImage] = []) {
        self.seed = seed
        items = TillMix.items(count: count, seed: seed, mix: mix)
        var rng = Xorshift(seed: seed ^ 0x7111)
        var noise = [Double](repeating: 0, count: 1 << 20)
        for i in noise.indices { noise[i] = Double(Int(rng.next() % 7) + Int(rng.next() % 7) + Int(rng.next() % 7) - 9) }
        self.noise = noise
        var counter = Self.counter()
        if !clutter.isEmpty { Self.lay(clutter, on: &counter, seed: seed) }
        counters = (0..<4).map { k in
            var page = counter
            for i in page.pixels.indices {
                page.pixels[i] = UInt8(clamping: Int(page.pixels[i]) + Int(noise[(i * 7 + k * 104_729) & (noise.count - 1)]))
            }
            return page
        }
        var frame = Self.leadIn
        for (i, item) in items.enumerated() {
            var path = Xorshift(seed: item.seed ^ 0xA5A5)
            let poses = item.swiped ? Self.swipe(item, &path) : Self.hold(item, &path)
            let best = item.swiped ? poses.count / 2 : 4 + (poses.count - 8) / 2
            appearances.append(Appearance(item: i, start: frame, poses: poses, windowEnd: 0, bestFrame: frame + best))
            frame += poses.count + 8 + Int(path.next() % 13)  // 0.27–0.67 s of empty counter
        }
        frameCount = frame + 15
        for i in appearances.indices { appearances[i].windowEnd = i + 1 < appearances.count ? appearances[i + 1].start : frameCount }
    }

    /// Brought in over 4 frames from a side, held (drifting a little with the hand, or shaken), taken away over 4.
    /// Held where the whole code, quiet zones included, is in view throughout, wherever it fits: a cashier aims
    /// the code at the camera, and a long GS1-128 held half out of view is a code no reader can read.
    static func hold(_ item: TillItem, _ rng: inout Xorshift) -> [Pose] {
        func uniform(_ r: ClosedRange<Double>) -> Double { TillMix.uniform(r, &rng) }
        var hx = uniform(420...860), hy = uniform(260...460)
        let exposure = uniform(0.1...0.25)  // of the frame interval: 3–8 ms in room light
        let jitter = item.shaken ? 12.0 : 1.5, wobble = item.shaken ? 2.5 : 0.8
        if let symbol = try? TillLabel.symbol(item) {
            (hx, hy) = inView(
                symbol: (Double(symbol.width), Double(symbol.height)), degrees: item.degrees, wobble: wobble, at: (hx, hy), slack: jitter + 8)
        }
        let into = uniform(0...(2 * Double.pi)), away = uniform(0...(2 * Double.pi)), phase = uniform(0...(2 * Double.pi))
        var centres: [(Double, Double, Double)] = []
        for k in 0..<4 {
            let d = 450 * Double(4 - k) / 4
            centres.append((hx + d * cos(into), hy + d * sin(into), item.degrees + uniform(-wobble...wobble)))
        }
        for k in 0..<item.frames {
            let drift = 8 * sin(phase + 2 * Double.pi * Double(k) / 60)
            centres.append(
                (hx + drift + uniform(-jitter...jitter), hy + drift / 2 + uniform(-jitter...jitter), item.degrees + uniform(-wobble...wobble)))
        }
        for k in 1...4 {
            let d = 450 * Double(k) / 4
            centres.append((hx + d * cos(away), hy + d * sin(away), item.degrees + uniform(-wobble...wobble)))
        }
        return poses(centres, exposure: exposure)
    }

    /// `centre` moved the least that keeps a symbol of `size` turned by `degrees` (± `wobble`) and moved by up to
    /// `slack` px inside the frame; along an axis where it cannot fit, the frame's middle.
    static func inView(symbol size: (Double, Double), degrees: Double, wobble: Double, at centre: (Double, Double), slack: Double) -> (Double, Double)
    {
        let a = abs(degrees) * Double.pi / 180, turn = wobble * Double.pi / 180
        let (c, s) = (cos(a), sin(a)), (w, h) = size
        // Half the turned symbol's bounding box, grown by what the hand's wobble turns its ends through.
        let halfX = (w * c + h * s) / 2 + w / 2 * sin(turn) + slack
        let halfY = (w * s + h * c) / 2 + w / 2 * sin(turn) + slack
        func fit(_ v: Double, half: Double, in extent: Int) -> Double {
            2 * half <= Double(extent) ? min(max(v, half), Double(extent) - half) : Double(extent) / 2
        }
        return (fit(centre.0, half: halfX, in: width), fit(centre.1, half: halfY, in: height))
    }

    /// Through the camera's view in a straight line, 10–15 frames from edge to edge, in a short exposure.
    static func swipe(_ item: TillItem, _ rng: inout Xorshift) -> [Pose] {
        func uniform(_ r: ClosedRange<Double>) -> Double { TillMix.uniform(r, &rng) }
        let heading = uniform(-0.45...0.45) + (rng.next() % 2 == 0 ? 0 : Double.pi)
        let length = uniform(1100...1500), cx = uniform(540...740), cy = uniform(300...420)
        let exposure = uniform(0.02...0.06)  // 0.7–2 ms under a till's lights
        let n = item.frames
        let centres = (0..<n).map { k -> (Double, Double, Double) in
            let along = (Double(k) / Double(n - 1) - 0.5) * length
            return (cx + along * cos(heading), cy + along * sin(heading), item.degrees + Double(k) * 0.3)
        }
        return poses(centres, exposure: exposure)
    }

    /// Each frame's pose, smeared by its motion from the frame before over `exposure` of the frame interval.
    static func poses(_ centres: [(Double, Double, Double)], exposure: Double) -> [Pose] {
        centres.indices.map { k in
            let (x, y, d) = centres[k], (px, py, _) = centres[max(0, k - 1)]
            let (nx, ny, _) = centres[min(centres.count - 1, k + 1)]
            // The velocity at this frame: half the way from the frame before to the frame after.
            return Pose(x: x, y: y, degrees: d, smearX: (nx - px) / 2 * exposure, smearY: (ny - py) / 2 * exposure)
        }
    }

    /// A grey counter, lighter towards the middle, with a faint grain.
    static func counter() -> LumaImage {
        var page = LumaImage(width: width, height: height, fill: 0)
        var rng = Xorshift(seed: 99)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                page[x, y] = UInt8(150 - Int(80 * (dx * dx + dy * dy)) + Int(rng.next() % 5))
            }
        }
        return page
    }

    /// Photos laid over the counter in a 4x3 grid of cells, each cell a photo drawn by the seed, scaled to
    /// cover the cell (cropped, never stretched) and its contrast halved towards the counter's grey, as things
    /// lying on a counter under a till's lights: papers, shelf edges, a grille.
    /// (`columns` and `rows`: fewer for things seen closer; `halved` false: the photos' own contrast, as `scand bench frames`'s
    /// cluttered counter lays them.)
    static func lay(
        _ photos: [LumaImage], on counter: inout LumaImage, seed: UInt64, columns: Int = 4, rows: Int = 3, halved: Bool = true
    ) {
        var rng = Xorshift(seed: seed ^ 0xC1A7)
        let cw = counter.width / columns, ch = counter.height / rows
        for row in 0..<rows {
            for column in 0..<columns {
                let photo = photos[Int(rng.next() % UInt64(photos.count))]
                guard photo.width > 1, photo.height > 1 else { continue }
                // The scale that covers the cell, a little more at random: some photos' stripes come out finer.
                let scale = max(Double(cw) / Double(photo.width), Double(ch) / Double(photo.height)) * TillMix.uniform(1...1.6, &rng)
                let ox = TillMix.uniform(0...max(0, Double(photo.width) * scale - Double(cw)), &rng)
                let oy = TillMix.uniform(0...max(0, Double(photo.height) * scale - Double(ch)), &rng)
                for y in 0..<ch {
                    for x in 0..<cw {
                        let v = Double(photo.sample((ox + Double(x)) / scale, (oy + Double(y)) / scale))
                        let cx = column * cw + x, cy = row * ch + y
                        counter[cx, cy] = halved ? UInt8(clamping: Int((Double(counter[cx, cy]) + v) / 2)) : UInt8(clamping: Int(v))
                    }
                }
            }
        }
    }

    /// The appearance whose scoring window holds `frame`: its item is the one a SCAN at that frame is of.
    func appearance(owning frame: Int) -> Appearance? {
        appearances.last { $0.start <= frame && frame < $0.windowEnd } ?? appearances.first.flatMap { frame < $0.start ? $0 : nil }
    }

    /// Frame `f` as the sensor sees it, with the label of the item in view (made by `label`).
    func luma(frame f: Int, label: (Int) throws -> TillFace) rethrows -> LumaImage {
        var page = counters[f % counters.count]
        if let a = appearances.last(where: { $0.start <= f && f < $0.end }) {
            let noiseStart = Int(truncatingIfNeeded: (UInt64(f) &* 0x9E37_79B9_7F4A_7C15) >> 44)
            Self.paste(try label(a.item), pose: a.poses[f - a.start], into: &page, noise: noise, noiseStart: noiseStart)
        }
        return page
    }

    /// Frame `f` alone, its item's label made for it (tests; `record` makes each label once).
    func luma(frame f: Int) throws -> LumaImage { try luma(frame: f) { TillFace(try TillLabel.make(items[$0])) } }

    /// The session as a 720p30 MJPEG recording, as a webcam's stream; `each` sees every frame as a reader of the
    /// stream does (the JPEG decoded to grey), with its index.
    package func record(to path: String, quality: Int = 85, each: (Int, LumaImage) throws -> Void = { _, _ in }) throws {
        let encoder = MJPEGEncoder(quality: quality), decoder = MJPEGDecoder()
        var writer: Recording.Writer?
        var labels: (item: Int, label: TillFace)?
        var grey = LumaImage(width: Self.width, height: Self.height)
        for f in 0..<frameCount {
            let page = try luma(frame: f) { i in
                if let l = labels, l.item == i { return l.label }
                let made = TillFace(try TillLabel.make(items[i]))
                labels = (i, made)
                return made
            }
            let frame = encoder.frame(page, sequence: UInt64(f), timestampMicroseconds: UInt64(f) * Self.frameMicroseconds)
            if writer == nil { writer = try Recording.Writer(path: path, format: frame.format) }
            try writer!.append(frame)
            let failure = frame.bytes.withUnsafeBytes { src in
                grey.pixels.withUnsafeMutableBytes { decoder.decodeGrey(src, width: Self.width, height: Self.height, into: $0) }
            }
            if let failure { throw TillError(description: "frame \(f): the JPEG just written does not decode: \(failure)") }
            try each(f, grey)
        }
        try writer?.finish()
    }

    /// `label` turned by the pose's degrees about its centre, put at the pose's place, smeared along its motion,
    /// with sensor noise over it. Work per frame: the label's area times the smear's length (at most 12 samples).
    /// Written for a debug build too: coordinates stepped along each row, no calls in the inner loop but the buffers'.
    static func paste(_ label: TillFace, pose: Pose, into page: inout LumaImage, noise: [Double], noiseStart: Int) {
        let a = pose.degrees * Double.pi / 180, c = cos(a), s = sin(a)
        let lw = label.width, lh = label.height, hw = Double(lw) / 2, hh = Double(lh) / 2
        let smear = (pose.smearX * pose.smearX + pose.smearY * pose.smearY).squareRoot()
        let samples = max(1, min(12, Int(smear.rounded(.up))))
        // Each smear sample's offset in label coordinates (the destination offset −t·smear turned back).
        let offsets = (0..<samples).map { k -> (Double, Double) in
            let t = samples == 1 ? 0 : Double(k) / Double(samples - 1) - 0.5
            return (-t * (c * pose.smearX + s * pose.smearY), -t * (-s * pose.smearX + c * pose.smearY))
        }
        let reach = (hw * hw + hh * hh).squareRoot() + smear / 2 + 2
        let y0 = max(0, Int(pose.y - reach)), y1 = min(height - 1, Int(pose.y + reach))
        guard y0 <= y1 else { return }
        let w = page.width, mask = noise.count - 1
        let maxX = Double(lw - 1), maxY = Double(lh - 1), right = Double(lw) - 0.5, bottom = Double(lh) - 0.5
        let background = page.pixels
        let smearX = offsets.map(\.0), smearY = offsets.map(\.1)
        // Plain pointers: their subscripts are inlined even in a debug build, where a buffer's are calls.
        label.pixels.withUnsafeBufferPointer { labelBuffer in
            background.withUnsafeBufferPointer { bgBuffer in
                noise.withUnsafeBufferPointer { noiseBuffer in
                    page.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                        smearX.withUnsafeBufferPointer { oxBuffer in
                            smearY.withUnsafeBufferPointer { oyBuffer in
                                Self.bytes.withUnsafeBufferPointer { byteBuffer in
                                    let src = labelBuffer.baseAddress!, bg = bgBuffer.baseAddress!, nz = noiseBuffer.baseAddress!,
                                        dst = dstBuffer.baseAddress!
                                    let ox = oxBuffer.baseAddress!, oy = oyBuffer.baseAddress!, bytes = byteBuffer.baseAddress!
                                    for y in y0...y1 {
                                        let py = Double(y) + 0.5 - pose.y
                                        let (lo, hi) = columns(
                                            py: py, pose: pose, cos: c, sin: s, label: (Double(lw), Double(lh)), margin: smear / 2 + 1.5, reach: reach
                                        )
                                        let x0 = max(0, Int(lo.rounded(.down))), x1 = min(w - 1, Int(hi.rounded(.up)))
                                        guard x0 <= x1 else { continue }
                                        let dx0 = Double(x0) + 0.5 - pose.x
                                        // Label coordinates of this row's first pixel centre; each step right adds (c, −s).
                                        var bx = c * dx0 + s * py + hw - 0.5, by = -s * dx0 + c * py + hh - 0.5
                                        var x = x0
                                        while x <= x1 {
                                            var sum = 0.0, inside = false
                                            var k = 0
                                            while k < samples {
                                                let sx = bx + ox[k], sy = by + oy[k]
                                                if sx >= -0.5 && sy >= -0.5 && sx <= right && sy <= bottom {
                                                    inside = true
                                                    let fx = sx < 0 ? 0 : sx > maxX ? maxX : sx, fy = sy < 0 ? 0 : sy > maxY ? maxY : sy
                                                    let ix = Int(fx), iy = Int(fy)
                                                    let ix1 = ix + 1 < lw ? ix + 1 : ix, iy1 = iy + 1 < lh ? iy + 1 : iy
                                                    let tx = fx - Double(ix), ty = fy - Double(iy)
                                                    let top = src[iy * lw + ix] * (1 - tx) + src[iy * lw + ix1] * tx
                                                    let under = src[iy1 * lw + ix] * (1 - tx) + src[iy1 * lw + ix1] * tx
                                                    sum += top * (1 - ty) + under * ty
                                                } else {
                                                    sum += Double(bg[y * w + x])
                                                }
                                                k += 1
                                            }
                                            if inside {
                                                let v = Int(sum / Double(samples) + 0.5 + nz[(noiseStart &+ y &* 1283 &+ x) & mask])
                                                dst[y * w + x] = bytes[v < 0 ? 0 : v > 255 ? 255 : v]
                                            }
                                            bx += c
                                            by -= s
                                            x += 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Each grey level's byte, looked up rather than converted.
    static let bytes: [UInt8] = (0...255).map { UInt8($0) }

    /// The columns of a row (at `py` from the pose's centre) where the turned label, widened by `margin`, can
    /// cover a pixel: its two label coordinates are linear in x, so each bounds x to an interval.
    static func columns(
        py: Double, pose: Pose, cos c: Double, sin s: Double, label: (Double, Double), margin: Double, reach: Double
    ) -> (Double, Double) {
        var lo = pose.x - reach, hi = pose.x + reach
        // sx = c·(x + 0.5 − pose.x) + s·py + w/2 − 0.5 and sy = −s·(x + 0.5 − pose.x) + c·py + h/2 − 0.5 must lie in
        // [−0.5 − margin, size − 0.5 + margin].
        for (slope, offset, limit) in [(c, s * py + label.0 / 2 - 0.5, label.0), (-s, c * py + label.1 / 2 - 0.5, label.1)] {
            guard abs(slope) > 1e-9 else {
                if offset < -0.5 - margin || offset > limit - 0.5 + margin { return (1, 0) }
                continue
            }
            let e1 = (-0.5 - margin - offset) / slope + pose.x - 0.5, e2 = (limit - 0.5 + margin - offset) / slope + pose.x - 0.5
            lo = Swift.max(lo, Swift.min(e1, e2))
            hi = Swift.min(hi, Swift.max(e1, e2))
        }
        return (lo, hi)
    }
}

/// A label's grey levels as Doubles: a frame's sampling then does no integer conversion per pixel (each one a
/// call in a debug build).
package struct TillFace {
    let width: Int
    let height: Int
    let pixels: [Double]

    init(_ label: LumaImage) {
        (width, height) = (label.width, label.height)
        pixels = label.pixels.map { Double($0) }
    }
}

package struct TillError: Error, CustomStringConvertible {
    package var description: String
}
