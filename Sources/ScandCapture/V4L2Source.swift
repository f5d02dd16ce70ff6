import Glibc
import ScandCore
import ScandV4L2Shim

/// A V4L2 camera through libv4l2: non-blocking open, poll with a timeout, mmap streaming with few
/// buffers (latency), YUYV preferred, MJPEG when the camera sends the asked size at a better rate only so
/// (`PixelFormatChoice`). Frames are copied out of the driver's buffer once (their luma, or an MJPEG frame's
/// bytes, decoded later by the hand-off only if the decoder takes it) and the buffer is queued again at
/// once, so the driver never starves while the decoder works.
public final class V4L2Source: FrameSource {
    public struct Request: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// nil: the camera's highest rate at that size.
        public var framesPerSecond: Int?
        public var bufferCount: Int
        /// The configuration's `pixel_format`; nil: scand's choice.
        public var pixelFormat: FourCC?
        /// `[camera.controls]`, set at every open (so after every replug too).
        public var controls: [CameraControlSetting]
        public init(
            width: Int = 1280, height: Int = 720, framesPerSecond: Int? = nil, bufferCount: Int = 3, pixelFormat: FourCC? = nil,
            controls: [CameraControlSetting] = []
        ) {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.bufferCount = bufferCount
            self.pixelFormat = pixelFormat
            self.controls = controls
        }
    }

    public let name: String
    public private(set) var request: Request
    public var waitsForDevice: Bool { true }
    private var fd: Int32 = -1
    private var buffers: [(start: UnsafeMutableRawPointer, length: Int)] = []
    private var format: FrameFormat?
    private var lumaMemory: FrameMemoryAllocator?

    public init(path: String, request: Request = Request()) {
        self.name = path
        self.request = request
    }

    deinit { close() }

    public func open() throws(CaptureError) -> FrameFormat {
        close()
        let r = scand_v4l2_open(name, 1)
        guard r >= 0 else { throw CaptureError.from(errno: -r, path: name, during: "open") }
        fd = r
        do {
            try checkCapabilities()
            let f = try negotiateFormat()
            try? negotiateRate()
            try V4L2Controls.apply(request.controls, fd: fd, path: name)
            try startStreaming(f)
            format = f
            return f
        } catch {
            close()
            throw error
        }
    }

    public func nextFrame(timeoutMilliseconds: Int) throws(CaptureError) -> Frame? {
        guard fd >= 0, let format else { throw CaptureError(.io, path: name, detail: "not open") }
        let ready = scand_v4l2_poll(fd, Int32(timeoutMilliseconds))
        if ready < 0 { throw CaptureError.from(errno: -ready, path: name, during: "poll") }
        if ready == 0 { return nil }
        var buf = v4l2_buffer()
        buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buf.memory = V4L2_MEMORY_MMAP.rawValue
        let dq = scand_v4l2_ioctl(fd, SCAND_VIDIOC_DQBUF, &buf)
        if dq == -EAGAIN { return nil }
        if dq < 0 { throw CaptureError.from(errno: -dq, path: name, during: "VIDIOC_DQBUF") }
        let index = Int(buf.index)
        guard index < buffers.count else { throw CaptureError(.io, path: name, detail: "driver returned buffer \(index)") }
        let used = min(Int(buf.bytesused == 0 ? UInt32(format.imageSize) : buf.bytesused), buffers[index].length)
        let driver = UnsafeRawBufferPointer(start: buffers[index].start, count: used)
        // A stamp out of range (negative, or beyond 2^53 µs) is the driver's error: the frame is not taken.
        let stamp = Frame.timestampMicroseconds(seconds: Int(buf.timestamp.tv_sec), microseconds: Int(buf.timestamp.tv_usec))
        // A frame the driver marked bad (or cut short) is not worth decoding, nor copying.
        let usable = buf.flags & UInt32(V4L2_BUF_FLAG_ERROR) == 0 && format.isComplete(used) && stamp != nil
        var frame: Frame?
        if usable, !format.isCompressed, let allocate = lumaMemory, let memory = allocate(format.width * format.height) {
            frame = Frame.capturingLuma(of: driver, format: format, into: memory, sequence: UInt64(buf.sequence), timestampMicroseconds: stamp ?? 0)
        }
        // An MJPEG frame, or luma without shared memory for it: an array copy.
        if usable, frame == nil {
            frame = Frame(format: format, bytes: Array(driver), sequence: UInt64(buf.sequence), timestampMicroseconds: stamp ?? 0)
        }
        let q = scand_v4l2_ioctl(fd, SCAND_VIDIOC_QBUF, &buf)
        if q < 0 { throw CaptureError.from(errno: -q, path: name, during: "VIDIOC_QBUF") }
        return frame
    }

    public func captureLuma(into allocate: @escaping FrameMemoryAllocator) { lumaMemory = allocate }

    public func controls() throws(CaptureError) -> [CameraControl]? {
        guard fd >= 0 else { throw notOpen }
        return V4L2Controls.list(fd: fd)
    }

    public func setControls(_ settings: [CameraControlSetting]) throws(CaptureError) -> [CameraControl] {
        guard fd >= 0 else { throw notOpen }
        try V4L2Controls.apply(settings, fd: fd, path: name)
        request.controls = request.controls.overridden(by: settings)
        return V4L2Controls.list(fd: fd)
    }

    private var notOpen: CaptureError {
        CaptureError(.badControl, path: name, detail: "the camera is not open (waiting for it): its controls cannot be read or set now")
    }

    public func close() {
        guard fd >= 0 else { return }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        _ = scand_v4l2_ioctl(fd, SCAND_VIDIOC_STREAMOFF, &type)
        for b in buffers { _ = scand_v4l2_munmap(b.start, b.length) }
        buffers = []
        var req = v4l2_requestbuffers()
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        req.memory = V4L2_MEMORY_MMAP.rawValue
        req.count = 0
        _ = scand_v4l2_ioctl(fd, SCAND_VIDIOC_REQBUFS, &req)
        _ = scand_v4l2_close(fd)
        fd = -1
        format = nil
    }

    private func checkCapabilities() throws(CaptureError) {
        var cap = v4l2_capability()
        let r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_QUERYCAP, &cap)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_QUERYCAP") }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        guard caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 else {
            throw CaptureError(.notACaptureDevice, path: name, detail: "driver \(String(fixedCString: cap.driver))")
        }
        guard caps & UInt32(V4L2_CAP_STREAMING) != 0 else {
            throw CaptureError(.notACaptureDevice, path: name, detail: "no streaming I/O")
        }
    }

    /// The format `PixelFormatChoice` picks from what the camera offers (natively or through libv4lconvert),
    /// at the requested size or the nearest the driver picks.
    private func negotiateFormat() throws(CaptureError) -> FrameFormat {
        let formats = V4L2Inventory.formats(fd: fd)
        guard let picked = V4L2Inventory.choice(among: formats, for: request) else {
            let offered = formats.map(\.fourcc.description).joined(separator: ", ")
            if let wanted = request.pixelFormat {
                throw CaptureError(.noUsableFormat, path: name, detail: "pixel_format \(wanted) asked for; the camera offers \(offered)")
            }
            throw CaptureError(.noUsableFormat, path: name, detail: "offers \(offered)")
        }
        let choice = picked.fourcc
        var fmt = v4l2_format()
        fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        fmt.fmt.pix.width = UInt32(request.width)
        fmt.fmt.pix.height = UInt32(request.height)
        fmt.fmt.pix.pixelformat = choice.rawValue
        fmt.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        let r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_S_FMT, &fmt)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_S_FMT") }
        let got = FourCC(rawValue: fmt.fmt.pix.pixelformat)
        if got.isCompressed {
            let w = Int(fmt.fmt.pix.width), h = Int(fmt.fmt.pix.height)
            guard (1...FrameFormat.maxSide).contains(w), (1...FrameFormat.maxSide).contains(h) else {
                throw CaptureError(.noUsableFormat, path: name, detail: "driver chose \(got) \(w)x\(h)")
            }
            let size = Int(fmt.fmt.pix.sizeimage)
            let f = FrameFormat.compressed(got, width: w, height: h, maxBytes: size > 0 ? size : w * h * 2)
            if let problem = f.problem { throw CaptureError(.noUsableFormat, path: name, detail: "driver chose \(got) with \(problem)") }
            return f
        }
        let f = FrameFormat(
            fourcc: got, width: Int(fmt.fmt.pix.width), height: Int(fmt.fmt.pix.height),
            bytesPerLine: Int(fmt.fmt.pix.bytesperline), imageSize: Int(fmt.fmt.pix.sizeimage))
        guard f.lumaLayout != nil, (1...FrameFormat.maxSide).contains(f.width), (1...FrameFormat.maxSide).contains(f.height) else {
            throw CaptureError(.noUsableFormat, path: name, detail: "driver chose \(f)")
        }
        var fixed = f
        // Some drivers leave these 0; packed formats fill rows, 4:2:0 formats add half a plane of chroma.
        let packed = [FourCC.yuyv, .uyvy, .grey].contains(got)
        if fixed.bytesPerLine == 0 { fixed.bytesPerLine = f.width * (packed ? f.lumaLayout!.pixelStride : 1) }
        if fixed.imageSize == 0 { fixed.imageSize = fixed.bytesPerLine * f.height * (packed ? 2 : 3) / 2 }
        // The driver's numbers, checked before any arithmetic on frames relies on them.
        if let problem = fixed.problem { throw CaptureError(.noUsableFormat, path: name, detail: "driver chose \(got) with \(problem)") }
        return fixed
    }

    /// Sets the requested rate, or the highest the camera offers at this size.
    private func negotiateRate() throws(CaptureError) {
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        var r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_G_PARM, &parm)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_G_PARM") }
        if parm.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 {
            var target: (num: UInt32, den: UInt32)? = request.framesPerSecond.map { (1, UInt32($0)) }
            if target == nil, let f = format ?? (try? currentFormat()) {
                target = V4L2Inventory.intervals(fd: fd, fourcc: f.fourcc, width: f.width, height: f.height)
                    .min { Double($0.num) / Double($0.den) < Double($1.num) / Double($1.den) }
            }
            if let t = target {
                parm.parm.capture.timeperframe.numerator = t.num
                parm.parm.capture.timeperframe.denominator = t.den
                r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_S_PARM, &parm)
                if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_S_PARM") }
            }
        }
    }

    private func currentFormat() throws(CaptureError) -> FrameFormat {
        var fmt = v4l2_format()
        fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        let r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_G_FMT, &fmt)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_G_FMT") }
        return FrameFormat(
            fourcc: FourCC(rawValue: fmt.fmt.pix.pixelformat), width: Int(fmt.fmt.pix.width),
            height: Int(fmt.fmt.pix.height), bytesPerLine: Int(fmt.fmt.pix.bytesperline), imageSize: Int(fmt.fmt.pix.sizeimage))
    }

    private func startStreaming(_ format: FrameFormat) throws(CaptureError) {
        var req = v4l2_requestbuffers()
        req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        req.memory = V4L2_MEMORY_MMAP.rawValue
        req.count = UInt32(request.bufferCount)
        var r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_REQBUFS, &req)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_REQBUFS") }
        guard req.count >= 2 else { throw CaptureError(.io, path: name, detail: "driver granted \(req.count) buffers") }
        for i in 0..<req.count {
            var buf = v4l2_buffer()
            buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buf.memory = V4L2_MEMORY_MMAP.rawValue
            buf.index = i
            r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_QUERYBUF, &buf)
            if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_QUERYBUF") }
            guard let start = scand_v4l2_mmap(fd, Int(buf.length), Int64(buf.m.offset)) else {
                throw CaptureError.from(errno: errno, path: name, during: "mmap")
            }
            buffers.append((start, Int(buf.length)))
            r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_QBUF, &buf)
            if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_QBUF") }
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_STREAMON, &type)
        if r < 0 { throw CaptureError.from(errno: -r, path: name, during: "VIDIOC_STREAMON") }
    }
}
