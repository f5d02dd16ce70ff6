import FuzzSupport
import Foundation
import ScandJournal
@testable import ScandEventLog

// The daemon's `published-seq` file (issue 48: a stray byte switched the loss check off for good, and a seq
// near 2^53−1 was numbered past). What it accepts is empty (0) or one 21-byte record, 20 digits and a
// newline, that its own writer writes back byte for byte, with a seq the numbering may go on from; a
// refusal is one line. The file is also opened as the daemon opens it. PublishedSeqFile is internal to
// ScandEventLog: reached with @testable (a debug build has testability).

func seeds() -> [Fuzz.Seed] {
    [0, 1, 42, EventJournal.maxResumeSeq].map { (name: "record-\($0)", bytes: PublishedSeqFile.record($0)) } + [
        (name: "stray-newline", bytes: PublishedSeqFile.record(12) + [0x0A]), (name: "short", bytes: Array("42\n".utf8)),
        (name: "near-the-end", bytes: PublishedSeqFile.record((1 << 53) - 4))
    ]
}

let directory = NSTemporaryDirectory() + "/scand-fuzz-published-\(getpid())"
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

func test(_ input: [UInt8]) {
    let parsed = PublishedSeqFile.parse(input)
    switch parsed {
    case .success(let seq):
        Fuzz.require((0...EventJournal.maxResumeSeq).contains(seq), "seq \(seq) accepted")
        Fuzz.require(input.isEmpty ? seq == 0 : PublishedSeqFile.record(seq) == input, "\(input) accepted as \(seq): not what the writer writes")
    case .failure(let why):
        Fuzz.requireOneLine(why.description)
    }
    // As the daemon reads it: from a file of these bytes.
    guard FileManager.default.createFile(atPath: directory + "/" + PublishedSeqFile.fileName, contents: Data(input)) else {
        Fuzz.fail("cannot write the scratch file")
    }
    switch PublishedSeqFile.open(directory: directory) {
    case .success(let file):
        Fuzz.require(file.lastSeq == (try? parsed.get()), "the file read \(String(describing: file.lastSeq)), the bytes \(parsed)")
        if let problem = file.problem { Fuzz.requireOneLine(problem) }
    case .failure(let error):
        Fuzz.fail("a regular file was refused: \(error)")
    }
}

Fuzz.run(seeds: seeds, test: test)
