import Foundation
import ScandTestSupport
import Testing

/// Issue 32, 5: zbarimg's conventions for `scand scan`: --raw, -q, `-` for standard input, and its exit
/// statuses (0 found, 1 for I/O and image errors, 4 when an image held no code).
extension ScanEndToEndTests {
    /// `scand scan ARGS < input`, through the shell.
    func scan(_ arguments: [String], stdin input: String) throws -> ScandBinary.Result {
        let quoted = ([ScandBinary.path, "scan"] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        return try ScandBinary.runTool("/bin/sh", ["-c", "exec " + quoted.joined(separator: " ") + " < '" + input + "'"])
    }

    @Test func rawPrintsThePayloadAloneOnePerLine() throws {
        let hostile = "pay\u{1b}[2J"
        let path = try page([(.qrCode, "first code", 220, 200), (.code128, hostile, 900, 200)], width: 1400, name: "raw.png")
        let r = try ScandBinary.run(["scan", "--raw", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Set(r.lines) == ["first code", #"pay\u001b[2J"#], "control characters escaped, as watch --raw: \(r.stdout)")
    }

    @Test func quietLeavesOnlyErrorsOnStderr() throws {
        let blank = try page([], name: "quiet-blank.png")
        let loud = try ScandBinary.run(["scan", blank])
        #expect(loud.status == 4)
        #expect(loud.stderr.contains("no code found"), "as zbarimg's warning: \(loud.stderr)")
        let quiet = try ScandBinary.run(["scan", "-q", blank])
        #expect(quiet.status == 4 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let missing = try ScandBinary.run(["scan", "--quiet", dir + "/missing.png"])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"), "errors stay: \(missing.stderr)")
    }

    @Test func dashReadsStandardInput() throws {
        let path = try page([(.qrCode, "from a pipe", 450, 200)], name: "stdin.png")
        let r = try scan(["--raw", "-"], stdin: path)
        #expect(r.status == 0 && r.stdout == "from a pipe\n", "\(r.stdout)\(r.stderr)")
        let json = try scan(["-"], stdin: path)
        #expect(try self.json(json.lines[0])["file"] as? String == "-")

        // With files around it, in order; an annotated copy is drawn on what was read.
        let other = try page([(.code128, "FILE-1", 450, 200)], name: "file.png")
        let annotated = dir + "/annotated-stdin"
        try FileManager.default.createDirectory(atPath: annotated, withIntermediateDirectories: true)
        let mixed = try scan(["--raw", "--annotate", annotated, other, "-"], stdin: path)
        #expect(mixed.status == 0 && mixed.lines == ["FILE-1", "from a pipe"], "\(mixed.stdout)\(mixed.stderr)")
        #expect(FileManager.default.fileExists(atPath: annotated + "/stdin.annotated.png"))

        let empty = try scan(["-"], stdin: "/dev/null")
        #expect(empty.status == 1 && empty.stderr.contains("standard input") && empty.stderr.contains("empty"), "\(empty.stderr)")
        let garbage = dir + "/garbage-stdin"
        FileManager.default.createFile(atPath: garbage, contents: Data("not an image".utf8))
        let bad = try scan(["-"], stdin: garbage)
        #expect(bad.status == 1 && bad.stderr.contains("not a PNG, JPEG, GIF, BMP, PNM (PGM/PPM), WebP or TIFF image"), "\(bad.stderr)")
        let twice = try scan(["-", "-"], stdin: path)
        #expect(twice.status == 1 && twice.stderr.contains("can be read once"), "\(twice.stderr)")
    }

    /// Standard input has no size to check first: more than an image file's bound is refused once it passes
    /// the bound, without reading on to the end.
    @Test func standardInputIsReadWithTheBoundOfAnImageFile() throws {
        let r = try ScandBinary.runTool(
            "/bin/sh", ["-c", "head -c \((129 << 20)) /dev/zero | '\(ScandBinary.path)' scan -"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("more than 128 MiB"), "\(r.stderr)")
    }

    @Test func aMissingOrUnreadableFileExitsOneAsZbarimg() throws {
        let missing = try ScandBinary.run(["scan", dir + "/nothing-here.png"])
        #expect(missing.status == 1, "\(missing.stderr)")
        let directory = try ScandBinary.run(["scan", dir])
        #expect(directory.status == 1 && directory.stderr.contains("is a directory"), "\(directory.stderr)")
        // An I/O error wins over an image without a code, as zbarimg's.
        let blank = try page([], name: "blank-and-missing.png")
        let both = try ScandBinary.run(["scan", blank, dir + "/nothing-here.png"])
        #expect(both.status == 1, "\(both.stderr)")
    }
}
