import ScandCore

extension ScandConfig {
    /// The bytes of a configuration file (TOML 1.0, UTF-8 without a byte-order mark) applied on top of this
    /// configuration, through `table` as the command line is. Syntax errors, unknown tables and keys,
    /// wrong types and out-of-range values are refused with their line, the first of them in the file: a
    /// typo must not silently fall back. `groupExists` says whether a `[socket] group` names a group.
    public func applying(
        file bytes: [UInt8], table: SettingsTable, groupExists: @escaping (String) -> Bool = { _ in true }
    ) throws(ScandConfig.Problem) -> ScandConfig {
        let sections = table.tableNames
        let doc = try ConfigDocument(bytes: bytes, sections: sections + [ScandConfig.controlsTable])
        let known = sections.joined(separator: ", ")
        var c = self
        let context = Setting.Context(groupExists: groupExists)
        let unknownTables = doc.unknownTables[...]
        var controls: [CameraControlSetting] = []
        for entry in doc.entries {
            if let table = unknownTables.first, table.line <= entry.line {
                throw ScandConfig.Problem(line: table.line, message: "unknown table [\(table.name)] (known: \(known))")
            }
            if entry.section == ScandConfig.controlsTable {
                controls.append(CameraControlSetting(name: entry.key, value: try Self.cameraControl(entry)))
                continue
            }
            guard entry.section.isEmpty || sections.contains(entry.section) else {
                throw ScandConfig.Problem(line: entry.line, message: "unknown table [\(entry.section)] (known: \(known))")
            }
            if entry.section.isEmpty && sections.contains(entry.key) {
                throw ScandConfig.Problem(line: entry.line, message: "\(entry.key) must be a table ([\(entry.key)]), not \(entry.value.typeName)")
            }
            guard let setting = table.settings.first(where: { $0.section == entry.section && $0.key == entry.key }) else {
                let place = entry.section.isEmpty ? "outside any table" : "in [\(entry.section)]"
                let keys = table.settings.filter { $0.section == entry.section }.map(\.key)
                throw ScandConfig.Problem(
                    line: entry.line, message: "unknown key '\(entry.key)' \(place)\(keys.isEmpty ? "" : " (known: \(keys.joined(separator: ", ")))")"
                )
            }
            do { try setting.apply(try SettingValue(toml: entry.value, as: setting.kind), to: &c, context: context) } catch {
                throw ScandConfig.Problem(line: entry.line, message: "\(setting.key) \(error)")
            }
        }
        if let table = unknownTables.first { throw ScandConfig.Problem(line: table.line, message: "unknown table [\(table.name)] (known: \(known))") }
        if !controls.isEmpty { c.cameraControls = controls }
        return c
    }

    /// One entry of `[camera.controls]`: an integer, true or false, or a menu item's name.
    private static func cameraControl(_ entry: ConfigDocument.Entry) throws(ScandConfig.Problem) -> CameraControlValue {
        switch entry.value {
        case .integer(let n): return .integer(n)
        case .boolean(let b): return .boolean(b)
        case .string(let s): return .text(s)
        default:
            throw ScandConfig.Problem(
                line: entry.line,
                message: "\(entry.key) in [\(controlsTable)] must be an integer, true or false, or a menu item's name, not \(entry.value.typeName)")
        }
    }

    /// A configuration file's text applied on top of this configuration (see `applying(file:)`).
    public func applying(
        toml text: String, table: SettingsTable, groupExists: @escaping (String) -> Bool = { _ in true }
    ) throws(ScandConfig.Problem) -> ScandConfig {
        try applying(file: Array(text.utf8), table: table, groupExists: groupExists)
    }
}

extension SettingValue {
    /// A file's value read as `kind`; an integer is also a number. Anything else is the wrong type, and an
    /// array of the wrong elements says which element ("must be an array of numbers, not a string at 1").
    public init(toml value: ConfigDocument.Value, as kind: Kind) throws(Setting.Problem) {
        func wrong() -> Setting.Problem { Setting.Problem("must be \(kind.expected), not \(value.typeName)") }
        func number(_ v: ConfigDocument.Value) -> Double? {
            switch v {
            case .integer(let n): Double(n)
            case .float(let d): d
            default: nil
            }
        }
        func element<T>(_ items: [ConfigDocument.Value], _ read: (ConfigDocument.Value) -> T?) throws(Setting.Problem) -> [T] {
            var out: [T] = []
            for (index, item) in items.enumerated() {
                guard let v = read(item) else {
                    throw Setting.Problem("must be \(kind.expected), not \(item.typeName) at position \(index + 1)")
                }
                out.append(v)
            }
            return out
        }
        switch (kind, value) {
        case (.text, .string(let s)): self = .text(s)
        case (.integer, .integer(let n)): self = .integer(n)
        case (.integer, .float(let d)) where d.isFinite && d == d.rounded() && abs(d) < 1e18:
            throw Setting.Problem("must be an integer, without a decimal point, not \(SettingValue.shortest(d, float: true))")
        case (.number, _): guard let d = number(value), d.isFinite else { throw wrong() }; self = .number(d)
        case (.boolean, .boolean(let b)): self = .boolean(b)
        case (.texts, .array(let items)):
            self = .texts(
                try element(items) {
                    guard case .string(let s) = $0 else { return nil }
                    return s
                })
        case (.numbers, .array(let items)): self = .numbers(try element(items) { number($0).flatMap { $0.isFinite ? $0 : nil } })
        default: throw wrong()
        }
    }
}
