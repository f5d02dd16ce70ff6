import Testing
import ScandCore
@testable import ScandProtocol

/// `?CONTROLS;`, `?CONTROLS={…};` and their answer CONTROLS, both ways.
@Suite struct CameraControlsRequestTests {
    static let change = CameraControlChange(
        settings: [
            CameraControlSetting(name: "focus_automatic_continuous", value: .boolean(false)),
            CameraControlSetting(name: "focus_absolute", value: .integer(250)),
            CameraControlSetting(name: "auto_exposure", value: .text("Manual \"Mode\""))
        ], keep: true)

    @Test func requestsComeBackFromTheirLines() throws {
        #expect(try ClientRequest.parse("?CONTROLS;") == .cameraControls)
        let line = ClientRequest.setCameraControls(Self.change).line
        #expect(
            line
                == #"?CONTROLS={"set":[{"name":"focus_automatic_continuous","value":false},{"name":"focus_absolute","value":250},{"name":"auto_exposure","value":"Manual \"Mode\""}],"keep":true};"#
        )
        #expect(try ClientRequest.parse(line) == .setCameraControls(Self.change))
        // In the order given: automatic modes go off before their manual values are set.
        #expect(try ClientRequest.parse(#"?CONTROLS={"keep":true};"#) == .setCameraControls(CameraControlChange(settings: [], keep: true)))
        #expect(ClientRequest.setCameraControls(Self.change).changesSettings && !ClientRequest.cameraControls.changesSettings)
        #expect(ClientRequest.cameraControls.answerClass == .cameraControls)
    }

    @Test(arguments: [
        (#"?CONTROLS={};"#, "?CONTROLS= needs set, keep or both"),
        (#"?CONTROLS={"set":[{"name":"gain"}]};"#, #"each of set is {"name":"<control>","value":<integer, true or false, or a menu item's name>}"#),
        (
            #"?CONTROLS={"set":[{"name":"gain","value":1.5}]};"#,
            #"each of set is {"name":"<control>","value":<integer, true or false, or a menu item's name>}"#
        ),
        (
            #"?CONTROLS={"set":[{"name":"gain","value":1,"x":2}]};"#,
            #"each of set is {"name":"<control>","value":<integer, true or false, or a menu item's name>}"#
        ),
        (#"?CONTROLS={"set":{"gain":1}};"#, #"set must be an array of {"name":…,"value":…}"#),
        (#"?CONTROLS={"keep":"yes"};"#, "keep must be true or false"),
        (#"?CONTROLS={"set":[],"save":true};"#, "unknown CONTROLS field 'save' (known: set, keep)"),
        (#"?CONTROLS=[1];"#, "malformed JSON: expected '{'"),
        ("?CONTROLS=", "malformed JSON: expected '{'")
    ])
    func badChangesAreRefusedWithTheReason(_ line: String, _ reason: String) {
        #expect(throws: ClientRequest.Problem(reason)) { try ClientRequest.parse(line) }
    }

    @Test func tooManyOrTooLongAreRefused() {
        let many = (0...CameraControlChange.maxSettings).map { #"{"name":"c\#($0)","value":1}"# }.joined(separator: ",")
        #expect(throws: ClientRequest.Problem("set names 65 controls; at most 64 at once")) {
            try ClientRequest.parse("?CONTROLS={\"set\":[\(many)]};")
        }
        let long = String(repeating: "x", count: 65)
        #expect(throws: ClientRequest.Problem.self) { try ClientRequest.parse(#"?CONTROLS={"set":[{"name":"\#(long)","value":1}]};"#) }
        #expect(throws: ClientRequest.Problem.self) { try ClientRequest.parse(#"?CONTROLS={"set":[{"name":"gain","value":"\#(long)"}]};"#) }
    }

    @Test func theAnswerIsEncodedAndDecodedWhole() throws {
        let report = CameraControlsReport(
            device: "/dev/video0",
            controls: [
                CameraControl(id: 9, label: "Brightness", kind: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 128, value: 120),
                CameraControl(
                    id: 10, label: "Auto Exposure", kind: .menu([1: "Manual Mode", 3: "Aperture Priority Mode"]), minimum: 0, maximum: 3, step: 1,
                    defaultValue: 3, value: 1),
                CameraControl(
                    id: 11, label: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 250, step: 5, defaultValue: 0, value: nil,
                    inactive: true)
            ],
            set: [CameraControlSetting(name: "brightness", value: .integer(120))], kept: [])
        let line = Event.cameraControls(report).line
        #expect(line.hasPrefix(#"{"class":"CONTROLS","device":"/dev/video0","controls":[{"name":"brightness","label":"Brightness","type":"int""#))
        #expect(line.hasSuffix(#""set":[{"name":"brightness","value":120}],"kept":[]}"#))
        guard case .cameraControls(let back)? = try EventDecoder.decode(line).event else {
            Issue.record("CONTROLS not decoded: \(line)")
            return
        }
        // The ids are the driver's, not on the wire.
        var expected = report
        for i in expected.controls.indices { expected.controls[i].id = 0 }
        #expect(back == expected)
    }
}
