import Foundation
import ScandBenchScenes
import ScandCore

/// Runs `zbarimg --xml` (Debian's zbar-tools) on one file.
enum ZBarImg {
    static var available: Bool { executable != nil }

    static let executable: String? = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func reads(_ path: String) -> [PhotoBenchmark.Read]? {
        guard let exe = executable else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["--xml", "-q", path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        // 0: found, 4: nothing found; anything else is a failure.
        guard p.terminationStatus == 0 || p.terminationStatus == 4 else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// zbar spells some payloads differently from zxing and the test answers: Codabar keeps its start
    /// and stop characters, UPC-A and UPC-E come out as EAN-13, DataBar carries its "01" application
    /// identifier, DataBar Expanded has no parentheses. These are the same payloads, not misreads.
    static func conventions(_ text: String, type: String) -> [String] {
        switch type.uppercased() {
        case "CODABAR" where text.count >= 2: [String(text.dropFirst().dropLast())]
        case "EAN-13" where text.hasPrefix("0"): [String(text.dropFirst())]
        case "DATABAR" where text.hasPrefix("01"): [String(text.dropFirst(2))]
        // zbar marks the end of a variable-length element with GS (FNC1); the answers do not.
        case "DATABAR-EXP": [text.filter { $0 != "\u{1d}" }]
        default: []
        }
    }

    /// The answer file's text in the spellings `conventions` produces.
    static func expectedSpellings(_ expected: String) -> [String] {
        var out = [expected, expected.filter { $0 != "(" && $0 != ")" }]
        if let upcA = GS1Number.expandUPCE(expected) { out.append(upcA) }
        // quagga2's Codabar answers keep the start and stop characters, which zxing leaves out.
        let codabarGuards = Set("ABCD")
        if expected.count > 2, let first = expected.first, let last = expected.last, codabarGuards.contains(first), codabarGuards.contains(last) {
            out.append(String(expected.dropFirst().dropLast()))
        }
        return out
    }

    /// The payload of an EAN/UPC symbol (zbar reports add-ons as symbols of their own, EAN-2 and EAN-5).
    static func mainNumber(_ text: String, type: String) -> String? {
        ["EAN-13", "EAN-8", "UPC-A", "UPC-E", "ISBN-10", "ISBN-13"].contains(type.uppercased()) ? text : nil
    }

    static func parse(_ xml: String) -> [PhotoBenchmark.Read] {
        var reads: [PhotoBenchmark.Read] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<data") {
            let type =
                rest[..<open.lowerBound].range(of: "type='", options: .backwards).map { r in
                    String(rest[r.upperBound...].prefix { $0 != "'" })
                } ?? ""
            let tagEnd = rest[open.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            let isBase64 = rest[open.upperBound..<tagEnd].contains("base64")
            guard let cdata = rest.range(of: "<![CDATA[", range: tagEnd..<rest.endIndex),
                let close = rest.range(of: "]]></data>", range: cdata.upperBound..<rest.endIndex)
            else { break }
            let body = String(rest[cdata.upperBound..<close.lowerBound])
            // zbar writes payloads with control characters (a GS in GS1 data) as base64.
            if isBase64, let data = Data(base64Encoded: body, options: .ignoreUnknownCharacters) {
                let bytes = [UInt8](data)
                let text = String(decoding: bytes, as: UTF8.self)
                reads.append(.init(text: text, bytes: bytes, equivalents: conventions(text, type: type)))
            } else {
                reads.append(
                    .init(text: body, bytes: Array(body.utf8), equivalents: conventions(body, type: type), mainNumber: mainNumber(body, type: type)))
            }
            rest = rest[close.upperBound...]
        }
        return reads
    }
}
