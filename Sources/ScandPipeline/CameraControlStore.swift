import Foundation
import ScandConfigFile
import ScandCore
import ScandFiles

/// Camera controls set on the setup page and kept in the state directory (`camera-controls.toml`) so that
/// they survive a restart: a `[camera.controls]` table as the configuration file has it (the same reader, so
/// the same errors with their line), replaced whole (`AtomicFile`), ready to be copied into scand.toml.
public struct CameraControlStore: Sendable {
    public let path: String

    public init(directory: String) { path = (directory as NSString).appendingPathComponent("camera-controls.toml") }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The kept controls, in their order; empty when none were kept.
    public func load() throws(Failure) -> [CameraControlSetting] {
        let data: [UInt8]
        // A kept setting is a line or a short table: 64 KiB is far beyond either.
        do { data = try BoundedFile.read(path, maxBytes: 64 << 10) } catch {
            if error.kind == .missing { return [] }
            throw Failure(description: "\(path): cannot read it (\(error.reason))")
        }
        let read: ScandConfig
        do { read = try ScandConfig().applying(file: data, table: .core) } catch {
            throw Failure(description: "\(path): \(error) (remove the file to use the configuration's [camera.controls] alone)")
        }
        guard read.withoutCameraControls == ScandConfig().withoutCameraControls else {
            throw Failure(description: "\(path): holds more than a [camera.controls] table (remove the file to use the configuration's alone)")
        }
        return read.cameraControls
    }

    /// Replaces the kept controls (`AtomicFile`); none removes the file.
    public func save(_ settings: [CameraControlSetting]) throws(Failure) {
        do { try AtomicFile.replace(path, with: Array(Self.text(settings).utf8), creatingDirectory: true) } catch {
            throw Failure(description: "cannot keep the camera controls in \(path): \(error.description)")
        }
    }

    /// The file's text: a comment saying where it comes from, then the table.
    static func text(_ settings: [CameraControlSetting]) -> String {
        var lines = [
            "# Camera controls set on scand's setup page (scand web), kept by the daemon. They override the same",
            "# names in [camera.controls] of the configuration; remove this file to use the configuration's alone.",
            "[\(ScandConfig.controlsTable)]"
        ]
        for s in settings {
            // Written as the configuration file writes its values.
            let value: SettingValue =
                switch s.value {
                case .integer(let n): .integer(n)
                case .boolean(let b): .boolean(b)
                case .text(let t): .text(t)
                }
            // The camera's names are bare keys (letters, digits, _); anything else is written quoted.
            let bare =
                !s.name.isEmpty
                && s.name.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                }
            lines.append("\(bare ? s.name : SettingValue.text(s.name).tomlText) = \(value.tomlText)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ScandConfig {
    fileprivate var withoutCameraControls: ScandConfig {
        var c = self
        c.cameraControls = []
        return c
    }
}
