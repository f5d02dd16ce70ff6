import Foundation
import NIOPosix
import ScandCore
import ScandProtocol
import ScandFiles

/// A client's place in the daemon's numbering, kept across its restarts so that it resumes with `since`:
/// `{"boot":"…","seq":N}` (`scand mqtt`: the last position the broker acknowledged with everything before
/// it; `scand wedge`: the last SCAN typed). Written whole or not at all (`AtomicFile`): a crash or a power cut
/// leaves the old position or the new one, never half of one.
public enum PositionFile {
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// nil when there is no file yet (ENOENT); any other failure to read it is a Problem, never "no file".
    public static func read(_ path: String) throws(Problem) -> EventPosition? {
        // O_NONBLOCK: a FIFO put there answers at once (and is no position) instead of hanging the start.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Problem(description: "state file \(path): cannot read it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // A position is under 100 bytes: read at most 4 KiB of whatever is there.
        var data = [UInt8](repeating: 0, count: 4096)
        let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw Problem(description: "state file \(path): cannot read it: \(String(cString: strerror(errno)))") }
        data.removeSubrange(n...)
        let text = String(decoding: data, as: UTF8.self)
        guard let position = EventPosition.parse(json: text) else {
            let held = String(text.prefix(64)).escapingControlCharacters()
            throw Problem(description: "state file \(path): not a position ({\"boot\":\"…\",\"seq\":N}) but '\(held)'")
        }
        return position
    }

    public static func write(_ position: EventPosition, to path: String) throws(Problem) {
        do { try AtomicFile.replace(path, with: Array((position.json + "\n").utf8), permissions: 0o600) } catch {
            throw Problem(description: "state file \(path): \(error.description)")
        }
    }
}

extension PositionFile {
    /// Writes positions to one state file, saying once when writing starts failing and once when it works
    /// again (the position stays in memory meanwhile; a restart would resume from an older one, or, when
    /// none was ever written, start as without a state file).
    public struct Keeper: Sendable {
        public let path: String
        /// What to set to choose another file, named when a write fails (e.g. "[mqtt] state_file").
        public let setting: String?
        private var failing = false
        /// The file holds a position: read at start, or written since.
        private var holdsPosition: Bool

        /// - Parameter holdsPosition: the file held a position at start.
        public init(path: String, holdsPosition: Bool = true, setting: String? = nil) {
            self.path = path
            self.holdsPosition = holdsPosition
            self.setting = setting
        }

        /// The log line this write calls for, if any: the problem, or that the file is written again. The
        /// write (and its two fsyncs) is NIO's blocking pool's, never the cooperative pool's.
        public mutating func save(_ position: EventPosition) async -> (line: String, isError: Bool)? {
            let path = self.path
            do throws(Problem) {
                do { try await NIOThreadPool.singleton.runIfActive { try PositionFile.write(position, to: path) } } catch {
                    throw error as? Problem ?? Problem(description: "state file \(path): \(error)")
                }
                defer { (failing, holdsPosition) = (false, true) }
                return failing ? ("state file \(path) written again", false) : nil
            } catch {
                defer { failing = true }
                guard !failing else { return nil }
                let restart =
                    holdsPosition
                    ? "a restart resumes from the last position written"
                    : "no position is kept: a restart starts as one without a state file"
                return ("\(error.description); \(restart)\(setting.map { " (set \($0) to a file this user can write)" } ?? "")", true)
            }
        }
    }
}
