import Foundation
import ScandTestSupport
import Testing

/// What a newcomer reads first: every command's --help and scand(8) (issue 46, item 16: options missing
/// from the manual's synopsis, a path in the source tree as the configuration to read).
@Suite struct HelpEndToEndTests {
    /// Each subcommand's long options that its --help shows, from ArgumentParser's own dump.
    static func options() throws -> [(command: String, option: String)] {
        let dump = try ScandBinary.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let subcommands = try #require((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])
        return subcommands.flatMap { sub -> [(String, String)] in
            let name = sub["commandName"] as? String ?? ""
            return (sub["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool ?? true }.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).compactMap { n in
                    guard n["kind"] as? String == "long", let option = n["name"] as? String, !["help", "version"].contains(option) else { return nil }
                    return (name, "--" + option)
                }
            }
        }
    }

    @Test func scandEightNamesEveryOptionOfEveryCommand() throws {
        let manual = try String(contentsOf: WebEndToEndTests.root.appendingPathComponent("packaging/man/scand.8"), encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        let options = try Self.options()
        #expect(options.count > 40, "\(options)")
        let missing = options.filter { !manual.contains($0.option) }
        #expect(missing.isEmpty, "not in scand(8): \(missing)")
    }

    @Test func everyHelpSaysWhichConfigurationItReadsAndNoneNamesTheSourceTree() throws {
        for command in ["run", "web", "mqtt", "wedge", "watch", "scan", "roi", "controls", "devices", "record", "encode", "synth"] {
            let help = try ScandBinary.run([command, "--help"])
            #expect(help.status == 0 && !help.stdout.isEmpty, "\(command): \(help.stderr)")
            #expect(!help.stdout.contains("config/scand.toml"), "scand \(command) --help names a path in the source tree")
        }
        let flat = { (command: String) in try ScandBinary.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        #expect(try flat("web").contains("default: none is read; scand-web.service passes /etc/scand/web.toml"))
        #expect(try flat("run").contains("default: none is read, scand.service passes /etc/scand/scand.toml"))
        #expect(try flat("run").contains("the event journal (for since and scand mqtt), the rect of interest and camera controls"))
    }
}
