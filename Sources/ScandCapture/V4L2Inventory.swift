import Foundation
import Glibc
import ScandCore
import ScandProtocol
import ScandV4L2Shim

/// What a camera offers: formats, sizes and frame rates (like `v4l2-ctl --list-formats-ext`), and the
/// stable /dev/v4l/by-id names of the cameras on this machine.
public enum V4L2Inventory {
    /// Every /dev/video* node, with its stable names and, when it can be opened, what it offers.
    /// - Parameters: request: the size and rate to say which pixel format scand would choose for; controls:
    ///   whether to list each camera's controls too.
    public static func devices(devRoot: String = "/dev", request: V4L2Source.Request = .init(), controls: Bool = false) -> [CameraInfo] {
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: devRoot)) ?? []).filter { $0.hasPrefix("video") }.sorted { a, b in
            (Int(a.dropFirst(5)) ?? 0, a) < (Int(b.dropFirst(5)) ?? 0, b)
        }
        var links: [String: [String]] = [:]
        for dir in ["\(devRoot)/v4l/by-id", "\(devRoot)/v4l/by-path"] {
            for link in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                let full = dir + "/" + link
                if let target = resolve(full) { links[target, default: []].append(full) }
            }
        }
        return nodes.map { node in
            let path = devRoot + "/" + node
            return inspect(path: path, stableNames: (links[resolve(path) ?? path] ?? []).sorted(), request: request, controls: controls)
        }
    }

    /// Resolves a /dev/v4l/by-id name (or any symlink) to its /dev/videoN node.
    public static func resolve(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func inspect(path: String, stableNames: [String], request: V4L2Source.Request, controls: Bool) -> CameraInfo {
        var info = CameraInfo(path: path, stableNames: stableNames, driver: "", card: "", busInfo: "", isCapture: false, formats: [])
        let fd = scand_v4l2_open(path, 1)
        guard fd >= 0 else {
            info.problem = CaptureError.from(errno: -fd, path: path, during: "open").description
            return info
        }
        defer { _ = scand_v4l2_close(fd) }
        var cap = v4l2_capability()
        guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_QUERYCAP, &cap) == 0 else {
            info.problem = "\(path): not a V4L2 device"
            return info
        }
        info.driver = String(fixedCString: cap.driver)
        info.card = String(fixedCString: cap.card)
        info.busInfo = String(fixedCString: cap.bus_info)
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        info.isCapture = caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0
        if info.isCapture {
            info.formats = formats(fd: fd)
            info.choice = choice(among: info.formats, for: request)
            if controls { info.controls = V4L2Controls.list(fd: fd) }
        }
        return info
    }

    /// What `V4L2Source` captures in for `request`, from the formats a camera lists.
    public static func choice(among formats: [CameraInfo.Format], for request: V4L2Source.Request) -> PixelFormatChoice? {
        let offers = formats.map { f in
            PixelFormatChoice.Offer(
                fourcc: f.fourcc, emulated: f.emulated,
                framesPerSecond: f.sizes.first { $0.width == request.width && $0.height == request.height }?.framesPerSecond)
        }
        return PixelFormatChoice.choose(
            from: offers, width: request.width, height: request.height, framesPerSecond: request.framesPerSecond,
            override: request.pixelFormat)
    }

    static func formats(fd: Int32) -> [CameraInfo.Format] {
        var out: [CameraInfo.Format] = []
        for index in 0..<64 {
            var desc = v4l2_fmtdesc()
            desc.index = UInt32(index)
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_ENUM_FMT, &desc) == 0 else { break }
            let fourcc = FourCC(rawValue: desc.pixelformat)
            out.append(
                CameraInfo.Format(
                    fourcc: fourcc, description: String(fixedCString: desc.description),
                    emulated: desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0, sizes: sizes(fd: fd, fourcc: fourcc)))
        }
        return out
    }

    static func sizes(fd: Int32, fourcc: FourCC) -> [CameraInfo.Size] {
        var out: [CameraInfo.Size] = []
        for index in 0..<256 {
            var s = v4l2_frmsizeenum()
            s.index = UInt32(index)
            s.pixel_format = fourcc.rawValue
            guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_ENUM_FRAMESIZES, &s) == 0 else { break }
            if s.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                let w = Int(s.discrete.width), h = Int(s.discrete.height)
                out.append(CameraInfo.Size(width: w, height: h, framesPerSecond: rates(fd: fd, fourcc: fourcc, width: w, height: h)))
            } else {
                // Stepwise or continuous: report the bounds; any size in between is accepted.
                for (w, h) in [(s.stepwise.min_width, s.stepwise.min_height), (s.stepwise.max_width, s.stepwise.max_height)] {
                    out.append(
                        CameraInfo.Size(width: Int(w), height: Int(h), framesPerSecond: rates(fd: fd, fourcc: fourcc, width: Int(w), height: Int(h))))
                }
                break
            }
        }
        return out
    }

    static func intervals(fd: Int32, fourcc: FourCC, width: Int, height: Int) -> [(num: UInt32, den: UInt32)] {
        var out: [(UInt32, UInt32)] = []
        for index in 0..<64 {
            var iv = v4l2_frmivalenum()
            iv.index = UInt32(index)
            iv.pixel_format = fourcc.rawValue
            iv.width = UInt32(width)
            iv.height = UInt32(height)
            guard scand_v4l2_ioctl(fd, SCAND_VIDIOC_ENUM_FRAMEINTERVALS, &iv) == 0 else { break }
            if iv.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                out.append((iv.discrete.numerator, iv.discrete.denominator))
            } else {
                out.append((iv.stepwise.min.numerator, iv.stepwise.min.denominator))
                break
            }
        }
        return out.filter { $0.0 > 0 && $0.1 > 0 }
    }

    static func rates(fd: Int32, fourcc: FourCC, width: Int, height: Int) -> [Double] {
        intervals(fd: fd, fourcc: fourcc, width: width, height: height).map { Double($0.den) / Double($0.num) }
    }
}
