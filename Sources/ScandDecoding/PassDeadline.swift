/// How long a live decode pass may run before its decoder process is taken for hung and replaced: a
/// deadline that follows the machine's measured speed. A fixed 2 s killed a healthy decoder again and
/// again on a machine where a frame takes most of a second (an emulated VM, a loaded till), and each kill
/// lost what the tracker was following. A state machine without a clock: the decode loop tells it each
/// frame's decoding time and whether a pass overran.
public struct PassDeadline: Sendable, Equatable {
    /// The deadline on a machine of ordinary speed: a pass never takes this long there.
    public var floorMilliseconds: Int
    /// However slow the machine, a decoder silent this long is hung.
    public var ceilingMilliseconds: Int
    /// The deadline in force.
    public private(set) var milliseconds: Int
    /// The recent frames' decoding time, smoothed (seconds); nil before the first.
    public private(set) var typicalFrameSeconds: Double?

    /// A frame's decoding time counts this much into `typicalFrameSeconds`.
    static let smoothing = 0.2
    /// A pass may take this many typical frames' time: one pass is a small part of a frame's decoding.
    static let framesPerDeadline = 4.0

    public init(floorMilliseconds: Int = 2000, ceilingMilliseconds: Int = 30_000) {
        self.floorMilliseconds = max(1, floorMilliseconds)
        self.ceilingMilliseconds = max(self.floorMilliseconds, ceilingMilliseconds)
        milliseconds = self.floorMilliseconds
    }

    /// A frame was decoded in `seconds`; `overran` when one of its passes hit the deadline. An overrun
    /// doubles the deadline (up to the ceiling): a slow machine stops losing its decoders after a few; a
    /// frame in time brings it back, a tenth at a time, towards what the measured speed calls for.
    public mutating func decoded(seconds: Double, overran: Bool) {
        if overran {
            milliseconds = min(ceilingMilliseconds, milliseconds.multipliedReportingOverflow(by: 2).partialValue)
            return
        }
        guard seconds.isFinite, seconds >= 0 else { return }
        let typical = typicalFrameSeconds.map { $0 + Self.smoothing * (seconds - $0) } ?? seconds
        typicalFrameSeconds = typical
        let measured = min(Double(ceilingMilliseconds), max(Double(floorMilliseconds), typical * Self.framesPerDeadline * 1000))
        let target = Int(measured.rounded(.up))
        milliseconds = target >= milliseconds ? target : max(target, milliseconds - (milliseconds - target + 9) / 10)
    }
}
