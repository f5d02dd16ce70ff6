import ScandCapture
import ScandCore

/// An MJPEG recording played as an MJPEG-only camera looked to scand through libv4l2 before scand decoded
/// MJPEG itself: libv4lconvert converts every frame to YU12 as it is dequeued, whether the decoder takes it
/// or not, and scand copies its luma plane.
final class ConvertingReplay: FrameSource {
    private let replay: ReplaySource
    private let converter = V4LConvert()
    private var format: FrameFormat?
    private var planes: [UInt8] = []
    private var lumaMemory: FrameMemoryAllocator?

    init(path: String) { replay = ReplaySource(path: path) }

    var name: String { replay.name }
    var waitsForDevice: Bool { false }

    func open() throws(CaptureError) -> FrameFormat {
        let jpeg = try replay.open()
        let w = jpeg.width, h = jpeg.height
        let f = FrameFormat(fourcc: .yu12, width: w, height: h, bytesPerLine: w, imageSize: w * h * 3 / 2)
        planes = [UInt8](repeating: 0, count: f.imageSize)
        format = f
        return f
    }

    func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
        guard let format, let jpeg = try replay.nextFrame(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
        guard converter.yu12(jpeg.bytes, width: format.width, height: format.height, into: &planes) else { return nil }
        if let memory = lumaMemory?(format.width * format.height),
            let frame = planes.withUnsafeBytes({
                Frame.capturingLuma(of: $0, format: format, into: memory, sequence: jpeg.sequence, timestampMicroseconds: jpeg.timestampMicroseconds)
            })
        {
            return frame
        }
        return Frame(format: format, bytes: planes, sequence: jpeg.sequence, timestampMicroseconds: jpeg.timestampMicroseconds)
    }

    func captureLuma(into allocate: @escaping FrameMemoryAllocator) { lumaMemory = allocate }

    func close() { replay.close() }
}
