import Glibc
import ScandCore
import ScandV4L2Shim

/// A camera's V4L2 controls: listed with their ranges and values (VIDIOC_QUERYCTRL, VIDIOC_QUERYMENU,
/// VIDIOC_G_CTRL) and set from `[camera.controls]` (VIDIOC_S_CTRL), checked against the camera's own ranges.
public enum V4L2Controls {
    /// Every control of the open device `fd`, in the driver's order (class headings and disabled ones left out).
    public static func list(fd: Int32) -> [CameraControl] {
        var out: [CameraControl] = []
        var id = nextControl
        for _ in 0..<1024 {
            var q = v4l2_queryctrl()
            q.id = id
            guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_QUERYCTRL, &q) == 0 else { break }
            id = q.id | nextControl
            let flags = q.flags
            if flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 || q.type == V4L2_CTRL_TYPE_CTRL_CLASS.rawValue { continue }
            let kind: CameraControl.Kind =
                switch q.type {
                case V4L2_CTRL_TYPE_INTEGER.rawValue: .integer
                case V4L2_CTRL_TYPE_BOOLEAN.rawValue: .boolean
                case V4L2_CTRL_TYPE_MENU.rawValue, V4L2_CTRL_TYPE_INTEGER_MENU.rawValue:
                    .menu(menu(fd: fd, q, integers: q.type == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue))
                case V4L2_CTRL_TYPE_BUTTON.rawValue: .button
                default: .other
                }
            var value: Int?
            if kind != .button, kind != .other, flags & UInt32(V4L2_CTRL_FLAG_WRITE_ONLY) == 0 {
                var c = v4l2_control()
                c.id = q.id
                if scand_v4l2_ioctl(fd, SCAND_VIDIOC_G_CTRL, &c) == 0 { value = Int(c.value) }
            }
            out.append(
                CameraControl(
                    id: q.id, label: String(fixedCString: q.name), kind: kind, minimum: Int(q.minimum), maximum: Int(q.maximum),
                    step: Int(q.step), defaultValue: Int(q.default_value), value: value,
                    readOnly: flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0, inactive: flags & UInt32(V4L2_CTRL_FLAG_INACTIVE) != 0))
        }
        return out
    }

    /// Sets `settings` in their order on the open device `fd`; an unknown control, a value outside its range
    /// or a control the camera refuses is an error naming it. All or nothing: the controls this call set before
    /// one the camera refuses are put back as they were, so a refused request leaves the camera as it found it.
    public static func apply(_ settings: [CameraControlSetting], fd: Int32, path: String) throws(CaptureError) {
        guard !settings.isEmpty else { return }
        let resolved: [(CameraControl, Int)]
        do { resolved = try CameraControl.resolve(settings, among: list(fd: fd)) } catch {
            throw CaptureError(.badControl, path: path, detail: error.description)
        }
        var earlier: [(name: String, value: v4l2_control)] = []
        for (control, number) in resolved {
            var previous = v4l2_control()
            previous.id = control.id
            let readable = control.kind != .button && scand_v4l2_ioctl(fd, SCAND_VIDIOC_G_CTRL, &previous) == 0
            var c = v4l2_control()
            c.id = control.id
            c.value = Int32(clamping: number)
            let r = scand_v4l2_ioctl(fd, SCAND_VIDIOC_S_CTRL, &c)
            // The camera is gone: nothing to put back.
            if r == -ENODEV || r == -EIO { throw CaptureError.from(errno: -r, path: path, during: "VIDIOC_S_CTRL") }
            if r < 0 {
                for (_, value) in earlier.reversed() {
                    var old = value
                    _ = scand_v4l2_ioctl(fd, SCAND_VIDIOC_S_CTRL, &old)
                }
                let why =
                    switch -r {
                    case EBUSY: " (busy: the driver holds it, e.g. while the camera streams)"
                    case EACCES: " (inactive: another control rules it, e.g. an automatic mode)"
                    default: ""
                    }
                let putBack = earlier.isEmpty ? "" : "; \(earlier.map(\.name).joined(separator: ", ")) put back as before"
                throw CaptureError(
                    .badControl, path: path,
                    detail: "camera control '\(control.name)': the camera refused \(number): \(String(cString: strerror(-r)))\(why)\(putBack)")
            }
            if readable { earlier.append((control.name, previous)) }
        }
    }

    private static let nextControl = UInt32(truncatingIfNeeded: V4L2_CTRL_FLAG_NEXT_CTRL)

    private static func menu(fd: Int32, _ q: v4l2_queryctrl, integers: Bool) -> [Int: String] {
        var items: [Int: String] = [:]
        guard q.minimum >= 0, q.maximum >= q.minimum, q.maximum - q.minimum < 256 else { return items }
        for index in q.minimum...q.maximum {
            var m = v4l2_querymenu()
            m.id = q.id
            m.index = UInt32(index)
            guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_QUERYMENU, &m) == 0 else { continue }
            items[Int(index)] = integers ? String(m.value) : String(fixedCString: m.name)
        }
        return items
    }
}
