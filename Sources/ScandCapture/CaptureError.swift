import Glibc

/// Why a camera cannot be used, with what to do about it: one line each.
public struct CaptureError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: String, Sendable {
        case noSuchDevice, permissionDenied, busy, notACaptureDevice, noUsableFormat, disconnected, noFrames, io,
            badRecording, truncatedRecording, endOfStream, badControl
    }

    public var kind: Kind
    public var path: String
    public var detail: String

    public init(_ kind: Kind, path: String, detail: String = "") {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    /// Maps an errno from open/ioctl to the cause a person can act on.
    public static func from(errno code: Int32, path: String, during step: String) -> CaptureError {
        switch code {
        case ENOENT, ENXIO: CaptureError(.noSuchDevice, path: path)
        case EACCES, EPERM: CaptureError(.permissionDenied, path: path)
        case EBUSY: CaptureError(.busy, path: path)
        case ENODEV, EIO: CaptureError(.disconnected, path: path, detail: "\(step): \(String(cString: strerror(code)))")
        case ENOTTY: CaptureError(.notACaptureDevice, path: path, detail: "\(step) is not supported")
        default: CaptureError(.io, path: path, detail: "\(step): \(String(cString: strerror(code)))")
        }
    }

    public var description: String {
        let suffix = detail.isEmpty ? "" : " (\(detail))"
        switch kind {
        case .noSuchDevice:
            return "\(path): no such device; is the camera plugged in? `scand devices` lists cameras"
        case .permissionDenied:
            return "\(path): permission denied; add the user to the 'video' group (usermod -aG video USER) or run as a member of it"
        case .busy:
            return "\(path): device busy; another process holds the camera (find it with: fuser -v \(path))"
        case .notACaptureDevice:
            return "\(path): not a video capture device\(suffix); `scand devices` lists cameras"
        case .noUsableFormat:
            return "\(path): no usable pixel format\(suffix); scand needs YUYV, GREY, NV12 or YU12 (MJPEG cameras work through libv4lconvert)"
        case .disconnected:
            return "\(path): camera disconnected\(suffix)"
        case .noFrames:
            return "\(path): no frame\(suffix); the camera stopped delivering"
        case .io:
            return "\(path): \(detail)"
        case .badRecording:
            return "\(path): cannot play this recording\(suffix)"
        case .truncatedRecording:
            return "\(path): the recording breaks off \(detail)"
        case .endOfStream:
            return "\(path): end of recording"
        case .badControl:
            return "\(path): \(detail)"
        }
    }
}
