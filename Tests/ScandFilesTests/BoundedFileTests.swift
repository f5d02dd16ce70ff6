import Foundation
import ScandFiles
import Testing
import ScandTestSupport

@Suite struct BoundedFileTests {
    let dir = TestFiles.directory("scand-bounded")

    @Test func readsAFileWithinTheBoundWhole() throws {
        let path = dir + "/small"
        let bytes = (0..<70_000).map { UInt8($0 % 251) }
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(try BoundedFile.read(path, maxBytes: 70_000) == bytes)
        FileManager.default.createFile(atPath: dir + "/empty", contents: Data())
        #expect(try BoundedFile.read(dir + "/empty", maxBytes: 0) == [])
    }

    /// A sparse file of 512 MB: refused from its size, in words, before a byte of it is read (issue 31, 4:
    /// `scand scan` peaked at 1.56 GiB reading one).
    @Test func aHugeSparseFileIsRefusedFromItsSize() throws {
        let path = dir + "/sparse"
        try TestFiles.sparse(path, bytes: 512 << 20)
        #expect { try BoundedFile.read(path, maxBytes: 1 << 20) } throws: {
            let failure = $0 as! BoundedFile.Failure
            return failure.kind == .tooLarge && failure.reason == "536870912 bytes, larger than 1 MiB"
        }
    }

    @Test func namesWhatIsNotARegularFile() throws {
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(String, BoundedFile.Failure.Kind, String)] = [
            (dir + "/none", .missing, "no such file or directory"),
            (dir, .notRegular, "it is a directory"),
            (fifo, .notRegular, "it is a FIFO, not a regular file"),
            ("/dev/zero", .notRegular, "it is a device, not a regular file")
        ]
        for (path, kind, reason) in cases {
            #expect(throws: BoundedFile.Failure(kind: kind, reason: reason)) { try BoundedFile.read(path, maxBytes: 1 << 20) }
        }
    }

    /// /proc files say they are empty and are not: the bound holds while reading, not only from the size.
    @Test func aFileLargerThanItsSizeSaysIsCutAtTheBound() throws {
        #expect(try BoundedFile.read("/proc/self/status", maxBytes: 1 << 20).count > 100)
        #expect { try BoundedFile.read("/proc/self/status", maxBytes: 10) } throws: {
            ($0 as! BoundedFile.Failure).kind == .tooLarge
        }
    }
}
