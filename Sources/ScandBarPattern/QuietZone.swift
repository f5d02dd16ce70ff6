import ScandCore

/// Whether a UPC-E read has the quiet zone of a code of its own after it. A UPC-E's bars are those of an
/// EAN-13's left half up to its centre guard, which is a UPC-E's end guard followed by the right half's first
/// bar: zxing-cpp reads that as a UPC-E (the till bench's EAN-13 6429877349298 as 14298776, on several lines
/// of a frame), with the EAN-13's bars right past its end. A UPC-E of its own has at least 7 light modules
/// after it (an add-on starts 7–12 modules after the end guard). Only that case: checked on EAN-8 and before
/// the start too, it cost real photos' and the till bench's reads (glare, print close to the code).
package enum QuietZone {
    /// false when most of three lines along a UPC-E show dark within 1.5–6 modules after its end guard, or reach
    /// past the frame's edge there.
    package static func isClear(_ d: Detection, width: Int, height: Int, luma: (Int, Int) -> UInt8) -> Bool {
        guard d.format == .upcE, let count = AddOnBars.modules(d.format) else { return true }
        return AddOnBars.lines(along: d, modules: count, width: width, height: height, luma: luma) { lines in
            let crowded = lines.filter { line in
                let module = line.module, length = line.length
                let main = stride(from: 0, through: length, by: module / 2).compactMap(line.sample)
                guard let lo = main.min(), let hi = main.max(), hi - lo >= 24 else { return false }
                let threshold = (lo + hi) / 2, step = module / 4
                // Past the frame's edge the quiet zone cannot be seen: an EAN-13 swiped in from the right shows
                // exactly its left half there first (the till bench's #91). Unproven, it waits for the next frame.
                guard let after = line.bits(from: length + 1.5 * module, to: length + 6 * module, step: step, threshold: threshold) else {
                    return true
                }
                return after.contains(true)
            }
            return crowded.count < 2
        } ?? true
    }

    /// `detections` but the UPC-E reads whose quiet zone after them holds bars.
    package static func keep(_ detections: [Detection], in luma: LumaView) -> [Detection] {
        detections.filter { d in
            isClear(d, width: luma.width, height: luma.height, luma: luma.pixelOrWhite)
        }
    }
}
