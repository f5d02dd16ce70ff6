import Foundation
import ScandFiles
import Testing
import ScandTestSupport

@Suite struct AtomicFileTests {
    let dir = TestFiles.directory("scand-atomic")

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func replacesTheContentsWithItsPermissionsAndLeavesNothingBeside() throws {
        let path = dir + "/position"
        try AtomicFile.replace(path, with: Array("one\n".utf8), permissions: 0o600)
        try AtomicFile.replace(path, with: Array("two\n".utf8), permissions: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(names() == ["position"])
    }

    @Test func aFailureSaysWhatAndLeavesTheOldContents() throws {
        let path = dir + "/roi"
        try AtomicFile.replace(path, with: Array("old\n".utf8))
        // A directory where the file should go: the rename fails, the temporary file is removed.
        let blocked = dir + "/blocked"
        try FileManager.default.createDirectory(atPath: blocked + "/x", withIntermediateDirectories: true)
        #expect { try AtomicFile.replace(blocked, with: Array("new\n".utf8)) } throws: { e in
            (e as? AtomicFile.Failure)?.description.hasPrefix("cannot rename \(blocked).new.") == true
        }
        #expect(!names().contains { $0.contains(".new.") }, "\(names())")
        #expect { try AtomicFile.replace(dir + "/missing/roi", with: []) } throws: { e in
            (e as? AtomicFile.Failure)?.description == "cannot create a file beside \(dir)/missing/roi: No such file or directory"
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }

    /// A state directory that is not there yet (a first save) is made, down to the file's; one that cannot be
    /// made is named in the failure.
    @Test func makesTheMissingDirectoriesWhenAsked() throws {
        let path = dir + "/state/scand/roi"
        try AtomicFile.replace(path, with: Array("kept\n".utf8), creatingDirectory: true)
        try AtomicFile.replace(path, with: Array("again\n".utf8), creatingDirectory: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "again\n")
        try AtomicFile.replace(dir + "/file", with: [])
        #expect { try AtomicFile.replace(dir + "/file/under/roi", with: [], creatingDirectory: true) } throws: { e in
            (e as? AtomicFile.Failure)?.description == "cannot create the directory \(dir)/file/under: Not a directory"
        }
    }
}
