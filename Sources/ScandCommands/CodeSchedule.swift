import ArgumentParser
import ScandCore
import ScandDecoding

/// Codes drawn into generated frames, each in view for a stretch of a loop that repeats: what `scand synth`
/// writes and what `scand run --source demo` plays. Each code is drawn once, and each set of codes in view
/// together is one picture that every frame showing it shares.
struct CodeSchedule: Sendable, Equatable {
    struct Code: Sendable, Equatable {
        var format: BarcodeFormat
        var text: String
        /// The centre, 0…1 of the frame's width and height.
        var x: Double
        var y: Double
        /// Seconds into each loop while the code is in view; nil: always.
        var shown: Range<Double>?
    }

    /// One loop is at most a day: frame counts made from it (at most 1000 frames a second) cannot overflow.
    static let maxSeconds: Double = 86_400

    let codes: [Code]
    /// One loop's length in seconds; nil when no code comes or goes (every frame is the same).
    let loopSeconds: Double?

    /// - Parameter loopSeconds: one loop's length; by default until the last code leaves. It must not
    ///   end before a code does.
    init(codes: [Code], loopSeconds: Double? = nil) throws {
        let latest = codes.compactMap(\.shown?.upperBound).max()
        if let loopSeconds {
            guard loopSeconds > 0, loopSeconds <= Self.maxSeconds else {
                throw ValidationError("a loop must last more than 0 and at most \(Int(Self.maxSeconds)) seconds; got \(loopSeconds)")
            }
            if let latest, latest > loopSeconds {
                throw ValidationError("a code is in view until \(latest) s, after the loop of \(loopSeconds) s ends")
            }
        }
        self.codes = codes
        self.loopSeconds = loopSeconds ?? latest
    }

    /// A `--code` option: FORMAT:TEXT@X,Y, and ,FROM-UNTIL for the seconds of each loop it is in view. The
    /// text is what lies between the first ':' and the last '@', so it may hold both.
    static func code(_ spec: String) throws -> Code {
        guard let colon = spec.firstIndex(of: ":"), let at = spec.lastIndex(of: "@"), colon < at,
            let format = BarcodeFormat(name: String(spec[..<colon]))
        else {
            throw ValidationError("--code must be FORMAT:TEXT@X,Y or FORMAT:TEXT@X,Y,FROM-UNTIL; got '\(spec)'")
        }
        let fields = spec[spec.index(after: at)...].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, let x = Double(fields[0]), let y = Double(fields[1]), (0...1).contains(x),
            (0...1).contains(y)
        else {
            throw ValidationError("--code position must be X,Y in 0…1; got '\(spec)'")
        }
        var shown: Range<Double>?
        if fields.count == 3 {
            let times = fields[2].split(separator: "-", omittingEmptySubsequences: false)
            guard times.count == 2, let from = Double(times[0]), let until = Double(times[1]), from >= 0, from < until, until <= maxSeconds else {
                throw ValidationError(
                    "--code time must be FROM-UNTIL, seconds into each loop, 0 ≤ FROM < UNTIL ≤ \(Int(maxSeconds)); got '\(spec)'")
            }
            shown = from..<until
        }
        return Code(format: format, text: String(spec[spec.index(after: colon)..<at]), x: x, y: y, shown: shown)
    }

    /// Frames in one loop at `framesPerSecond` (1…1000); nil when nothing comes or goes.
    func framesPerLoop(_ framesPerSecond: Int) -> Int? {
        loopSeconds.map { max(1, Int(($0 * Double(framesPerSecond)).rounded())) }
    }

    /// The codes (their indices) in view in frame `index` (counted from 0) at `framesPerSecond`.
    func inView(frame index: Int, framesPerSecond: Int) -> [Int] {
        let t = framesPerLoop(framesPerSecond).map { Double(index % $0) / Double(framesPerSecond) } ?? 0
        return codes.indices.filter { codes[$0].shown?.contains(t) ?? true }
    }

    /// One loop drawn on `width`×`height` light pages: the distinct pictures, and for each frame of the loop
    /// (one frame when nothing comes or goes) the picture it shows. Codes are drawn at `moduleSize` pixels a
    /// module, or at the largest size under it at which they fit the frame.
    func pictures(width: Int, height: Int, framesPerSecond: Int, moduleSize: Int) throws -> (pages: [LumaImage], order: [Int]) {
        let symbols = try codes.map { try Self.symbol($0, moduleSize: moduleSize, width: width, height: height) }
        var pages: [LumaImage] = []
        var pageOf: [[Int]: Int] = [:]
        var order: [Int] = []
        for index in 0..<(framesPerLoop(framesPerSecond) ?? 1) {
            let shown = inView(frame: index, framesPerSecond: framesPerSecond)
            if let page = pageOf[shown] {
                order.append(page)
                continue
            }
            var page = LumaImage(width: width, height: height, fill: 235)
            for i in shown {
                let (s, c) = (symbols[i], codes[i])
                page.paste(s, x: Int(c.x * Double(width)) - s.width / 2, y: Int(c.y * Double(height)) - s.height / 2)
            }
            pageOf[shown] = pages.count
            order.append(pages.count)
            pages.append(page)
        }
        return (pages, order)
    }

    /// `code` drawn by zxing's writer, smaller than `moduleSize` when it would not fit the frame (drawn
    /// clipped it could not be read); a code that does not fit at one pixel a module is refused.
    static func symbol(_ code: Code, moduleSize: Int, width: Int, height: Int) throws -> LumaImage {
        do {
            // A symbol's size is its size at one pixel a module times the module size.
            let unit = try SymbolWriter.render(code.format, text: code.text, moduleSize: 1)
            let fitting = min(moduleSize, width / unit.width, height / unit.height)
            guard fitting >= 1 else {
                throw ValidationError(
                    "'\(code.text)' as \(code.format.name) is \(unit.width)x\(unit.height) pixels at one pixel a module: larger than the \(width)x\(height) frame"
                )
            }
            return fitting == 1 ? unit : try SymbolWriter.render(code.format, text: code.text, moduleSize: fitting)
        } catch let error as SymbolWriter.WriteError {
            throw ValidationError(error.description)
        }
    }
}
