/// The words config/scand.toml, config/web.toml and scand.toml(5) say about each setting, by `section.key`;
/// `SettingsReference` writes them with what the table knows (the key, its default, its type and range, its
/// option). A setting added to `Setting.all` needs its entry here (`SettingsReferenceTests` says which).
extension Setting {
    public var documentation: String? { Setting.documentation[section + "." + key] }

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
        "tracking.update_interval":
            "Seconds between UPDATE events (new corners) per code, for clients drawing overlays, 0...3600; 0 = none.",
        "tracking.confirm":
            "Agreeing reads needed before SCAN, per format, 1...30 (formats without a strong checksum need more); the option may be repeated. Formats not listed keep their default.",
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
            "Directory for what outlives a restart: the rect of interest set over the socket (it then overrides [decoding] roi) and the journal. \"\" = systemd's $STATE_DIRECTORY (the first, if the unit names several), else nothing is kept.",
        "journal.max_events":
            "Events kept at most, 1...10000000.",
        "journal.max_age":
            "Seconds an event is kept at most, 0...31536000 (a year).",
        "mqtt.host":
            "The broker's host name or address.",
        "mqtt.port":
            "The broker's port, 0...65535; 0 = 8883 with TLS (ca_file set), 1883 without.",
        "mqtt.kiosk_id":
            "This kiosk's level in the topics scand/<kiosk-id>/...: 1...64 letters, digits, '.', '_' or '-'; \"\" = the host name.",
        "mqtt.username":
            "The user name the broker knows this kiosk by; \"\" = none.",
        "mqtt.password_file":
            "A file whose first line is the password (needs username), so that this file can stay world-readable; an absolute path, \"\" = none.",
        "mqtt.ca_file":
            "The CA that signed the broker's certificate: set, the bridge speaks TLS; an absolute path, \"\" = plain MQTT.",
        "mqtt.cert_file":
            "This kiosk's client certificate and its private key (both or neither; they need ca_file); \"\" = none.",
        "mqtt.key_file":
            "The client certificate's private key; \"\" = none.",
        "mqtt.state_file":
            "Where the last position the broker acknowledged is kept, to resume from after any outage: an absolute path; \"\" = position.json in systemd's $STATE_DIRECTORY (/var/lib/scand-mqtt), else /var/lib/scand-mqtt/position.json for root and scand-mqtt/position.json in $XDG_STATE_HOME (~/.local/state) for other users.",
        "mqtt.classes":
            "The event classes published, of DEVICE, JOURNAL, LOST, SCAN, STATS and UPDATE (those the journal keeps), or [\"all\"].",
        "mqtt.formats":
            "Formats of the SCAN, UPDATE and LOST events published, as a ?WATCH names them (e.g. [\"EAN-13\", \"QRCode\"]; or all, linear, matrix).",
        "mqtt.topic_prefix":
            "The topics' first levels: <prefix>/<kiosk-id>/events/<class> and <prefix>/<kiosk-id>/status.",
        "mqtt.socket":
            "The daemon's socket: an absolute path under 108 bytes; \"\" = [socket] path above.",
        "mqtt.keepalive":
            "Seconds between MQTT keepalive pings, 5...3600.",
        "mqtt.max_in_flight":
            "Events published and not yet acknowledged by the broker at once, 2...65535 (MQTT packet ids are 16 bits).",
        "mqtt.start":
            "Where a bridge without a state file starts: \"all\" (everything the daemon's journal keeps, then live) or \"now\" (live from the first event it takes).",
        "wedge.layout":
            "The kiosk session's keyboard layout, which turns the keys into characters: \"us\", \"uk\" (or \"gb\"), \"de\" or \"fr\". A code with a character the layout cannot type is not typed at all (logged).",
        "wedge.prefix":
            "Typed before each code; \"\" = nothing.",
        "wedge.suffix":
            "The key pressed after each code: \"enter\", \"tab\" or \"none\".",
        "wedge.gs_replacement":
            "Typed for each GS separator (FNC1) between the fields of a GS1 code; \"\" = left out.",
        "wedge.digital_link":
            "A GS1 Digital Link URI (a QR code's https://id.gs1.org/01/09506000134352/10/ABC?17=270101, or a brand's own domain) typed \"uri\" (as scanned) or \"element_string\": its GS1 element string (0109506000134352 10ABC, GS, 17270101: AIs and values, a GS after each value of no predefined length), as a till reading GS1-128 codes expects it, its GS typed as gs_replacement says.",
        "wedge.key_delay_ms":
            "Milliseconds after each key press and each key release, 0...1000, for applications that drop fast keys.",
        "wedge.formats":
            "Formats of the codes typed, as a ?WATCH names them (e.g. [\"EAN-13\", \"Code128\"]; or all, linear, matrix).",
        "wedge.replay_max_age":
            "Seconds, 0...86400: a scan replayed after a restart of the wedge or the daemon is typed only if it is younger than this (an old scan would land in whatever the kiosk shows now); 0 = every one.",
        "wedge.device_name":
            "The virtual keyboard's name, as the input stack shows it (libinput list-devices), 1...79 bytes.",
        "wedge.socket":
            "The daemon's socket: an absolute path under 108 bytes; \"\" = [socket] path above.",
        "wedge.state_file":
            "Where the position of the last SCAN typed is kept, to resume from without typing anything twice: an absolute path; \"\" = position.json in systemd's $STATE_DIRECTORY (/var/lib/scand-wedge), else /var/lib/scand-wedge/position.json.",
        "web.listen":
            "Where HTTP is served, HOST:PORT (\"[::1]:8088\" for IPv6), port 0...65535 (0: any free one). Anything but loopback also needs the unit's IPAddressAllow= (`systemctl edit scand-web`), and should have a token: without one there is no authentication beyond reaching the port.",
        "web.socket":
            "The daemon's socket: an absolute path under 108 bytes; \"\" = a [socket] path in this file, else /run/scand/scand.sock (where the packaged daemon listens).",
        "web.hosts":
            "Host names the page may be reached by besides IP addresses and localhost (others are refused, which stops DNS rebinding), e.g. [\"kiosk-7.local\"].",
        "web.allowed_origins":
            "Origins of other pages that may use the event stream (/events), the WebSocket (/ws) and the read-only /api routes, exactly as a browser sends them: scheme://host[:port], e.g. [\"http://localhost:3000\"] (a default port is dropped); they get CORS answers. Pages of any other origin stay refused (403); setting the rect of interest stays for scand web's own page.",
        "web.token":
            "The access token every request must carry, 16...256 letters, digits, '-', '_', '.' or '~' (make one with `openssl rand -hex 32`); \"\" = none. Sent as \"Authorization: Bearer TOKEN\", as the cookie scand_token (set by opening /?token=TOKEN once), or, where a browser cannot send a header (EventSource, WebSocket), as ?token=TOKEN on a GET. A missing or wrong token gets 401. Compared in constant time and never logged; keep this file unreadable to others (chmod 0640) when it holds one."
    ]
}
