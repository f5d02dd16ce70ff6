import ArgumentParser
import Logging
import ScandCapture
import ScandCore
import ScandLogging
import ScandProtocol

/// `scand devices`: the cameras on this machine, like `v4l2-ctl --list-devices --list-formats-ext`.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List video capture devices with their stable names, formats, sizes and frame rates, and the format scand captures in.",
        discussion: """
            Exit status: 0 when a device is listed, 69 when there is none (the list, empty, is still printed \
            with --json), 64 for bad options. Without a camera, `scand run --source demo` shows scand working.
            """
    )

    @Flag(name: .long, help: "One JSON object instead of text.")
    var json = false

    @Flag(name: .long, help: "Also list each camera's controls (for [camera.controls]) with their ranges and current values.")
    var controls = false

    @Option(name: .long, help: ArgumentHelp("The capture size to say which pixel format scand chooses for.", valueName: "WxH"))
    var size: String = "1280x720"

    @Option(name: .long, help: ArgumentHelp("The frame rate to say which pixel format scand chooses for (default: the highest).", valueName: "N"))
    var fps: Int?

    @Option(name: .long, help: ArgumentHelp("Device directory (tests).", visibility: .hidden))
    var devRoot: String = "/dev"

    func run() throws {
        let (w, h) = try sizeOption(size)
        let devices = V4L2Inventory.devices(devRoot: devRoot, request: .init(width: w, height: h, framesPerSecond: fps), controls: controls)
        if json { print(Event.devices(devices).line) }
        guard !devices.isEmpty else {
            Logger.standardError(
                "no video devices under \(devRoot)/video*: plug in a camera; without one, `scand run --source demo` shows scand working",
                .error)
            throw ExitCode(ExitStatus.unavailable)
        }
        if !json { for d in devices { print(Self.text(d)) } }
    }

    static func text(_ d: CameraInfo) -> String {
        var lines = [
            "\(d.path)" + (d.card.isEmpty ? "" : "  \(d.card)") + (d.driver.isEmpty ? "" : "  driver \(d.driver)")
                + (d.busInfo.isEmpty ? "" : "  \(d.busInfo)") + (d.problem == nil ? (d.isCapture ? "  capture" : "  not a capture device") : "")
        ]
        for name in d.stableNames { lines.append("  also \(name)") }
        if let p = d.problem { lines.append("  \(p)") }
        for f in d.formats {
            lines.append("  \(f.fourcc) (\(f.description))" + (f.emulated ? " emulated by libv4lconvert" : ""))
            for s in f.sizes {
                let rates = s.framesPerSecond.map { $0 == $0.rounded() ? String(Int($0)) : String(format: "%.2f", $0) }
                lines.append("    \(s.width)x\(s.height)" + (rates.isEmpty ? "" : " @ \(rates.joined(separator: ", ")) fps"))
            }
        }
        if let c = d.choice { lines.append("  scand captures \(c.fourcc): \(c.reason)") }
        if !d.controls.isEmpty { lines.append("  controls ([camera.controls] name = value):") }
        for c in d.controls { lines.append("    " + line(for: c)) }
        return lines.joined(separator: "\n")
    }

    /// One control: `brightness = 128  (0…255; default 128)`, then read-only or inactive.
    static func line(for c: CameraControl) -> String {
        let state = [c.readOnly ? "read-only" : nil, c.inactive ? "inactive" : nil].compactMap { $0 }
        return "\(c.name) = \(c.value.map(String.init) ?? "?")  (\(c.range); default \(c.defaultValue))"
            + (state.isEmpty ? "" : " " + state.joined(separator: ", "))
    }
}
