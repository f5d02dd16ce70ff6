/// A table of the configuration file that a feature module owns (`[tracking]`, `[journal]`, `[web]`, `[mqtt]`,
/// …): its type, kept in `ScandConfig` by type (`config[section: WebSettings.self]`), and its rows, declared
/// beside it in its module and registered with the one table (`SettingsTable`) where the commands are put together.
public protocol SettingsSection: Sendable, Equatable {
    init()
    /// The table's name in the file (`web`).
    static var name: String { get }
    /// What a SIGHUP does with its rows, and so which command reads them: `.otherCommand("scand NAME")` (the
    /// default: `scand web` reads [web], `scand run` only checks it), or `.live` or `.restart` for a table of
    /// `scand run`'s own ([tracking], [journal]).
    static var reload: Setting.Reload { get }
    /// The table it comes after in the file and the settings reference (`decoding` for [tracking]); nil: after
    /// every table before it. A table named here must be ScandCore's or registered before this one.
    static var follows: String? { get }
    /// Its rows, in the order the file shows them (made with `Setting.init(in:…)`).
    static var settings: [Setting] { get }
    /// Words at the head of the table in the settings reference, before its first setting.
    static var introduction: String? { get }
}

extension SettingsSection {
    public static var introduction: String? { nil }
    public static var reload: Setting.Reload { .otherCommand("scand \(name)") }
    public static var follows: String? { nil }

    /// Equal to `other`, of whatever section type; nil stands for this type's default.
    func isEqual(to other: (any SettingsSection)?) -> Bool {
        guard let other else { return self == Self() }
        return (other as? Self) == self
    }
}

/// The values of the feature sections in a configuration, by type: a section never set is its default.
struct SectionValues: Sendable, Equatable {
    private var values: [ObjectIdentifier: any SettingsSection] = [:]

    subscript<S: SettingsSection>(_ type: S.Type) -> S {
        get { values[ObjectIdentifier(type)] as? S ?? S() }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    static func == (a: SectionValues, b: SectionValues) -> Bool {
        Set(a.values.keys).union(b.values.keys).allSatisfy { key in
            if let x = a.values[key] { return x.isEqual(to: b.values[key]) }
            return b.values[key]?.isEqual(to: nil) ?? true
        }
    }
}
