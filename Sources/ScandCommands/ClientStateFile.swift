import Foundation
import ScandCore
import ScandService

/// Where a client of the daemon keeps its position when no setting names a file: as its packaged unit has
/// it, and for a user who runs it by hand, where that user can write.
struct ClientStateFile: Equatable {
    /// The file.
    var path: String
    /// A default outside systemd's care: its directory is made when missing, as StateDirectory= would.
    var makesDirectory: Bool

    /// `own` when set; else position.json in systemd's $STATE_DIRECTORY (the unit's StateDirectory=); else
    /// for root `system` (the unit's directory); else `<name>/position.json` in $XDG_STATE_HOME, or in
    /// ~/.local/state, the XDG default: the packaged directory is root's, which a user cannot create.
    static func resolve(_ own: String, system: String, name: String, environment: [String: String], uid: uid_t) -> ClientStateFile {
        guard own.isEmpty else { return ClientStateFile(path: own, makesDirectory: false) }
        if let directory = ServiceSettings.systemdStateDirectory(environment) {
            return ClientStateFile(path: directory + "/position.json", makesDirectory: false)
        }
        guard uid != 0 else { return ClientStateFile(path: system, makesDirectory: true) }
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state"
        } else {
            return ClientStateFile(path: system, makesDirectory: false)
        }
        return ClientStateFile(path: base + "/\(name)/position.json", makesDirectory: true)
    }

    /// Makes the directory of a default state file (0700, as XDG asks of its base directories). A failure
    /// is left to the first write, which names the file.
    func prepare() {
        guard makesDirectory else { return }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}
