import Foundation
import ScandCore

/// The one reader of the daemon's lines, for every client: Foundation's `JSONDecoder` over a line of at
/// most `maxLength` bytes. What `EventEncoder` writes for the answers to requests comes back as the same
/// `Event`; events keep their line as written (a client relays or prints it) with their class and stamp typed.
public enum EventDecoder {
    /// The longest line a client reads: a SNAPSHOT (a base64 JPEG of at most 640 px a side) is the longest
    /// the daemon sends, well under this; a longer line is a broken stream.
    public static let maxLength = 8 << 20

    public typealias Problem = ScandCore.Problem

    public static func decode(_ line: String, maxLength: Int = maxLength) throws(Problem) -> ReceivedEvent {
        guard line.utf8.count <= maxLength else { throw Problem("scand sent a line over \(maxLength) bytes") }
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: Data(line.utf8)) } catch {
            throw Problem("scand sent a line that is not an event: \(ClientRequest.quoted(line))")
        }
        guard let eventClass = Event.Class(rawValue: fields.class) else {
            throw Problem("scand sent an event of unknown class \(ClientRequest.quoted(fields.class))")
        }
        // A boot or seq the daemon would refuse as a `since` is no position to resume from.
        let seq = fields.seq.flatMap { EventPosition.isSeq($0) ? $0 : nil }
        let stamp = fields.boot.flatMap { EventPosition.isBootID($0) ? EventStamp(boot: $0, seq: seq, replayed: fields.replayed ?? false) : nil }
        return ReceivedEvent(eventClass: eventClass, stamp: stamp, event: try fields.event(eventClass), code: try fields.code(eventClass), line: line)
    }

    /// The keys of every answer to a request (JSONDecoder skips the others).
    struct Fields: Decodable {
        var `class`: String
        var boot: String?
        var seq: Int?
        var replayed: Bool?
        // VERSION
        var release: String?
        var proto_major: Int?
        var proto_minor: Int?
        var zxing: String?
        // ERROR
        var message: String?
        // METRICS; SCAN
        var text: String?
        // SCAN, UPDATE, LOST
        var id: Int?
        var format: String?
        /// A code's camera; STATUS's `device` is an object, read as nil here.
        var device: StringIfString?
        var time: String?
        // ROI
        var roi: [Double]?
        // CONTROLS (and `device`)
        var controls: [ControlField]?
        var set: [SettingField]?
        var kept: [SettingField]?
        // SNAPSHOT
        var frame: UInt64?
        var width: Int?
        var height: Int?
        var sourceWidth: Int?
        var sourceHeight: Int?
        var mime: String?
        var data: String?
        var inView: [Int]?
        // WATCH
        var enable: Bool?
        var classes: [String]?
        var formats: [String]?
        var since: Since?

        struct StringIfString: Decodable {
            var value: String?
            init(from decoder: any Decoder) throws { value = try? decoder.singleValueContainer().decode(String.self) }
        }

        struct Since: Decodable {
            var boot: String
            var seq: Int
        }

        /// One of CONTROLS' controls (`EventEncoder.controlFields`).
        struct ControlField: Decodable {
            struct MenuItem: Decodable {
                var index: Int
                var name: String
            }
            var name: String
            var label: String
            var type: String
            var min, max, step, `default`: Int
            var value: Int?
            var menu: [MenuItem]?
            var readOnly: Bool?
            var inactive: Bool?

            var control: CameraControl {
                let kind: CameraControl.Kind =
                    switch type {
                    case "int": .integer
                    case "bool": .boolean
                    case "menu": .menu(Dictionary((menu ?? []).map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a }))
                    case "button": .button
                    default: .other
                    }
                var c = CameraControl(
                    id: 0, label: label, kind: kind, minimum: min, maximum: max, step: step, defaultValue: `default`, value: value,
                    readOnly: readOnly ?? false, inactive: inactive ?? false)
                c.name = name
                return c
            }
        }

        /// `{"name":…,"value":…}` of CONTROLS' `set` and `kept`.
        struct SettingField: Decodable {
            var name: String
            var value: CameraControlValue

            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: ClientRequest.AnyKey.self)
                name = try c.decode(String.self, forKey: .init(stringValue: "name"))
                guard let value = CameraControlValue.read(c, "value") else {
                    throw Problem("a camera control's value is an integer, true or false, or a menu item's name")
                }
                self.value = value
            }

            var setting: CameraControlSetting { CameraControlSetting(name: name, value: value) }
        }

        func code(_ eventClass: Event.Class) throws(Problem) -> ReceivedCode? {
            // `scand scan`'s SCAN lines name a file, not a tracked code: no id.
            guard [.scan, .update, .lost].contains(eventClass), let id else { return nil }
            guard let format, eventClass != .scan || text != nil else { throw Problem("scand sent a \(eventClass.rawValue) without its fields") }
            return ReceivedCode(id: id, formatName: format, text: text, device: device?.value, time: time.flatMap(Timestamp.parse))
        }

        func event(_ eventClass: Event.Class) throws(Problem) -> Event? {
            let missing = Problem("scand sent a \(eventClass.rawValue) without its fields")
            switch eventClass {
            case .version:
                guard let release, let proto_major, let proto_minor else { throw missing }
                return .version(VersionBanner(release: release, protoMajor: proto_major, protoMinor: proto_minor, zxing: zxing ?? ""))
            case .error:
                guard let message else { throw missing }
                return .error(message)
            case .metrics:
                guard let text else { throw missing }
                return .metrics(text)
            case .regionOfInterest:
                guard let roi, roi.count == 4, let rect = try? NormalizedRect(x: roi[0], y: roi[1], width: roi[2], height: roi[3]) else {
                    throw missing
                }
                return .regionOfInterest(rect)
            case .cameraControls:
                guard let device = device?.value, let controls else { throw missing }
                return .cameraControls(
                    CameraControlsReport(
                        device: device, controls: controls.map(\.control), set: (set ?? []).map(\.setting), kept: (kept ?? []).map(\.setting)))
            case .snapshot:
                guard let frame, let width, let height, let sourceWidth, let sourceHeight, let mime, let data,
                    let bytes = Data(base64Encoded: data)
                else { throw missing }
                return .snapshot(
                    Snapshot(
                        frame: frame, width: width, height: height, sourceWidth: sourceWidth, sourceHeight: sourceHeight, mimeType: mime,
                        data: [UInt8](bytes), inView: inView))
            case .watch:
                guard let enable else { throw missing }
                var watch = ClientRequest.Watch(enable: enable)
                if let classes { watch.classes = Set(classes.compactMap(Event.Class.init(rawValue:))) }
                if let formats { watch.formats = try? BarcodeFormats.parse(formats.joined(separator: ",")) }
                // A position the client may send back as its since: one the daemon would refuse is none.
                watch.since = since.flatMap {
                    EventPosition.isBootID($0.boot) && EventPosition.isSeq($0.seq) ? EventPosition(boot: $0.boot, seq: $0.seq) : nil
                }
                return .watch(watch)
            default:
                return nil
            }
        }
    }
}
