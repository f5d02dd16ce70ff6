import CV4LConvert
import Glibc
import ScandCore

/// libv4lconvert converting MJPEG frames to YU12 (planar 4:2:0), as libv4l2 does for every frame of an
/// MJPEG-only camera when an application asks for a format the camera lacks: scand's way before it decoded
/// MJPEG itself. It normally sits on a device; here its device operations answer only that there is a capture
/// device, so that the same JPEG frames go through it without one.
final class V4LConvert {
    private let data: OpaquePointer
    /// Written once here, then only read by libv4lconvert.
    nonisolated(unsafe) private static let operations: UnsafeMutablePointer<libv4l_dev_ops> = {
        let ops = UnsafeMutablePointer<libv4l_dev_ops>.allocate(capacity: 1)
        ops.initialize(to: libv4l_dev_ops())
        ops.pointee.ioctl = { _, _, request, argument in
            guard request == queryCapabilities, let argument else {
                errno = EINVAL
                return -1
            }
            let cap = argument.assumingMemoryBound(to: v4l2_capability.self)
            cap.pointee = v4l2_capability()
            cap.pointee.capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
            cap.pointee.device_caps = cap.pointee.capabilities
            return 0
        }
        return ops
    }()

    init() {
        guard let data = v4lconvert_create_with_dev_ops(-1, nil, Self.operations) else { fatalError("v4lconvert_create_with_dev_ops failed") }
        self.data = data
    }

    deinit { v4lconvert_destroy(data) }

    /// Converts one MJPEG frame of `width`×`height` to YU12 in `output` (at least width·height·3/2 bytes);
    /// false when libv4lconvert refuses it.
    func yu12(_ jpeg: [UInt8], width: Int, height: Int, into output: inout [UInt8]) -> Bool {
        var source = v4l2_format(), destination = v4l2_format()
        source.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        source.fmt.pix.width = UInt32(width)
        source.fmt.pix.height = UInt32(height)
        source.fmt.pix.pixelformat = FourCC.mjpeg.rawValue
        source.fmt.pix.sizeimage = UInt32(jpeg.count)
        destination = source
        destination.fmt.pix.pixelformat = FourCC.yu12.rawValue
        destination.fmt.pix.bytesperline = UInt32(width)
        destination.fmt.pix.sizeimage = UInt32(width * height * 3 / 2)
        let r = jpeg.withUnsafeBufferPointer { j in
            output.withUnsafeMutableBufferPointer { o in
                v4lconvert_convert(
                    data, &source, &destination, UnsafeMutablePointer(mutating: j.baseAddress), Int32(j.count), o.baseAddress, Int32(o.count))
            }
        }
        return r == Int32(width * height * 3 / 2)
    }
}

/// VIDIOC_QUERYCAP, `_IOR('V', 0, struct v4l2_capability)`: a macro Swift cannot import.
private let queryCapabilities = UInt(2) << 30 | UInt(MemoryLayout<v4l2_capability>.size) << 16 | UInt(UInt8(ascii: "V")) << 8
