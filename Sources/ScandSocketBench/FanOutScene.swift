import Foundation

/// The frames `scand bench socket` feeds the daemon: one still 320x240 YUYV frame of twelve QR codes, drawn
/// once by `scand synth` (of the scand beside the bench, so every daemon measured gets the same bytes) and
/// sent again and again with new stamps. With `--update-interval 0.001` every frame is an UPDATE for each
/// code after the twelve SCANs: many events a second for little decoding, the same on every run in lockstep.
package struct FanOutScene {
    /// The recording's header line, with its newline.
    var header: [UInt8]
    /// One frame's pixels.
    var body: [UInt8]
    package static let codes = 12
    package static let size = "320x240"
    /// The recorded clock: frame k is stamped k/30 s.
    static let framesPerSecond = 30

    /// Draws the frame with `scand synth` in `directory`.
    package static func make(synthesizer scand: String, directory: String) throws -> FanOutScene {
        let path = directory + "/scene.rec"
        var arguments = ["synth", "--size", size, "--fps", "\(framesPerSecond)", "--frames", "1", "--module-size", "2"]
        for (i, y) in ["0.18", "0.5", "0.82"].enumerated() {
            for (j, x) in ["0.12", "0.37", "0.63", "0.88"].enumerated() { arguments += ["--code", "QRCode:fan-out-\(i * 4 + j + 1)@\(x),\(y)"] }
        }
        let child = try DaemonChild(executable: scand, arguments: arguments + [path], stdout: "/dev/null", stderr: directory + "/synth.err")
        let status = child.reap()
        let err = (try? String(contentsOfFile: directory + "/synth.err", encoding: .utf8)) ?? ""
        guard status == 0, let data = FileManager.default.contents(atPath: path) else {
            throw BenchFailure("\(scand) synth failed (exit \(status)): \(err)")
        }
        let bytes = [UInt8](data)
        // SCANDREC1 {header}\n, then 8 bytes of stamp, 8 of sequence number and the pixels.
        guard bytes.starts(with: Array("SCANDREC1 ".utf8)), let newline = bytes.firstIndex(of: 0x0A), bytes.count > newline + 17 else {
            throw BenchFailure("\(path): not a recording of one raw frame")
        }
        try? FileManager.default.removeItem(atPath: path)
        return FanOutScene(header: Array(bytes[...newline]), body: Array(bytes[(newline + 17)...]))
    }

    /// Frame `k` as a recording holds it: its stamp (k/30 s, in µs) and sequence number, little endian, then
    /// the pixels.
    func frame(_ k: Int) -> [UInt8] {
        var stamp = UInt64(k * 1_000_000 / Self.framesPerSecond).littleEndian, seq = UInt64(k).littleEndian
        return withUnsafeBytes(of: &stamp) { Array($0) } + withUnsafeBytes(of: &seq) { Array($0) } + body
    }
}
