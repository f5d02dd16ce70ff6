import ArgumentParser
import ScandCapture
import ScandCore

/// `scand devices`: the cameras on this machine, like `v4l2-ctl --list-devices --list-formats-ext`.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List video capture devices with their stable names, formats, sizes and frame rates."
    )

    @Flag(name: .long, help: "One JSON object instead of text.")
    var json = false

    @Option(name: .long, help: "Device directory (tests).")
    var devRoot: String = "/dev"

    func run() throws {
        let devices = V4L2Inventory.devices(devRoot: devRoot)
        if json {
            print(Self.json(devices).serialized())
            return
        }
        if devices.isEmpty { print("no video devices under \(devRoot)/video*") }
        for d in devices { print(Self.text(d)) }
    }

    static func text(_ d: V4L2Inventory.DeviceInfo) -> String {
        var lines = ["\(d.path)" + (d.card.isEmpty ? "" : "  \(d.card)") + (d.driver.isEmpty ? "" : "  driver \(d.driver)")
            + (d.busInfo.isEmpty ? "" : "  \(d.busInfo)") + (d.problem == nil ? (d.isCapture ? "  capture" : "  not a capture device") : "")]
        for name in d.stableNames { lines.append("  also \(name)") }
        if let p = d.problem { lines.append("  \(p)") }
        for f in d.formats {
            lines.append("  \(f.fourcc) (\(f.description))" + (f.emulated ? " emulated by libv4lconvert" : ""))
            for s in f.sizes {
                let rates = s.framesPerSecond.map { $0 == $0.rounded() ? String(Int($0)) : String(format: "%.2f", $0) }
                lines.append("    \(s.width)x\(s.height)" + (rates.isEmpty ? "" : " @ \(rates.joined(separator: ", ")) fps"))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ devices: [V4L2Inventory.DeviceInfo]) -> JSONValue {
        .object([("class", .string("DEVICES")), ("devices", .array(devices.map { d in
            var fields: [(String, JSONValue)] = [("path", .string(d.path)), ("stableNames", .array(d.stableNames.map { .string($0) })),
                                                 ("driver", .string(d.driver)), ("card", .string(d.card)), ("bus", .string(d.busInfo)),
                                                 ("capture", .bool(d.isCapture))]
            if let p = d.problem { fields.append(("message", .string(p))) }
            fields.append(("formats", .array(d.formats.map { f in
                .object([("pixelformat", .string(f.fourcc.description)), ("description", .string(f.description)),
                         ("emulated", .bool(f.emulated)),
                         ("sizes", .array(f.sizes.map { s in
                             .object([("width", .int(s.width)), ("height", .int(s.height)),
                                      ("fps", .array(s.framesPerSecond.map { JSONValue.number($0, places: 2) }))])
                         }))])
            })))
            return .object(fields)
        }))])
    }
}
