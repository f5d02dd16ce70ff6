import Foundation
import Testing

/// The README stays a first page (at most about 12 KB, opening with the two commands a fresh machine needs, the
/// second the one CI runs), and every link in it and in docs/ leads to a file and a heading that exist.
@Suite struct DocumentationTests {
    static let root = #filePath.replacingOccurrences(of: "Tests/ScandCoreTests/DocumentationTests.swift", with: "")

    static func read(_ path: String) throws -> String { try String(contentsOfFile: root + path, encoding: .utf8) }

    @Test func theReadmeOpensWithTheTwoCommandsAndStaysShort() throws {
        let readme = try Self.read("README.md")
        #expect(readme.utf8.count <= 12 * 1024, "README.md is \(readme.utf8.count) bytes: move detail to docs/")
        let block = try #require(readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").map { $0.split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        #expect(commands.count == 2 && commands[0].hasPrefix("scripts/run ") && commands[1] == "scripts/test", "\(commands)")
        #expect(try Self.read(".ci/run").split(separator: "\n").contains("scripts/test"))
    }

    /// GitHub's anchor of a heading: lowercased, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { c -> Character? in
                c == " " ? "-" : (c.isLetter || c.isNumber || c == "-" || c == "_") ? c : nil
            })
    }

    @Test func everyLinkLeadsToAFileAndAHeadingThatExist() throws {
        let pages =
            try ["README.md"]
            + FileManager.default.contentsOfDirectory(atPath: Self.root + "docs").filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var checked = 0
        for page in pages {
            let text = try Self.read(page)
            let directory = URL(fileURLWithPath: Self.root + page).deletingLastPathComponent()
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? URL(fileURLWithPath: Self.root + page) : directory.appendingPathComponent(parts[0]).standardized
                #expect(FileManager.default.fileExists(atPath: file.path), "\(page): \(target) leads nowhere")
                if parts.count == 2, let linked = try? String(contentsOf: file, encoding: .utf8) {
                    let headings = linked.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                        Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
                    }
                    #expect(headings.contains(parts[1]), "\(page): no heading #\(parts[1]) in \(parts[0].isEmpty ? page : parts[0])")
                }
                checked += 1
            }
        }
        #expect(checked > 50)
        #expect(Self.anchor("/events: scans in a browser page") == "events-scans-in-a-browser-page")
        #expect(Self.anchor("`scand mqtt`: the bridge") == "scand-mqtt-the-bridge")
    }
}
