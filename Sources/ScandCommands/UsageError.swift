import ArgumentParser
import Foundation
import ScandCore

/// A command line scand cannot run, as one line in scand's style (`scand: …`, as every other error), with
/// what to type instead when it can tell: a mistyped command (`scna`), an option of another command
/// (`scand run --raw`: `scand watch --raw`), a device given without `--device`, mosquitto's `-h` for the
/// broker. ArgumentParser's own text (`Error: …` and a usage line) said less, in another style.
struct UsageError {
    /// The command line, without the program's name.
    let arguments: [String]
    /// What ArgumentParser (or a command's `validate()`) found wrong, without a prefix.
    let message: String

    /// The subcommand named first, if any.
    var command: String? {
        guard let first = arguments.first, Self.commands.contains(first) else { return nil }
        return first
    }

    /// The line to print, without `scand: ` (the log handler's), nor a newline.
    var line: String {
        if let first = arguments.first, command == nil, !first.hasPrefix("-") {
            let guess = EditDistance.nearest(first, in: Self.commands.filter { $0 != "help" }).map { "; did you mean 'scand \($0)'?" } ?? ""
            return "unknown command '\(first)'\(guess) (scand --help lists the commands)"
        }
        let text = Self.sentence(message)
        if let hint { return text + "; " + hint }
        // A command's own refusal says what to do; the parser's says only what it did not understand.
        let parser = ["unknown option", "unexpected argument", "missing expected argument", "missing value", "the value '"]
        guard parser.contains(where: { text.hasPrefix($0) }) else { return text }
        return text + " (see " + (command.map { "scand \($0) --help" } ?? "scand --help") + ")"
    }

    /// What the person may have meant, when the message says what was not understood.
    var hint: String? {
        guard let command else { return nil }
        if let option = Self.quoted(in: message, after: "unknown option '") {
            let name = String(option.prefix { $0 != "=" })
            if message.range(of: "did you mean", options: .caseInsensitive) != nil { return nil }
            let others = Self.commands.filter { $0 != command && Self.options(of: $0).contains(name) }
            if !others.isEmpty {
                let meant = others.prefix(2).map { "'scand \($0) \(name)'" }.joined(separator: " or ")
                return "did you mean \(meant)? (\(name) is not an option of scand \(command))"
            }
            return EditDistance.nearest(name, in: Self.options(of: command)).map { "did you mean '\($0)'?" }
        }
        if let argument = Self.quoted(in: message, after: "unexpected argument '") {
            if argument.hasPrefix("/dev/"), Self.options(of: command).contains("--device") {
                return "did you mean '--device \(argument)'?"
            }
            if command == "run", FileManager.default.isReadableFile(atPath: argument) {
                return "to decode an image file: scand scan \(argument); to replay a recording: --source replay:\(argument)"
            }
        }
        return nil
    }

    /// `scand mqtt -h broker`: mosquitto_sub's habit for the broker's host, which is help here as in every
    /// scand command; without this the help was printed and the status was 0.
    static func mosquittoHost(in arguments: [String]) -> String? {
        guard arguments.first == "mqtt", let h = arguments.firstIndex(where: { $0 == "-h" || $0.hasPrefix("-h") && $0.count > 2 }) else {
            return nil
        }
        let value = arguments[h] == "-h" ? arguments.dropFirst(h + 1).first : String(arguments[h].dropFirst(2))
        guard let value, !value.hasPrefix("-") else { return nil }
        return "-h is help in every scand command, not the broker's host as in mosquitto_sub: use --host \(value)"
    }

    /// The subcommands' names, from the command's configuration; `watch` first, the usual companion of `run`.
    static let commands: [String] = {
        let all = ScandCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        return all.filter { $0 == "watch" } + all.filter { $0 != "watch" }
    }()

    /// Every option `command` takes, `--long` and `-s`: its declared options (from ArgumentParser's own
    /// description of the command line) and its settings options (from the settings table).
    static func options(of command: String) -> [String] {
        declared[command, default: []] + CommandLineSettings.flags(of: "scand " + command, in: .scand)
    }

    /// Each subcommand's declared options, read once from ArgumentParser's dump of the command line.
    private static let declared: [String: [String]] = {
        var table: [String: [String]] = [:]
        let dump: String
        do {
            _ = try ScandCommand.parseAsRoot(["--experimental-dump-help"])
            return table
        } catch {
            dump = ScandCommand.fullMessage(for: error, columns: nil)
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
            let tool = root["command"] as? [String: Any], let subcommands = tool["subcommands"] as? [[String: Any]]
        else { return table }
        for sub in subcommands {
            guard let name = sub["commandName"] as? String else { continue }
            let arguments = sub["arguments"] as? [[String: Any]] ?? []
            table[name] = arguments.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).compactMap { n -> String? in
                    guard let kind = n["kind"] as? String, let value = n["name"] as? String else { return nil }
                    return kind == "long" ? "--" + value : "-" + value
                }
            }.filter { !["--help", "-h", "--version"].contains($0) }
        }
        return table
    }()

    /// The text between `prefix` and the next quote, case-insensitively.
    private static func quoted(in message: String, after prefix: String) -> String? {
        guard let start = message.range(of: prefix, options: .caseInsensitive) else { return nil }
        return String(message[start.upperBound...].prefix { $0 != "'" })
    }

    /// ArgumentParser's sentence as scand writes its lines: lower case first, no full stop, one line.
    static func sentence(_ message: String) -> String {
        var text = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        if text.hasSuffix(".") { text.removeLast() }
        text = text.replacingOccurrences(of: ". Did you mean", with: "; did you mean")
        guard let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
