import Foundation
import ScandCore
import ScandPayload

/// The wire format: each `Event` as one JSON object on one line, `class` first, fields that do not apply
/// omitted (never null). Every key of every event is written here and nowhere else.
public enum EventEncoder {
    public static func line(_ event: Event, stamp: EventStamp? = nil) -> String { object(event, stamp: stamp).serialized() }

    /// What marks a line replayed from the journal: `"replayed":true`, last, so that the rest of the line is
    /// the same bytes as when it was published live.
    static let replayedSuffix = #","replayed":true}"#

    /// A journaled line as a replay sends it: the same object with `"replayed":true` last.
    public static func markingReplayed(_ line: String) -> String {
        guard line.hasSuffix("}") else { return line }
        return String(line.dropLast()) + replayedSuffix
    }

    /// A replayed line as it was published live: without its `"replayed":true`; any other line as it is.
    public static func removingReplayMark(_ line: String) -> String {
        guard line.hasSuffix(replayedSuffix) else { return line }
        return String(line.dropLast(replayedSuffix.utf8.count)) + "}"
    }

    /// With a stamp: `boot` and `seq` right after `class`, `replayed` last (`markingReplayed`).
    public static func object(_ event: Event, stamp: EventStamp? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [("class", .string(event.eventClass.rawValue))]
        if let stamp {
            fields.append(("boot", .string(stamp.boot)))
            if let seq = stamp.seq { fields.append(("seq", .int(seq))) }
        }
        switch event {
        case .version(let v):
            fields += [
                ("release", .string(v.release)), ("proto_major", .int(v.protoMajor)), ("proto_minor", .int(v.protoMinor)),
                ("zxing", .string(v.zxing))
            ]
        case .device(let d):
            fields += deviceFields(d)
        case .scan(let c):
            fields += trackedFields(c) + detectionFields(c.detection, frameWidth: c.frameWidth, frameHeight: c.frameHeight)
            if let latency = c.latencyMilliseconds { fields.append(("latencyMs", .number(latency, places: 1))) }
        case .update(let c):
            let d = c.detection
            fields += trackedFields(c) + [("format", .string(d.format.name)), ("corners", cornersInPixels(d))]
            if let normalized = normalizedCorners(d, frameWidth: c.frameWidth, frameHeight: c.frameHeight) {
                fields.append(("normalized", normalized))
            }
            fields.append(("orientation", .int(d.orientation)))
        case .lost(let c):
            fields += trackedFields(c) + [("format", .string(c.detection.format.name)), ("text", .string(c.detection.text))]
        case .imageScan(let c):
            fields.append(("file", .string(c.file)))
            fields += detectionFields(c.detection, frameWidth: c.imageWidth, frameHeight: c.imageHeight)
        case .stats(let device, let counters):
            fields.append(("device", .string(device)))
            fields += counterFields(counters)
        case .watch(let w):
            fields += w.fields
        case .status(let s):
            if let d = s.device { fields.append(("device", .object(deviceFields(d)))) }
            fields += counterFields(s.counters)
            let c = s.clients
            fields += [
                ("clients", .int(c.connected)), ("watching", .int(c.watching)), ("clientsDropped", .int(c.droppedSlow)),
                ("clientsRefused", .int(c.refused)), ("clientsTimedOut", .int(c.timedOut)), ("stdoutDropped", .int(s.stdoutDropped))
            ]
            if let r = s.regionOfInterest { fields.append(("roi", rect(r))) }
            if let j = s.journal { fields.append(("journal", journalFields(j))) }
        case .error(let message):
            fields.append(("message", .string(message)))
        case .devices(let cameras):
            fields.append(("devices", .array(cameras.map { .object(cameraFields($0)) })))
        case .snapshot(let s):
            fields += [
                ("frame", .int(Int(truncatingIfNeeded: s.frame))), ("width", .int(s.width)), ("height", .int(s.height)),
                ("sourceWidth", .int(s.sourceWidth)), ("sourceHeight", .int(s.sourceHeight)), ("mime", .string(s.mimeType)),
                ("data", .string(Data(s.data).base64EncodedString()))
            ]
            if let ids = s.inView { fields.append(("inView", .array(ids.map { .int($0) }))) }
        case .regionOfInterest(let r):
            fields.append(("roi", rect(r)))
        case .cameraControls(let report):
            fields += [
                ("device", .string(report.device)), ("controls", .array(report.controls.map { .object(controlFields($0)) })),
                ("set", .array(report.set.map { .object(settingFields($0)) })), ("kept", .array(report.kept.map { .object(settingFields($0)) }))
            ]
        case .metrics(let text):
            fields.append(("text", .string(text)))
        case .journal(let j):
            fields.append(("state", .string(j.state.rawValue)))
            if let id = j.journal { fields.append(("journal", .string(id))) }
            if let gap = j.notJournaled { fields.append(("notJournaled", gapFields(gap))) }
            fields.append(("message", .string(j.message)))
        }
        if stamp?.replayed == true { fields.append(("replayed", .bool(true))) }
        return .object(fields)
    }

    /// A code's fields, shared by the live SCAN and the SCAN of `scand scan`.
    static func detectionFields(_ d: Detection, frameWidth: Int, frameHeight: Int) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("format", .string(d.format.name)),
            ("text", .string(d.text)),
            ("bytes", .string(Data(d.bytes).base64EncodedString())),
            ("corners", cornersInPixels(d))
        ]
        if let normalized = normalizedCorners(d, frameWidth: frameWidth, frameHeight: frameHeight) { fields.append(("normalized", normalized)) }
        fields.append(("orientation", .int(d.orientation)))
        if !d.symbologyIdentifier.isEmpty { fields.append(("symbology", .string(d.symbologyIdentifier))) }
        fields.append(("content", .string(d.contentType.rawValue)))
        if d.hasECI { fields.append(("eci", .bool(true))) }
        if !d.ecLevel.isEmpty { fields.append(("ecLevel", .string(d.ecLevel))) }
        if d.mirrored { fields.append(("mirrored", .bool(true))) }
        if d.inverted { fields.append(("inverted", .bool(true))) }
        if d.readerInit { fields.append(("readerInit", .bool(true))) }
        if let s = d.sequence {
            // A merged sequence (index -1) carries the whole payload.
            var seq: [(String, JSONValue)] =
                s.index >= 0
                ? [("index", .int(s.index)), ("count", .int(s.count))]
                : [("count", .int(s.count)), ("complete", .bool(true))]
            if !s.id.isEmpty { seq.append(("id", .string(s.id))) }
            fields.append(("sequence", .object(seq)))
        }
        fields.append(("value", PayloadParser.parse(d).json))
        return fields
    }

    private static func trackedFields(_ c: TrackedCode) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("id", .int(c.id)), ("device", .string(c.device)), ("time", .string(Timestamp.iso8601(c.time)))]
        if let frame = c.frame { fields.append(("frame", .int(Int(truncatingIfNeeded: frame)))) }
        return fields
    }

    private static func cornersInPixels(_ d: Detection) -> JSONValue {
        .array(d.corners.corners.map { .array([.number($0.x, places: 1), .number($0.y, places: 1)]) })
    }

    private static func normalizedCorners(_ d: Detection, frameWidth: Int, frameHeight: Int) -> JSONValue? {
        guard frameWidth > 0, frameHeight > 0 else { return nil }
        let w = Double(frameWidth), h = Double(frameHeight)
        return .array(d.corners.corners.map { .array([.number($0.x / w, places: 4), .number($0.y / h, places: 4)]) })
    }

    /// DEVICE's fields after `class`; STATUS nests them as its `device`.
    private static func deviceFields(_ d: DeviceStatus) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("path", .string(d.device)), ("state", .string(d.state.rawValue))]
        if let f = d.format {
            fields += [("pixelformat", .string(f.fourcc.description)), ("width", .int(f.width)), ("height", .int(f.height))]
        }
        if let reason = d.reason { fields.append(("message", .string(reason))) }
        if let retryIn = d.retryIn { fields.append(("retryIn", .number(retryIn.inSeconds, places: 3))) }
        return fields
    }

    private static func journalFields(_ j: JournalStatus) -> JSONValue {
        switch j {
        case .on(let span, let boot, let id, let gap):
            var fields: [(String, JSONValue)] = [("state", .string("on")), ("boot", .string(boot))]
            if let id { fields.append(("journal", .string(id))) }
            if let span {
                fields += [
                    ("first", .int(span.first)), ("last", .int(span.last)), ("events", .int(span.events)),
                    ("since", .string(UTCTime.iso8601(span.oldestTime)))
                ]
            } else {
                fields.append(("events", .int(0)))
            }
            if let gap { fields.append(("notJournaled", gapFields(gap))) }
            return .object(fields)
        case .off(let reason, let boot, let gap, let retryIn):
            var fields: [(String, JSONValue)] = [("state", .string("off")), ("boot", .string(boot)), ("reason", .string(reason))]
            if let gap { fields.append(("notJournaled", gapFields(gap))) }
            if let retryIn { fields.append(("retryIn", .number(retryIn, places: 1))) }
            return .object(fields)
        }
    }

    private static func gapFields(_ gap: JournalGap) -> JSONValue {
        .object([("first", .int(gap.first)), ("last", .int(gap.last)), ("events", .int(gap.events))])
    }

    /// [x, y, w, h] in 0…1 of the frame.
    private static func rect(_ r: NormalizedRect) -> JSONValue {
        .array(r.onWireGrid.map { .number($0, places: NormalizedRect.wirePlaces) })
    }

    private static func cameraFields(_ d: CameraInfo) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("path", .string(d.path)), ("stableNames", .array(d.stableNames.map { .string($0) })),
            ("driver", .string(d.driver)), ("card", .string(d.card)), ("bus", .string(d.busInfo)),
            ("capture", .bool(d.isCapture))
        ]
        if let p = d.problem { fields.append(("message", .string(p))) }
        if let c = d.choice { fields.append(("choice", .object([("pixelformat", .string(c.fourcc.description)), ("reason", .string(c.reason))]))) }
        if !d.controls.isEmpty { fields.append(("controls", .array(d.controls.map { .object(controlFields($0)) }))) }
        fields.append(
            (
                "formats",
                .array(
                    d.formats.map { f in
                        .object([
                            ("pixelformat", .string(f.fourcc.description)), ("description", .string(f.description)), ("emulated", .bool(f.emulated)),
                            (
                                "sizes",
                                .array(
                                    f.sizes.map { s in
                                        .object([
                                            ("width", .int(s.width)), ("height", .int(s.height)),
                                            ("fps", .array(s.framesPerSecond.map { .number($0, places: 2) }))
                                        ])
                                    })
                            )
                        ])
                    })
            ))
        return fields
    }

    private static func controlFields(_ c: CameraControl) -> [(String, JSONValue)] {
        let type: String
        switch c.kind {
        case .integer: type = "int"
        case .boolean: type = "bool"
        case .menu: type = "menu"
        case .button: type = "button"
        case .other: type = "other"
        }
        var fields: [(String, JSONValue)] = [("name", .string(c.name)), ("label", .string(c.label)), ("type", .string(type))]
        fields += [("min", .int(c.minimum)), ("max", .int(c.maximum)), ("step", .int(c.step)), ("default", .int(c.defaultValue))]
        if let v = c.value { fields.append(("value", .int(v))) }
        if case .menu(let items) = c.kind {
            fields.append(("menu", .array(items.sorted { $0.key < $1.key }.map { .object([("index", .int($0.key)), ("name", .string($0.value))]) })))
        }
        if c.readOnly { fields.append(("readOnly", .bool(true))) }
        if c.inactive { fields.append(("inactive", .bool(true))) }
        return fields
    }

    /// A control to set, as CONTROLS and `?CONTROLS=` write it: `{"name":"gain","value":0}`.
    static func settingFields(_ s: CameraControlSetting) -> [(String, JSONValue)] {
        let value: JSONValue =
            switch s.value {
            case .integer(let n): .int(n)
            case .boolean(let b): .bool(b)
            case .text(let t): .string(t)
            }
        return [("name", .string(s.name)), ("value", value)]
    }

    private static func counterFields(_ c: FrameCounters) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("captured", .int(c.captured)), ("dropped", .int(c.dropped)), ("decoded", .int(c.decoded)),
            ("skippedStatic", .int(c.skippedStatic)), ("failed", .int(c.failed)), ("codes", .int(c.codes)), ("scans", .int(c.scans)),
            ("decodeMsMean", .number(c.decodeMillisecondsMean, places: 2))
        ]
        if let p = c.latencyP50Milliseconds { fields.append(("latencyP50Ms", .number(p, places: 1))) }
        if let p = c.latencyP99Milliseconds { fields.append(("latencyP99Ms", .number(p, places: 1))) }
        fields.append(("workerRestarts", .int(c.workerRestarts)))
        // Only MJPEG streams have frames that do not decode.
        if c.corrupt > 0 { fields.append(("corrupt", .int(c.corrupt))) }
        if let f = c.focusSharpness { fields.append(("focus", .number(f, places: 1))) }
        return fields
    }
}
