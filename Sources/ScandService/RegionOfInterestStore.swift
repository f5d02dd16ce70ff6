import Foundation
import ScandCore
import ScandFiles

/// The rect of interest set over the socket, kept in the state directory so that it survives a restart
/// (and overrides the configuration's `roi` until the file is removed). One line, `x,y,w,h`, replaced
/// whole (`AtomicFile`): a crash mid-write leaves the old rect, never half a new one.
public struct RegionOfInterestStore: Sendable {
    public let path: String

    public init(directory: String) { path = (directory as NSString).appendingPathComponent("roi") }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The kept rect; nil when none was set. A file that does not hold one is an error naming it.
    public func load() throws(Failure) -> NormalizedRect? {
        let data: [UInt8]
        // A kept setting is a line or a short table: 64 KiB is far beyond either.
        do { data = try BoundedFile.read(path, maxBytes: 64 << 10) } catch {
            if error.kind == .missing { return nil }
            throw Failure(description: "\(path): cannot read it (\(error.reason))")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do { return try NormalizedRect.parse(text) } catch {
            throw Failure(description: "\(path): \(error) (remove the file to use the configuration's roi)")
        }
    }

    /// Replaces the kept rect (`AtomicFile`).
    public func save(_ rect: NormalizedRect) throws(Failure) {
        do { try AtomicFile.replace(path, with: Array("\(rect)\n".utf8), creatingDirectory: true) } catch {
            throw Failure(description: "cannot keep the rect of interest in \(path): \(error.description)")
        }
    }
}
