/// The words config/scand.toml and scand.toml(5) say about each of `Setting.core`'s settings, by `section.key`
/// (a feature section's rows carry theirs); `SettingsReference` writes them with what the table knows (the
/// key, its default, its type and range, its option). A setting added to `Setting.core` needs its entry here
/// (`SettingsReferenceTests` says which).
extension Setting {
    public var documentation: String? { words ?? Setting.documentation[section + "." + key] }

    static let documentation: [String: String] = [
        "camera.device":
            "/dev/videoN or a stable /dev/v4l/by-id/... name (`scand devices` lists them): an absolute path.",
        "camera.size":
            "Capture size, 16...8192 each way. Larger is slower; 1280x720 reads codes at arm's length.",
        "camera.fps":
            "Frames per second, 0...1000; 0 = the camera's highest rate at that size.",
        "camera.rotation":
            "Clockwise rotation applied before decoding: 0, 90, 180 or 270 (a camera mounted sideways).",
        "camera.mirror":
            "Mirror horizontally (front-facing cameras).",
        "camera.frame_timeout_ms":
            "Milliseconds without a frame before the camera counts as lost (then reopened with backoff), 100...600000.",
        "camera.pixel_format":
            "Pixel format to capture in: YUYV, MJPG, GREY, NV12, ...; \"auto\" captures a raw format when the camera sends the size at its rate so, else MJPEG, which scand decodes to grey itself.",
        "decoding.formats":
            "Formats to look for: names (QRCode, EAN-13, Code128, DataMatrix, ...) or all, linear, matrix. Fewer formats decode faster.",
        "decoding.roi":
            "Rect of interest [x, y, w, h] in 0..1 of the frame after rotation and mirror; only it is decoded.",
        "decoding.itf_lengths":
            "ITF lengths (even, 2...80 digits) to accept: [14] is ITF-14 only (cartons' GTIN-14), as hand scanners default; [] accepts any, e.g. [10, 14, 24] a few. ITF has no checksum of its own and a tilted ITF code also reads as shorter pieces of itself, which a fixed length rejects.",
        "socket.path":
            "Unix socket for subscribers: an absolute path (a relative one would depend on the directory scand starts in, / under systemd) under 108 bytes, or \"none\". Under systemd, scand.socket passes the socket in and this path is not used.",
        "socket.group":
            "Group of the socket file when scand creates it (mode 0660); \"\" = scand's own group. A group that does not exist is a configuration error.",
        "socket.max_clients":
            "Subscribers at once, 1...10000; more are refused with an ERROR.",
        "socket.max_clients_per_uid":
            "Connections one user (peer uid) may hold at once, 1...10000, so one broken application cannot take every slot.",
        "socket.request_timeout":
            "Seconds a new connection may take to send its first request, 0.1...3600; an idle one is closed.",
        "socket.queue_limit":
            "Lines (events and replies) waiting for one subscriber, 1...100000; one that falls this far behind is disconnected. stdout has a queue of the same size: what does not fit while nobody reads it is dropped, not waited for.",
        "socket.max_request_bytes":
            "Longest request line a client may send, in bytes, 64...1048576.",
        "socket.admin_group":
            "Group whose members may change settings over the socket (?ROI=, from `scand web`); \"\" = root and scand's own user only. A group that does not exist is a configuration error."
    ]
}
