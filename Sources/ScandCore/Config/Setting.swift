/// One setting, declared once (in `Setting.core`, or beside a feature's `SettingsSection`) for both the
/// configuration file and the command line of the command that reads it: where it lives in the file, its flag,
/// its type, its check, its help, and how it reads and writes `ScandConfig`. Both sides turn what they got
/// into a `SettingValue` and call the same `apply`, so ranges and error messages cannot drift apart.
public struct Setting: Sendable {
    /// The TOML table and key: `[camera] fps`.
    public let section: String
    public let key: String
    /// The long flag of `command` without its dashes (`fps` for `--fps`); nil for a file-only setting.
    public let flag: String?
    public let kind: SettingValue.Kind
    /// The values a number may take, checked before `write` sees it; nil where `write` checks (a size, a list).
    public let bounds: Bounds?
    /// What the flag's value looks like in help (`N`, `WxH`); unused for a `.boolean` flag, which takes none.
    public let valueName: String
    public let help: String
    /// What a SIGHUP does with a new value: `.live` applies it, `.restart` keeps the running one and says so.
    public let reload: Reload
    /// The setting's value in a configuration, as the file would spell it: for defaults and round trips.
    public let read: @Sendable (ScandConfig) -> SettingValue
    /// Writes a value of the right kind within `bounds` into the configuration, refusing what else is wrong.
    let write: @Sendable (inout ScandConfig, SettingValue, Context) throws(Problem) -> Void
    /// What the settings reference says of it, when a feature section gives it with the row.
    let words: String?

    public enum Reload: Sendable, Equatable {
        /// The daemon applies a new value on SIGHUP.
        case live
        /// The daemon keeps the value it started with until a restart (a reload names it).
        case restart
        /// Another command's setting (`scand web`, `scand mqtt`), read when that command starts.
        case otherCommand(String)
    }

    public enum Bounds: Sendable, Equatable {
        case integers(ClosedRange<Int>)
        case seconds(ClosedRange<Double>)
        case choices([Int])
    }

    init(
        section: String, key: String, flag: String?, kind: SettingValue.Kind, bounds: Bounds? = nil, valueName: String, help: String,
        reload: Reload = .live, words: String? = nil,
        read: @escaping @Sendable (ScandConfig) -> SettingValue,
        write: @escaping @Sendable (inout ScandConfig, SettingValue, Context) throws(Problem) -> Void
    ) {
        (self.section, self.key, self.flag, self.kind, self.bounds) = (section, key, flag, kind, bounds)
        (self.valueName, self.help, self.reload, self.read, self.write, self.words) = (valueName, help, reload, read, write, words)
    }

    /// A row of the table `section` owns, read and written on its value in the configuration; the section's
    /// `reload` says which command reads it. `words`: what the settings reference says of it (the help when nil).
    public init<S: SettingsSection>(
        in section: S.Type, key: String, flag: String?, kind: SettingValue.Kind, bounds: Bounds? = nil, valueName: String, help: String,
        words: String?, read: @escaping @Sendable (S) -> SettingValue,
        write: @escaping @Sendable (inout S, SettingValue) throws(Problem) -> Void
    ) {
        self.init(
            section: S.name, key: key, flag: flag, kind: kind, bounds: bounds, valueName: valueName, help: help,
            reload: S.reload,
            words: words, read: { read($0[section: S.self]) },
            write: { c, v, _ throws(Problem) in try write(&c[section: S.self], v) })
    }

    /// Checks a value (its kind, its bounds, then what `write` checks) and writes it into `config`. The
    /// problem reads after the setting's name, as the file and the command line both report it.
    public func apply(_ value: SettingValue, to config: inout ScandConfig, context: Context = Context()) throws(Problem) {
        guard value.kind == kind else { throw Problem("must be \(kind.expected), not \(value.kind.expected)") }
        // No setting takes a control character: in a path one is a trap (a NUL cuts a socket path short at
        // bind time; others make names no one can type or see).
        let texts: [String]
        switch value {
        case .text(let s): texts = [s]
        case .texts(let items): texts = items
        default: texts = []
        }
        for text in texts {
            if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                let code = String(bad.value, radix: 16, uppercase: true)
                throw Problem("must not contain control characters, got U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)")
            }
        }
        switch (bounds, value) {
        case (.integers(let r), .integer(let n)) where !r.contains(n):
            throw Problem("must be \(r.lowerBound)…\(r.upperBound), got \(n)")
        case (.seconds(let r), .number(let d)) where !r.contains(d):
            throw Problem(
                "must be \(SettingValue.shortest(r.lowerBound))…\(SettingValue.shortest(r.upperBound)) seconds, got \(SettingValue.shortest(d))")
        case (.choices(let choices), .integer(let n)) where !choices.contains(n):
            let names = choices.map(String.init)
            throw Problem("must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""), got \(n)")
        default: try write(&config, value, context)
        }
    }

    /// The system facts a check needs, passed in so that the core does no I/O.
    public struct Context {
        public var groupExists: (String) -> Bool

        public init(groupExists: @escaping (String) -> Bool = { _ in true }) { self.groupExists = groupExists }
    }

    /// Why a value is refused, as a predicate of the setting ("must be 0…1000, got 2000"): the file prefixes
    /// the key ("fps must be …"), the command line the flag ("--fps: must be …").
    public typealias Problem = ScandCore.Problem

    /// The value as text for messages and help: what a user would type on the command line.
    public var defaultText: String { read(ScandConfig()).commandLineText }

    public var commandLineName: String? { flag.map { "--" + $0 } }

    /// The command whose flag this is: `scand run`, or the one that reads another command's table.
    public var command: String {
        guard case .otherCommand(let command) = reload else { return Self.daemon }
        return command
    }

    public static let daemon = "scand run"

    /// The settings of `table` a reload from `running` to `new` changes but does not apply, as a log line names
    /// them: `[socket] max_clients 64 → 8`.
    public static func unappliedChanges(from running: ScandConfig, to new: ScandConfig, in table: SettingsTable) -> [String] {
        table.settings.filter { $0.reload == .restart && $0.read(running) != $0.read(new) }.map { s in
            func text(_ v: SettingValue) -> String { v == .text("") ? "\"\"" : v.commandLineText }
            return "[\(s.section)] \(s.key) \(text(s.read(running))) → \(text(s.read(new)))"
        }
    }
}

extension Setting {
    /// A whole number in `range`, kept at `path`.
    static func integer(
        _ section: String, _ key: String, flag: String? = nil, _ range: ClosedRange<Int>, valueName: String = "N",
        help: String, reload: Reload = .live, _ path: WritableKeyPath<ScandConfig, Int> & Sendable
    ) -> Setting {
        Setting(
            section: section, key: key, flag: flag, kind: .integer, bounds: .integers(range), valueName: valueName, help: help, reload: reload,
            read: { .integer($0[keyPath: path]) },
            write: { c, value, _ throws(Problem) in c[keyPath: path] = try value.integer() })
    }

    /// The name of a group of this system (checked through the context), or empty for none.
    static func group(
        _ section: String, _ key: String, help: String, reload: Reload = .live, _ path: WritableKeyPath<ScandConfig, String> & Sendable
    ) -> Setting {
        Setting(
            section: section, key: key, flag: nil, kind: .text, valueName: "NAME", help: help, reload: reload,
            read: { .text($0[keyPath: path]) },
            write: { c, v, context throws(Problem) in
                let group = try v.text()
                guard group.isEmpty || context.groupExists(group) else {
                    throw Problem("'\(group)' does not exist (create it with groupadd, or set \(key) = \"\")")
                }
                c[keyPath: path] = group
            })
    }

    /// Seconds in `range`, kept as a `Duration` at millisecond resolution.
    static func seconds(
        _ section: String, _ key: String, flag: String? = nil, _ range: ClosedRange<Double>, help: String, reload: Reload = .live,
        _ path: WritableKeyPath<ScandConfig, Duration> & Sendable
    ) -> Setting {
        Setting(
            section: section, key: key, flag: flag, kind: .number, bounds: .seconds(range), valueName: "S", help: help, reload: reload,
            read: { .number($0[keyPath: path].inSeconds) },
            write: { c, value, _ throws(Problem) in c[keyPath: path] = Duration(roundingSeconds: try value.number()) })
    }
}

extension Duration {
    /// Seconds as a number, as the file and the command line write durations.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// A duration in whole milliseconds: 0.57 s is 570 ms, not the 569 that truncating 569.99… would give.
    public init(roundingSeconds s: Double) { self = .milliseconds(Int((s * 1000).rounded())) }
}
