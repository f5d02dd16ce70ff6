import Foundation

/// `systemd-analyze verify` on unit files, with the manual pages their Documentation= names (scand(8),
/// scand.toml(5)) found where the package installs them from: verify runs `man` for each and fails a unit
/// whose page is missing.
public enum UnitVerification {
    public static func verify(_ units: [String]) throws -> ScandBinary.Result {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manuals = ScandBinary.temporaryDirectory() + "/man"
        for (page, section) in [("scand.8", "man8"), ("scand.toml.5", "man5")] {
            try FileManager.default.createDirectory(atPath: manuals + "/" + section, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: manuals + "/" + section + "/" + page)
            try FileManager.default.copyItem(atPath: root.path + "/packaging/man/" + page, toPath: manuals + "/" + section + "/" + page)
        }
        return try ScandBinary.runTool("/usr/bin/env", ["MANPATH=" + manuals, "/usr/bin/systemd-analyze", "verify"] + units)
    }
}
