/// One V4L2 control of a camera (brightness, focus_absolute, auto_exposure, …) as the camera describes it
/// (VIDIOC_QUERYCTRL, VIDIOC_QUERYMENU) with its current value, named as `v4l2-ctl` names it.
public struct CameraControl: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case integer
        case boolean
        /// Menu items by index; indices the driver skips are absent.
        case menu([Int: String])
        /// A control that acts when set (any value).
        case button
        /// A type scand does not set (64-bit, string, compound).
        case other
    }

    public var id: UInt32
    /// `v4l2-ctl`'s name: `name(fromDescription:)` of `label`.
    public var name: String
    /// The driver's own name ("Focus, Automatic Continuous").
    public var label: String
    public var kind: Kind
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var defaultValue: Int
    /// nil when it could not be read (a write-only control, a camera that refuses).
    public var value: Int?
    /// Read-only, or inactive because another control rules it (focus_absolute while autofocus is on).
    public var readOnly: Bool
    public var inactive: Bool

    public init(
        id: UInt32, label: String, kind: Kind, minimum: Int, maximum: Int, step: Int, defaultValue: Int, value: Int?,
        readOnly: Bool = false, inactive: Bool = false
    ) {
        (self.id, self.label, self.name, self.kind) = (id, label, Self.name(fromDescription: label), kind)
        (self.minimum, self.maximum, self.step, self.defaultValue, self.value) = (minimum, maximum, step, defaultValue, value)
        (self.readOnly, self.inactive) = (readOnly, inactive)
    }

    /// `v4l2-ctl`'s name for a control: its description lowercased, each run of other characters than
    /// letters and digits one `_` between words ("Focus, Automatic Continuous" → focus_automatic_continuous).
    public static func name(fromDescription description: String) -> String {
        var out = "", gap = false
        for scalar in description.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if gap && !out.isEmpty { out += "_" }
                gap = false
                out.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: scalar).lowercasedASCII))
            } else {
                gap = true
            }
        }
        return out
    }

    /// The values it takes, for messages and `scand devices --controls`: "0…255 step 5", "true or false",
    /// "0 (Manual Mode), 1 (Auto Mode)".
    public var range: String {
        switch kind {
        case .boolean: return "true or false"
        case .menu(let items): return items.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        case .button: return "any value (a button)"
        case .integer, .other: return "\(minimum)…\(maximum)" + (step > 1 ? " step \(step)" : "")
        }
    }

    /// The number to set for `value` from the configuration: within range and step, a boolean as 0 or 1, a
    /// menu item by its index or its name (case-insensitively). Refused with the control and its range.
    public func number(for value: CameraControlValue) throws(CameraControlError) -> Int {
        func refuse(_ why: String) -> CameraControlError { CameraControlError("camera control '\(name)': \(why); it takes \(range)") }
        if readOnly { throw CameraControlError("camera control '\(name)' is read-only") }
        switch (kind, value) {
        case (.other, _): throw CameraControlError("camera control '\(name)' is of a type scand does not set")
        case (.button, _): return 1
        case (.boolean, .boolean(let b)): return b ? 1 : 0
        case (.boolean, .integer(let n)) where n == 0 || n == 1: return n
        case (.menu(let items), .text(let text)):
            guard let index = items.first(where: { $0.value.lowercased() == text.lowercased() })?.key else {
                throw refuse("\(value) is none of its menu items")  // quoted and escaped by its description
            }
            return index
        case (.menu(let items), .integer(let n)):
            guard items[n] != nil else { throw refuse("\(n) is none of its menu items") }
            return n
        case (.integer, .integer(let n)):
            guard n >= minimum, n <= maximum else { throw refuse("\(n) is out of range") }
            guard step <= 1 || (n - minimum) % step == 0 else { throw refuse("\(n) is not on a step") }
            return n
        case (.integer, .boolean(let b)) where minimum <= 0 && maximum >= 1: return b ? 1 : 0
        default: throw refuse("\(value) is not a value of it")
        }
    }
}

/// A camera control's value as the configuration gives it: a number, true/false, or a menu item's name.
public enum CameraControlValue: Sendable, Equatable, CustomStringConvertible {
    case integer(Int)
    case boolean(Bool)
    case text(String)

    public var description: String {
        switch self {
        case .integer(let n): String(n)
        case .boolean(let b): String(b)
        case .text(let s): "'\(s.escapingControlCharacters())'"  // from a client or a file: one line
        }
    }
}

/// `[camera.controls]`: one control to set at open and after every replug, in the file's order (an automatic
/// mode goes off before its manual value is set).
public struct CameraControlSetting: Sendable, Equatable {
    public var name: String
    public var value: CameraControlValue

    public init(name: String, value: CameraControlValue) {
        self.name = name
        self.value = value
    }
}

extension [CameraControlSetting] {
    /// These settings with `changes` on top: a control named again takes the new value in its old place (the
    /// order automatic modes go off in), new ones follow in their order.
    public func overridden(by changes: [CameraControlSetting]) -> [CameraControlSetting] {
        var out = self
        for change in changes {
            if let i = out.firstIndex(where: { $0.name == change.name }) { out[i].value = change.value } else { out.append(change) }
        }
        return out
    }
}

/// Why a control cannot be set as configured, in one line naming the control and what it takes.
public typealias CameraControlError = Problem

extension CameraControl {
    /// The number to set for each configured control among `controls`, in the configured order; an unknown
    /// name is refused with the names the camera has.
    public static func resolve(
        _ settings: [CameraControlSetting], among controls: [CameraControl]
    ) throws(CameraControlError) -> [(
        CameraControl, Int
    )] {
        var out: [(CameraControl, Int)] = []
        for s in settings {
            guard let control = controls.first(where: { $0.name == s.name }) else {
                let names = controls.filter { $0.kind != .other }.map(\.name).joined(separator: ", ")
                let name = s.name.escapingControlCharacters()
                throw CameraControlError("camera control '\(name)' is not one of this camera's (\(names.isEmpty ? "it has none" : names))")
            }
            out.append((control, try control.number(for: s.value)))
        }
        return out
    }
}

extension UInt8 {
    fileprivate var lowercasedASCII: UInt8 { (65...90).contains(self) ? self + 32 : self }
}
