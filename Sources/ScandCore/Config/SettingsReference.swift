/// The settings reference, written from a `SettingsTable` and each setting's `documentation`: the commented
/// config/scand.toml and config/web.toml (every setting set to its default, its words above it, the option of
/// the command that reads it after them) and the entries of scand.toml(5) (key, type and range, default, option,
/// words). `SettingsReferenceTests` fails when a file differs from what this writes; `scripts/settings-reference`
/// writes them.
public struct SettingsReference: Sendable {
    public let table: SettingsTable

    public init(_ table: SettingsTable) { self.table = table }

    /// The sections in the table's order.
    public var sections: [String] { table.tableNames }

    /// config/scand.toml: every section but `[web]`, which config/web.toml holds.
    public var scandTOML: String { toml(header: Self.scandHeader, sections: sections.filter { $0 != "web" }) }

    /// config/web.toml.
    public var webTOML: String { toml(header: Self.webHeader, sections: ["web"]) }

    func toml(header: String, sections: [String]) -> String {
        let comment = Self.comment
        var out = comment(header)
        for section in sections {
            out += (out.isEmpty ? "" : "\n") + "[\(section)]\n"
            if let before = table.introduction(of: section) { out += comment(before) }
            for setting in table.settings where setting.section == section {
                var words = setting.documentation ?? setting.help
                if let flag = setting.commandLineName {
                    if words.hasSuffix(".") { words.removeLast() }
                    words += "; " + flag + (setting.kind == .boolean ? "" : " " + setting.valueName) + "."
                }
                out += comment(words) + "\(setting.key) = \(setting.read(ScandConfig()).tomlText)\n"
            }
            if let after = Self.after[section] {
                out += after.split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 + "\n" }.joined()
            }
        }
        return out
    }

    /// The entries of one section of scand.toml(5), between the page's marker lines.
    public func manualEntries(_ section: String) -> String {
        table.settings.filter { $0.section == section }.map { s in
            var head = Self.manualKind(s) + ", " + s.read(ScandConfig()).tomlText
            if let flag = s.commandLineName { head += "; " + flag }
            return ".TP\n.BR \(s.key) \" (\(Self.roff(head).replacingOccurrences(of: "\"", with: "\\(dq")))\"\n"
                + Self.roffLines(s.documentation ?? s.help)
        }.joined()
    }

    public static func beginMarker(_ section: String) -> String {
        #".\" [\#(section)]: written from the settings table by scripts/settings-reference; edit Setting+Documentation.swift"#
    }
    public static func endMarker(_ section: String) -> String { #".\" end of [\#(section)]"# }

    /// `manual` with the text between each section's markers written anew; nil when a section's markers are missing.
    public func manual(updating manual: String) -> String? {
        var text = manual
        for section in sections {
            let begin = Self.beginMarker(section) + "\n", end = Self.endMarker(section)
            guard let b = text.range(of: begin), let e = text.range(of: end, range: b.upperBound..<text.endIndex) else { return nil }
            text.replaceSubrange(b.upperBound..<e.lowerBound, with: manualEntries(section))
        }
        return text
    }

    static func manualKind(_ s: Setting) -> String {
        switch (s.bounds, s.kind) {
        case (.integers(let r)?, _): "integer \(r.lowerBound)-\(r.upperBound)"
        case (.seconds(let r)?, _): "seconds \(SettingValue.shortest(r.lowerBound))-\(SettingValue.shortest(r.upperBound))"
        case (.choices(let c)?, _): c.map(String.init).dropLast().joined(separator: ", ") + " or \(c.last ?? 0)"
        case (nil, .text): "string"
        case (nil, .integer): "integer"
        case (nil, .number): "number"
        case (nil, .boolean): "boolean"
        case (nil, .texts): "list of strings"
        case (nil, .numbers): "list of numbers"
        }
    }

    /// Text as roff: backslashes and minus signs escaped.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-") }

    /// Words as roff lines of at most about 100 columns, none starting with a control character.
    static func roffLines(_ words: String) -> String {
        wrap(roff(words), width: 100).map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }.map { $0 + "\n" }.joined()
    }

    /// Words as `# ` comment lines of at most 110 columns.
    static func comment(_ words: String) -> String {
        words.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap(String($0), width: 108) }.map { "# " + $0 + "\n" }.joined()
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }

    static let scandHeader = """
        scand configuration. Every setting is shown with its default; delete or comment out what you keep.
        Precedence: command line > this file > built-in defaults; each setting below that has an option (of
        `scand run`, or of the command whose table it is) says which, and both take the same values. `scand run --config FILE` reads it: TOML 1.0 (dotted keys,
        inline tables, arrays over several lines all work), UTF-8 without a byte-order mark, a regular file under
        1 MiB. A wrong file is refused at start with its line and the reason (exit status 78), and on SIGHUP
        (systemctl reload scand) a wrong file is logged and the running configuration stays. A reload applies
        [camera], [decoding] and [tracking] (it goes on capturing unless a [camera] setting changed, which restarts
        the camera); [socket], [service] and [journal] need a restart, and a reload that changes one of them says
        which. No string may hold a control character.
        """

    static let webHeader = """
        scand web: the setup page and Prometheus metrics (`man scand`, docs/web.md).
        Every setting with its default; the command line's --listen and --socket override them. The file is read
        as config/scand.toml is (TOML 1.0, the same checks, refused with its line; exit status 78).
        """

    /// Comment lines at the end of a section, kept as they are (an example table).
    static let after: [String: String] = [
        "camera":
            "V4L2 controls set each time the camera opens (so again after a replug), by their v4l2-ctl names, in this\norder; `scand devices --controls` lists a camera's controls, ranges and values. A name the camera lacks or a\nvalue out of its range keeps the camera unused, with a message naming the control and its range. Example:\n[camera.controls]\nfocus_automatic_continuous = false\nfocus_absolute = 250\nauto_exposure = \"Manual Mode\"\nexposure_time_absolute = 150",
        "journal":
            "[web]: `scand web` reads it from /etc/scand/web.toml (scand-web.service's --config), which documents it.\nAny table may go in either file: each command takes its own and checks the rest."
    ]
}
