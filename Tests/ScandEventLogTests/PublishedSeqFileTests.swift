import Foundation
import NIOConcurrencyHelpers
import ScandLogging
import ScandProtocol
import ScandTestSupport
import Testing

@testable import ScandEventLog

/// Issue 48, 4: one stray byte in `published-seq` switched the loss check off for good (refused at every
/// start, never cut back by the 21-byte write), and /dev/null there read as empty, silently.
@Suite(.serialized) struct PublishedSeqFileTests: EventLogKeepingLines {
    let dir = ScandBinary.temporaryDirectory()
    let logged = NIOLockedValueBox<[String]>([])

    func contents(_ path: String) -> [UInt8] { FileManager.default.contents(atPath: path).map { Array($0) } ?? [] }

    @Test func aStrayByteIsReportedWithTheLengthAndTheFileIsWrittenAgainWhole() throws {
        let directory = dir + "/stray"
        do {
            let first = eventLog(directory)
            for i in 0..<12 { _ = first.stamp(EventLogTests.scan(i), now: 1000) }
        }
        let path = directory + "/" + PublishedSeqFile.fileName
        // An editor's final newline after the record.
        #expect(FileManager.default.createFile(atPath: path, contents: Data(PublishedSeqFile.record(12) + [0x0A])))
        logged.withLockedValue { $0 = [] }
        let again = eventLog(directory)
        let reported = logged.withLockedValue { $0 }.filter { $0.contains("is 22 bytes, not one 21-byte record") }
        #expect(reported.count == 1, "\(logged.withLockedValue { $0 })")
        // Written whole at once, before any event: a crash now still leaves a file the next start reads.
        #expect(contents(path) == PublishedSeqFile.record(12))
        #expect(again.stamp(EventLogTests.scan(12), now: 1001).map(\.seq) == [13])
        #expect(contents(path) == PublishedSeqFile.record(13))
        logged.withLockedValue { $0 = [] }
        _ = eventLog(directory)
        #expect(logged.withLockedValue { $0 }.isEmpty, "\(logged.withLockedValue { $0 })")
    }

    @Test func aLongFileIsCutToOneRecordByTheNextWrite() throws {
        let directory = dir + "/long"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + PublishedSeqFile.fileName
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x37, count: 4000)))
        let file = try PublishedSeqFile.open(directory: directory).get()
        #expect(file.lastSeq == nil && file.problem?.contains("is 4000 bytes") == true)
        #expect(file.record(5) == nil)
        #expect(contents(path) == PublishedSeqFile.record(5))
    }

    @Test func aFileThatIsNoRegularFileIsRefusedWithOneLine() throws {
        let directory = dir + "/fifo"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(mkfifo(directory + "/" + PublishedSeqFile.fileName, 0o600) == 0)
        guard case .failure(let error) = PublishedSeqFile.open(directory: directory) else {
            Issue.record("a FIFO was taken as the published seq")
            return
        }
        #expect(error.description.hasSuffix("is a FIFO, not a regular file"))
        logged.withLockedValue { $0 = [] }
        _ = eventLog(directory)
        let lines = logged.withLockedValue { $0 }.filter { $0.contains(PublishedSeqFile.fileName) }
        #expect(lines.count == 1 && lines[0].contains("will not be noticed"), "\(lines)")

        // /dev/null itself at that path (a device node: only root may make one).
        if geteuid() == 0 {
            let device = dir + "/device"
            try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
            #expect(mknod(device + "/" + PublishedSeqFile.fileName, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0)
            guard case .failure(let error) = PublishedSeqFile.open(directory: device) else {
                Issue.record("/dev/null was read as an empty published seq")
                return
            }
            #expect(error.description.hasSuffix("is a device, not a regular file"), "\(error)")
        }

        // /dev/null through a symbolic link is refused too (the file is opened without following links).
        let linked = dir + "/devnull"
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked + "/" + PublishedSeqFile.fileName, withDestinationPath: "/dev/null")
        guard case .failure = PublishedSeqFile.open(directory: linked) else {
            Issue.record("/dev/null was taken as the published seq")
            return
        }
    }

    @Test func onlyAWholeRecordIsRead() throws {
        #expect(try PublishedSeqFile.parse(PublishedSeqFile.record(42)).get() == 42)
        for bad in ["42\n", "00000000000000000042", "00000000000000000042\n\n", "0000000000000000042 \n", "000000000000000000042\n"] {
            #expect((try? PublishedSeqFile.parse(Array(bad.utf8)).get()) == nil, "\(bad)")
        }
    }
}
