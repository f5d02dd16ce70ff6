/// A command's settings options (`--fps 15`, `--fps=15`, `--mirror`, `--confirm ITF=5`), read through the
/// `SettingsTable` as the file is. Each is checked when read; `applied(to:)` puts them on top of a file's
/// configuration (at start and on every reload) in order, so the last of a repeated option wins and
/// repeated `--confirm`s add up.
public struct CommandLineSettings: Sendable, Equatable {
    public struct Assignment: Sendable, Equatable {
        public var flag: String
        public var value: SettingValue
    }

    public private(set) var assignments: [Assignment] = []
    /// The command whose flags these are (`Setting.command`).
    public let command: String
    public let table: SettingsTable

    public typealias Problem = ScandCore.Problem

    public init(_ arguments: [String], command: String = Setting.daemon, table: SettingsTable) throws(Problem) {
        self.command = command
        self.table = table
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else { throw Problem("unexpected argument '\(argument)'") }
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            let inline = argument.dropFirst(2 + name.count).first == "=" ? String(argument.dropFirst(3 + name.count)) : nil
            guard let setting = table.named(flag: String(name), command: command) else { throw Problem("unknown option '--\(name)'") }
            let value: SettingValue
            do {
                if setting.kind == .boolean {
                    if let inline { throw Setting.Problem("takes no value, got '\(inline)'") }
                    value = .boolean(true)
                } else {
                    guard let text = inline ?? rest.popFirst() else { throw Setting.Problem("needs a value (\(setting.valueName))") }
                    value = try SettingValue(commandLine: text, as: setting.kind)
                }
                var scratch = ScandConfig()
                try setting.apply(value, to: &scratch)
            } catch {
                throw Problem("--\(name): \(error)")
            }
            assignments.append(Assignment(flag: String(name), value: value))
        }
    }

    public func applied(to base: ScandConfig, groupExists: @escaping (String) -> Bool = { _ in true }) throws(Problem) -> ScandConfig {
        var c = base
        let context = Setting.Context(groupExists: groupExists)
        for a in assignments {
            guard let setting = table.named(flag: a.flag, command: command) else { continue }  // read from the table in init
            do { try setting.apply(a.value, to: &c, context: context) } catch { throw Problem("--\(a.flag): \(error)") }
        }
        return c
    }

    /// The flags of `command`, as its `--help` completes them.
    public static func flags(of command: String = Setting.daemon, in table: SettingsTable) -> [String] {
        table.settings.filter { $0.command == command }.compactMap(\.commandLineName)
    }

    /// A command's `--help` list of settings options, from the table: flag, value, help, file key, default.
    /// Lines stay under ArgumentParser's 80 columns, which would rewrap them without their indentation.
    public static func help(command: String = Setting.daemon, in table: SettingsTable, width: Int = 79) -> String {
        let options = table.settings.filter { $0.command == command }.compactMap { s in
            s.flag.map { (s, "--" + $0 + (s.kind == .boolean ? "" : " <\(s.valueName)>")) }
        }
        let column = (options.map(\.1.count).max() ?? 0) + 4
        return options.map { setting, left in
            let shown = setting.defaultText.isEmpty ? "\"\"" : setting.defaultText
            let text = "\(setting.help) ([\(setting.section)] \(setting.key), default: \(shown))"
            let pad = String(repeating: " ", count: column - 2 - left.count)
            return "  " + left + pad
                + SettingsReference.wrap(text, width: width - column).joined(separator: "\n" + String(repeating: " ", count: column))
        }.joined(separator: "\n")
    }
}
