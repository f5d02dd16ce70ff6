import ScandCore

/// The `[wedge]` table of the configuration file (its rows in WedgeSettings+Table.swift, registered with the
/// settings table as every feature's are): how `scand wedge` types scans, modeled on a hand scanner's
/// keyboard-wedge configuration.
public struct WedgeSettings: Sendable, Equatable {
    /// The kiosk session's keyboard layout.
    public var layout = Layout.us
    /// Typed before each code.
    public var prefix = ""
    /// The key pressed after each code.
    public var suffix = Suffix.enter
    /// Typed for each GS (FNC1) separator of a GS1 code; "": left out.
    public var gsReplacement = ""
    /// How a GS1 Digital Link URI (a QR code's `https://id.gs1.org/01/…`) is typed.
    public var digitalLink = DigitalLink.uri
    /// Wait after each key event (press or release), for applications that drop fast keystrokes.
    public var keyDelayMilliseconds = 4
    /// Only codes of these formats are typed; nil: all.
    public var formats: BarcodeFormats?
    /// Replayed SCANs (after a restart of the wedge or the daemon) older than this are not typed; nil: all.
    public var replayMaxAge: Duration? = .seconds(60)
    /// The virtual keyboard's name, as the input stack (and `libinput list-devices`) shows it.
    public var deviceName = "scand keyboard wedge"
    /// The daemon's socket; "" in a file: the file's `[socket] path`, else as `scand watch` finds it.
    public var socketPath = ""
    /// Where the last typed position is kept; "" in a file: position.json in systemd's $STATE_DIRECTORY
    /// (StateDirectory= of scand-wedge.service), else `defaultStateFile`.
    public var stateFile = ""

    public init() {}

    /// The keyboard layouts the wedge types for (`KeyboardLayout` holds their keys).
    public enum Layout: String, Sendable, CaseIterable {
        case us, uk, de, fr
    }

    /// The key pressed after each code.
    public enum Suffix: String, Sendable, CaseIterable {
        case enter, tab, none
    }

    public enum DigitalLink: String, Sendable, CaseIterable {
        /// As scanned.
        case uri
        /// As the GS1 element string a GS1-128 or GS1 DataMatrix would carry (`0109506000134352` `10ABC` GS
        /// `17270101`), what a till reading GS1 codes expects; a link that is not a valid Digital Link is typed
        /// as scanned.
        case elementString = "element_string"
    }

    public static let defaultStateFile = "/var/lib/scand-wedge/position.json"
    /// uinput's limit on a device name, less its NUL.
    public static let deviceNameLimit = 79
}
