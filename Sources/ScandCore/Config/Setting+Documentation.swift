/// The words config/scand.toml and scand.toml(5) say about each of `scand run`'s settings, by `section.key`
/// (a feature section's rows carry theirs); `SettingsReference` writes them with what the table knows (the
/// key, its default, its type and range, its option). A setting added to `Setting.core` needs its entry here
/// (`SettingsReferenceTests` says which).
extension Setting {
    public var documentation: String? { words ?? Setting.documentation[section + "." + key] }

    /// Words at the head of one of `scand run`'s tables, before its first setting.
    static let introductions: [String: String] = [
        "journal":
            "The event journal (journal.sqlite in the state directory): every DEVICE, SCAN, UPDATE, LOST and STATS is written there before it is published, so a client that reconnects with ?WATCH={\"since\":…} (and `scand mqtt`) gets what it missed."
    ]

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
        "tracking.lost_after":
            "Seconds without a sighting before a code is LOST, 0...3600.",
        "tracking.forget_after":
            "A code shown again within this many seconds after it was lost is not a new SCAN, 0...3600.",
        "tracking.duplicate_filter":
            "A code read while a scanned code of the same format and text was seen less than this many seconds ago is that code, wherever it is: no second SCAN (one item at a till; what tracking by place loses: one code read on far-apart scan lines, two identical codes in view). 0...3600; 0 = off (identical codes are two codes).",
        "tracking.add_on_wait":
            "Seconds an EAN/UPC code that may carry an EAN-2/EAN-5 add-on (see add_on_prefixes, or one read with an add-on) waits for it before its SCAN, 0...10; an add-on is reported only when two reads agree, and one read twice alike ends the wait at once. 0 = no wait (an add-on read later only rides on UPDATE and LOST).",
        "tracking.add_on_prefixes":
            "EAN/UPC main numbers (padded with zeros to 13 digits) starting with these wait for an add-on: books, periodicals and the other prefixes that carry one; [\"all\"] for every EAN/UPC code. Others scan at once.",
        "tracking.redundancy":
            "Independent looks that must agree on a number before its SCAN, 1...5, for the formats whose own check is weak (EAN-13, UPC-A, EAN-8, UPC-E and their add-ons, ITF, Code 39, Codabar, Code 93, DataBar): a hand scanner's redundancy or security level. A look is a decoded frame, or a read of one frame on bands that share no pixels with another; a read of modules under 2.5 px or of reconstructed pixels (deblurred, enlarged) is half a look; reads of another number on the same bars count against it; and an EAN/UPC number is scanned only once a frame's own bars, looked at again, showed its pattern with clear quiet zones. 1 = one read is trusted (and the bars are not required to agree). docs/architecture.md, \"Why scand trusts a SCAN\".",
        "tracking.add_on_required":
            "An EAN/UPC code whose number starts with one of add_on_prefixes and that shows an add-on (its bars beside the code, or a read of it) is never scanned without the add-on while in view, and one that shows none waits 0.3 s for a frame that does (a hand scanner's smart supplemental mode: at a till the add-on is the price or the issue). false = such codes wait add_on_wait and at most 0.3 s with add-on bars beside them, then are scanned with the main number alone.",
        "tracking.update_interval":
            "Seconds between UPDATE events (new corners) per code, for clients drawing overlays, 0...3600; 0 = none.",
        "tracking.confirm":
            "Agreeing reads needed before SCAN, per format, 1...30 (formats without a strong checksum need more); the option may be repeated. Formats not listed keep their default. For the formats redundancy covers, the larger of the two counts.",
        "tracking.min_length":
            "The shortest read of a format that is a code, in characters (Codabar's without its start and stop characters), 0...100; shorter reads are ignored, as hand scanners' length limits ignore them. A Codabar has no check character, and a few characters of it are what an EAN's bars or print give when read as one. The option may be repeated; FORMAT=0 takes a format's limit away. Formats not listed: any length.",
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
            "Group whose members may change settings over the socket (?ROI=, from `scand web`); \"\" = root and scand's own user only. A group that does not exist is a configuration error.",
        "service.state_directory":
            "Directory for what outlives a restart: the event journal (what since and scand mqtt resume from), and the rect of interest and camera controls set over the socket or the setup page (they then override [decoding] roi and [camera.controls]). \"\" = systemd's $STATE_DIRECTORY (the first, if the unit names several), else nothing is kept.",
        "journal.max_events":
            "Events kept at most, 1...10000000.",
        "journal.max_age":
            "Seconds an event is kept at most, 0...31536000 (a year)."
    ]
}
