import ArgumentParser
import Foundation
import Logging
import ScandCapture
import ScandConfigFile
import ScandCore
import ScandDecoding
import ScandFiles
import ScandLogging
import ScandService
import ScandSocket
import ScandPipeline

/// `scand run`: the daemon. Opens a camera (or replays a recording), serves subscribers on a Unix socket
/// and writes a JSON event for every code shown, with DEVICE events as the camera comes and goes.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Scan from a camera (or a recording), print events and serve them on a Unix socket.",
        discussion: """
            Without a camera: `scand run --source demo`, and `scand watch --raw` in another terminal, shows codes \
            scanned as they come into view.

            Settings come from the command line, then --config FILE (TOML; every setting with its default in \
            scand.toml(5), and in /etc/scand/scand.toml as the package installs it), then the defaults below. \
            Exit status: 0 after SIGTERM/SIGINT or the end of a replay, 64 for bad options, 65 when a replay breaks \
            off or is malformed, 66 when it cannot be read, 71 when the socket cannot be served (another scand \
            answers on its path), 72 without scand-decoder, 78 for a wrong configuration file.

            \(CommandLineSettings.helpParagraph(of: Setting.daemon))
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Configuration file (TOML; default: none is read, scand.service passes /etc/scand/scand.toml).", valueName: "FILE"))
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Frame source instead of the camera: replay:FILE plays a `scand record` file; demo plays built-in codes that come and go, for ever (no camera needed: try `scand watch --raw` beside it).",
            valueName: "replay:FILE|demo"))
    var source: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Replay pace: recorded (as captured) or lockstep (every frame decoded as fast as the decoder works, recorded timestamps: the same events on every run).",
            valueName: "recorded|lockstep"))
    var replayPace: ReplayPace = .recorded

    @Option(name: .long, help: ArgumentHelp("Stop after this many frames.", valueName: "N"))
    var frames: Int?

    /// The settings options (--device, --fps, --socket …): read through the table of settings that the
    /// configuration file also goes through, so they are declared once, in `SettingsTable.scand`.
    @Argument(parsing: .allUnrecognized, help: .settingsOptions, completion: .settingsOptions(of: Setting.daemon))
    var settings: [String] = []

    enum ReplayPace: String, ExpressibleByArgument {
        case recorded, lockstep

        var replaySourcePace: ReplaySource.Pace {
            switch self {
            case .recorded: .recorded
            case .lockstep: .lockstep
            }
        }
    }

    func validate() throws {
        _ = try CommandLineSettings.options(settings, of: Setting.daemon)
        if let s = source, s != "demo", !s.hasPrefix("replay:") || s.count <= 7 {
            throw ValidationError("--source must be replay:FILE or demo; got '\(s)'")
        }
        if let n = frames, n < 1 { throw ValidationError("--frames must be at least 1") }
    }

    /// The settings options, each value checked as the file's would be.
    func commandLine() throws -> CommandLineSettings {
        do { return try CommandLineSettings(settings, table: .scand) } catch { throw ValidationError(error.description) }
    }

    /// Defaults, then the file, then the command line. File problems carry the file name and line.
    func loadConfig() throws -> ScandConfig {
        var base = ScandConfig()
        if let config {
            base = try ConfigFileError.load(config, over: base)
        } else {
            // Without a file, a user who is not root gets a socket where they can create one (unless --socket).
            base.socketPath = DaemonSocket.ownPath()
        }
        return try commandLine().applied(to: base)
    }

    /// The camera, a recording, or the demo's frames (drawn here, once).
    func pipelineSource() throws -> PipelineBuilder.Source {
        guard let source else { return .camera }
        guard source == "demo" else { return .replay(path: String(source.dropFirst(7)), pace: replayPace.replaySourcePace) }
        do { return .synthetic(try DemoSource.playlist()) } catch {
            Logger.standardError("the demo source cannot be drawn: \(error)", .error)
            throw ExitCode(ExitStatus.software)
        }
    }

    func run() async throws {
        let config: ScandConfig
        do { config = try loadConfig() } catch let e as ConfigFileError {
            Logger.standardError(e.description, .error)
            throw ExitCode(ExitStatus.configuration)
        }
        try requireDecoderExecutable()
        let listener: SocketServer.Listener? = config.socketPath.map { path in
            Systemd.listenedSocket().map { .inherited($0) } ?? .path(path, group: config.socketGroup)
        }
        let builder = PipelineBuilder(source: try pipelineSource(), frameLimit: frames)
        let daemon = Daemon(config: config, reload: { try self.loadConfig() }, listener: listener, pipelines: builder)
        let failure: String?
        do { failure = try await daemon.run() } catch let e as SocketServer.BindError {
            Logger.standardError("\(e.description); use --socket PATH or --socket none", .error)
            throw ExitCode(ExitStatus.osError)
        }
        // The pipeline has logged why, in one line.
        if failure != nil { throw ExitCode(failureStatus()) }
    }
}

extension RunCommand {
    /// A replay that cannot be opened is no input (66); one that breaks off or is malformed, or a camera that
    /// fails, is bad data or I/O (65, 74).
    func failureStatus() -> Int32 {
        guard let source, source.hasPrefix("replay:") else { return ExitStatus.ioError }
        return access(String(source.dropFirst(7)), R_OK) == 0 ? ExitStatus.dataError : ExitStatus.noInput
    }
}

/// An install without scand-decoder cannot decode: one line and exit status 72 (EX_OSFILE), before the camera
/// is opened; the units do not restart for it.
func requireDecoderExecutable() throws {
    do { _ = try DecoderExecutable.path() } catch {
        Logger.standardError(error.description, .error)
        throw ExitCode(ExitStatus.missingFile)
    }
}

struct ConfigFileError: Error, CustomStringConvertible {
    var description: String

    /// Far larger than any configuration: a device or a wrong path must not be read forever.
    static let maxBytes = 1 << 20

    /// The file's bytes, or why they cannot be read, in words. Only a regular file is read: a FIFO or a
    /// device would block the start or a reload (opened without blocking, then refused), or never end.
    static func contents(of path: String, what: String = "the configuration file") throws(ConfigFileError) -> [UInt8] {
        do { return try BoundedFile.read(path, maxBytes: maxBytes) } catch {
            let reason = error.kind == .tooLarge ? "\(error.reason): not a configuration file" : error.reason
            throw ConfigFileError(description: "\(path): cannot read \(what) (\(reason))")
        }
    }

    /// A configuration file for a command: defaults as `base`, the file over them; wrong files carry the
    /// path, the line and the reason.
    static func load(
        _ path: String, over base: ScandConfig, groupExists: @escaping (String) -> Bool = { getgrnam($0) != nil }
    ) throws(ConfigFileError) -> ScandConfig {
        let bytes = try contents(of: path)
        do { return try base.applying(file: bytes, table: .scand, groupExists: groupExists) } catch {
            throw ConfigFileError(description: "\(path): \(error.description)")
        }
    }
}

/// A WIDTHxHEIGHT option (16…8192 each way), as the configuration file takes it.
func sizeOption(_ text: String, option: String = "--size") throws -> (Int, Int) {
    guard let size = ScandConfig.parseSize(text) else { throw ValidationError("\(option) must be WIDTHxHEIGHT, e.g. 1280x720; got '\(text)'") }
    return size
}
