import Foundation
import ScandCore

/// The rect of interest set over the socket, kept in the state directory so that it survives a restart
/// (and overrides the configuration's `roi` until the file is removed). One line, `x,y,w,h`, replaced
/// atomically: a crash mid-write leaves the old rect, never half a new one.
public struct RegionOfInterestStore: Sendable {
    public let path: String

    public init(directory: String) { path = (directory as NSString).appendingPathComponent("roi") }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The kept rect; nil when none was set. A file that does not hold one is an error naming it.
    public func load() throws(Failure) -> NormalizedRect? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw Failure(description: "\(path): cannot read it") }
            return nil
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do { return try NormalizedRect.parse(text) } catch {
            throw Failure(description: "\(path): \(error) (remove the file to use the configuration's roi)")
        }
    }

    /// Replaces the kept rect through a temporary file of a name of its own (`roi.new.XXXXXX`), so that no
    /// other writer can rename or remove it in between.
    public func save(_ rect: NormalizedRect) throws(Failure) {
        let directory = (path as NSString).deletingLastPathComponent
        let line = Array("\(rect)\n".utf8)
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw Failure(description: "cannot keep the rect of interest in \(directory): \(error.localizedDescription)")
        }
        var template = Array((path + ".new.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot keep the rect of interest in \(directory): \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        fchmod(fd, 0o644)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var failure: String? = written < 0 ? String(cString: strerror(errno)) : written < line.count ? "short write (disk full?)" : nil
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(description: "cannot keep the rect of interest in \(path): \(failure)")
        }
    }
}
