import Foundation

/// Files the tests make: a directory of their own under the temporary directory, and sparse files.
public enum TestFiles {
    /// A new directory `<tmp>/<prefix>-<pid>-<random>`, made: its name is unique to the test run and the call.
    public static func directory(_ prefix: String) -> String {
        let d = NSTemporaryDirectory() + "\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// A sparse file of `bytes` at `path` (holes, no blocks written): a huge file that costs no disk.
    public static func sparse(_ path: String, bytes: Int) throws {
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard fd >= 0 else { throw Failure("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0 else { throw Failure("cannot size \(path) to \(bytes) bytes: \(String(cString: strerror(errno)))") }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
