import ArgumentParser
import Foundation
import ScandCapture
import ScandCore
import ScandService

/// `scand run`: the daemon. Opens a camera (or replays a recording), serves subscribers on a Unix socket
/// and writes a JSON event for every code shown, with DEVICE events as the camera comes and goes.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Scan from a camera (or a recording), print events and serve them on a Unix socket.",
        discussion: """
        Settings come from the command line, then --config FILE (see config/scand.toml), then defaults. \
        Exit status: 0 after SIGTERM/SIGINT or the end of a replay, 1 when a replay cannot be played or breaks \
        off, or the socket cannot be served (another scand answers on its path), 64 for bad options, 78 for a \
        wrong configuration file.
        """
    )

    @Option(name: .long, help: "Configuration file (TOML).")
    var config: String?

    @Option(name: .long, help: "Camera: /dev/videoN or a /dev/v4l/by-id/… name (default /dev/video0).")
    var device: String?

    @Option(name: .long, help: "Frame source instead of the camera: replay:FILE plays a `scand record` file.")
    var source: String?

    @Option(name: .long, help: "Replay pace: recorded (as captured), fast (as fast as read, dropping what the decoder cannot take) or lockstep (every frame decoded, recorded timestamps: the same events on every run).")
    var replayPace: ReplayPace = .recorded

    @Option(name: .long, help: "Capture size WIDTHxHEIGHT (default 1280x720).")
    var size: String?

    @Option(name: .long, help: "Frame rate (default: the camera's highest at that size).")
    var fps: Int?

    @Option(name: .long, help: "Formats to look for (e.g. qr,ean13; or all, linear, matrix).")
    var formats: String?

    @Option(name: .long, help: "Rect of interest x,y,w,h in 0…1 of the oriented frame.")
    var roi: String?

    @Option(name: .long, help: "Rotate frames clockwise by 0, 90, 180 or 270 degrees before decoding.")
    var rotate: Int?

    @Flag(name: .long, help: "Mirror frames horizontally (front-facing cameras).")
    var mirror = false

    @Option(name: .long, help: "Milliseconds without a frame before the camera counts as lost.")
    var frameTimeout: Int?

    @Option(name: .long, help: "Seconds without a sighting before a code is LOST.")
    var lostAfter: Double?

    @Option(name: .long, help: "Seconds after LOST within which the same code shown again is not a new SCAN.")
    var forgetAfter: Double?

    @Option(name: .long, help: "Emit UPDATE events with new corners at most this often per code, in seconds.")
    var updateInterval: Double?

    @Option(name: .long, help: "Agreeing reads before SCAN for a format, FORMAT=N (repeatable).")
    var confirm: [String] = []

    @Option(name: .long, help: "Unix socket for subscribers, or 'none' (default /run/scand/scand.sock for root, else in $XDG_RUNTIME_DIR; systemd's socket activation wins).")
    var socket: String?

    @Option(name: .long, help: "Seconds a new socket connection may take to send its first request before it is closed (default 5).")
    var requestTimeout: Double?

    @Option(name: .long, help: "Stop after this many frames.")
    var frames: Int?

    enum ReplayPace: String, ExpressibleByArgument {
        case recorded, fast, lockstep

        var replaySourcePace: ReplaySource.Pace {
            switch self {
            case .recorded: .recorded
            case .fast: .asFastAsPossible
            case .lockstep: .lockstep
            }
        }
    }

    func validate() throws {
        _ = try overrides(ScandConfig())
        if let s = source, !s.hasPrefix("replay:") || s.count <= 7 { throw ValidationError("--source must be replay:FILE; got '\(s)'") }
        if let n = frames, n < 1 { throw ValidationError("--frames must be at least 1") }
    }

    /// The command line on top of a configuration (file or defaults): it has the last word.
    func overrides(_ base: ScandConfig) throws -> ScandConfig {
        var c = base
        if let device { c.device = device }
        if let size { (c.width, c.height) = try sizeOption(size) }
        if let fps {
            guard (1...1000).contains(fps) else { throw ValidationError("--fps must be 1…1000") }
            c.framesPerSecond = fps
        }
        if let rotate {
            guard let r = FrameTransform.Rotation(rawValue: rotate) else { throw ValidationError("--rotate must be 0, 90, 180 or 270") }
            c.transform.rotation = r
        }
        if mirror { c.transform.mirrored = true }
        if let formats {
            do { c.formats = try BarcodeFormats.parse(formats) } catch { throw ValidationError(error.description) }
        }
        if let roi {
            do { c.regionOfInterest = try NormalizedRect.parse(roi) } catch { throw ValidationError(error.description) }
        }
        if let frameTimeout {
            guard (100...600_000).contains(frameTimeout) else { throw ValidationError("--frame-timeout must be 100…600000 ms") }
            c.frameTimeoutMilliseconds = frameTimeout
        }
        for (name, value, apply) in [("--lost-after", lostAfter, { (d: Duration) in c.tracker.lostAfter = d }),
                                     ("--forget-after", forgetAfter, { c.tracker.forgetAfter = $0 })] {
            guard let value else { continue }
            guard value >= 0 && value <= 3600 else { throw ValidationError("\(name) must be 0…3600 seconds") }
            apply(.milliseconds(Int(value * 1000)))
        }
        if let u = updateInterval {
            guard u > 0 && u <= 3600 else { throw ValidationError("--update-interval must be 0…3600 seconds") }
            c.tracker.updateInterval = .milliseconds(Int(u * 1000))
        }
        for item in confirm {
            do { try c.tracker.setConfirmation(item) } catch { throw ValidationError(error.description) }
        }
        if let socket, socket != "none" {
            guard socket.hasPrefix("/") || socket.hasPrefix("."), socket.utf8.count < 108 else {
                throw ValidationError("--socket must be a path under 108 bytes, or none")
            }
            c.socketPath = socket
        }
        if let requestTimeout {
            guard requestTimeout >= 0.1 && requestTimeout <= 3600 else { throw ValidationError("--request-timeout must be 0.1…3600 seconds") }
            c.requestTimeout = .milliseconds(Int(requestTimeout * 1000))
        }
        return c
    }

    /// Defaults, then the file, then the command line. File problems carry the file name and line.
    func loadConfig() throws -> ScandConfig {
        var base = ScandConfig()
        if let config {
            let bytes = try ConfigFileError.contents(of: config)
            do { base = try base.applying(file: bytes, groupExists: { getgrnam($0) != nil }) } catch {
                throw ConfigFileError(description: "\(config): \(error.description)")
            }
        }
        var c = try overrides(base)
        // Without a file or --socket, a user who is not root gets a socket where they can create one.
        if config == nil && socket == nil { c.socketPath = defaultSocketPath() }
        return c
    }

    func run() async throws {
        let config: ScandConfig
        do { config = try loadConfig() } catch let e as ConfigFileError {
            OutputSinkLog.write(e.description)
            throw ExitCode(78)
        }
        let listener: SocketServer.Listener? = socket == "none" ? nil
            : Systemd.listenedSocket().map { .inherited($0) } ?? .path(config.socketPath, group: config.socketGroup)
        let builder = PipelineBuilder(source: source.map { .replay(path: String($0.dropFirst(7)), pace: replayPace.replaySourcePace) } ?? .camera,
                                      frameLimit: frames)
        let daemon = Daemon(config: config, reload: { try self.loadConfig() }, listener: listener, pipelines: builder)
        let failure: String?
        do { failure = try await daemon.run() } catch let e as SocketServer.BindError {
            OutputSinkLog.write("\(e.description); use --socket PATH or --socket none")
            throw ExitCode(1)
        }
        // The pipeline has logged why, in one line.
        if failure != nil { throw ExitCode(1) }
    }
}

struct ConfigFileError: Error, CustomStringConvertible {
    var description: String

    /// Far larger than any configuration: a device or a wrong path must not be read forever.
    static let maxBytes = 1 << 20

    /// The file's bytes, or why they cannot be read, in words.
    static func contents(of path: String) throws(ConfigFileError) -> [UInt8] {
        func failure(_ reason: String) -> ConfigFileError { ConfigFileError(description: "\(path): cannot read the configuration file (\(reason))") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno)).lowercased()) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { throw failure("it is a directory") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure(String(cString: strerror(errno)).lowercased()) }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > maxBytes { throw failure("larger than \(maxBytes >> 20) MiB: not a configuration file") }
        }
    }
}

/// A WIDTHxHEIGHT option (16…8192 each way), as the configuration file takes it.
func sizeOption(_ text: String, option: String = "--size") throws -> (Int, Int) {
    guard let size = ScandConfig.parseSize(text) else { throw ValidationError("\(option) must be WIDTHxHEIGHT, e.g. 1280x720; got '\(text)'") }
    return size
}

/// Where the socket is when nothing says otherwise: /run/scand for root (as the systemd units have it),
/// the user's runtime directory for anyone else, so that `scand run` and `scand watch` meet without sudo.
func defaultSocketPath() -> String {
    if geteuid() == 0 { return ScandConfig().socketPath }
    if let dir = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], dir.hasPrefix("/") { return dir + "/scand.sock" }
    return "/tmp/scand-\(geteuid()).sock"
}
