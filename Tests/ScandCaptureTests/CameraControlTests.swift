import Testing
import ScandCore
import ScandConfigFile

/// `[camera.controls]`: names as v4l2-ctl gives them, values checked against the camera's own ranges, and
/// the configuration file's table.
@Suite struct CameraControlTests {
    static let gain = CameraControl(id: 1, label: "Gain", kind: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 32, value: 32)
    static let exposure = CameraControl(
        id: 2, label: "Auto Exposure", kind: .menu([1: "Manual Mode", 3: "Aperture Priority Mode"]), minimum: 0, maximum: 3, step: 1,
        defaultValue: 3, value: 3)
    static let focus = CameraControl(
        id: 3, label: "Focus, Automatic Continuous", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1)
    static let zoom = CameraControl(
        id: 4, label: "Zoom, Absolute", kind: .integer, minimum: 100, maximum: 500, step: 10, defaultValue: 100, value: 100)
    static let camera = [gain, exposure, focus, zoom]

    @Test func namesAreV4l2CtlsNames() {
        #expect(CameraControl.name(fromDescription: "Focus, Automatic Continuous") == "focus_automatic_continuous")
        #expect(CameraControl.name(fromDescription: "Exposure Time, Absolute") == "exposure_time_absolute")
        #expect(CameraControl.name(fromDescription: "Power Line Frequency") == "power_line_frequency")
        #expect(CameraControl.name(fromDescription: "  White Balance (Auto) ") == "white_balance_auto")
        #expect(CameraControl.name(fromDescription: "Brightness") == "brightness")
    }

    @Test func valuesWithinRangeAreSetInTheConfiguredOrder() throws {
        let settings = [
            CameraControlSetting(name: "focus_automatic_continuous", value: .boolean(false)),
            CameraControlSetting(name: "auto_exposure", value: .text("manual mode")),
            CameraControlSetting(name: "gain", value: .integer(255)),
            CameraControlSetting(name: "zoom_absolute", value: .integer(130))
        ]
        let resolved = try CameraControl.resolve(settings, among: Self.camera)
        #expect(resolved.map(\.0.name) == settings.map(\.name))
        #expect(resolved.map(\.1) == [0, 1, 255, 130])
        #expect(try Self.exposure.number(for: .integer(3)) == 3, "a menu item by its index")
    }

    @Test func badValuesNameTheControlAndWhatItTakes() {
        func refusal(_ name: String, _ value: CameraControlValue) -> String {
            do {
                _ = try CameraControl.resolve([CameraControlSetting(name: name, value: value)], among: Self.camera)
                return "accepted"
            } catch { return error.description }
        }
        #expect(refusal("gain", .integer(500)) == "camera control 'gain': 500 is out of range; it takes 0…255")
        #expect(refusal("zoom_absolute", .integer(105)) == "camera control 'zoom_absolute': 105 is not on a step; it takes 100…500 step 10")
        #expect(
            refusal("auto_exposure", .text("Shutter Priority Mode"))
                == "camera control 'auto_exposure': 'Shutter Priority Mode' is none of its menu items; it takes 1 (Manual Mode), 3 (Aperture Priority Mode)"
        )
        #expect(refusal("auto_exposure", .integer(2)).contains("2 is none of its menu items"))
        #expect(refusal("gain", .text("high")) == "camera control 'gain': 'high' is not a value of it; it takes 0…255")
        #expect(
            refusal("focus_absolut", .integer(1))
                == "camera control 'focus_absolut' is not one of this camera's (gain, auto_exposure, focus_automatic_continuous, zoom_absolute)")
        // A client's JSON may carry control characters in a name or a menu item: the refusal stays one line.
        #expect(refusal("focus\nabsolute", .integer(1)).hasPrefix(#"camera control 'focus\u000aabsolute' is not one"#))
        #expect(refusal("auto_exposure", .text("Manual\u{1b}[2J")).contains(#"'Manual\u001b[2J' is none of its menu items"#))
        #expect(refusal("gain", .text("high\r")).contains(#"'high\u000d' is not a value of it"#))
    }

    @Test func theFileHoldsControlsInItsOrder() throws {
        let c = try ScandConfig().applying(
            toml: """
                [camera]
                size = "1920x1080"
                [camera.controls]
                focus_automatic_continuous = false
                auto_exposure = "Manual Mode"
                gain = 0
                """, table: .core)
        #expect(
            c.cameraControls == [
                CameraControlSetting(name: "focus_automatic_continuous", value: .boolean(false)),
                CameraControlSetting(name: "auto_exposure", value: .text("Manual Mode")), CameraControlSetting(name: "gain", value: .integer(0))
            ])
        #expect(c.cameraChanges(from: ScandConfig()).contains("camera controls"))
        #expect { try ScandConfig().applying(toml: "[camera.controls]\ngain = 1.5\n", table: .core) } throws: { e in
            (e as? ScandConfig.Problem)?.description
                == "line 2: gain in [camera.controls] must be an integer, true or false, or a menu item's name, not a number"
        }
        #expect { try ScandConfig().applying(toml: "[camera.]\n", table: .core) } throws: { e in (e as? ScandConfig.Problem)?.line == 1 }
    }

    @Test func controlsSetLaterOverrideTheConfiguredOnesInTheirPlace() {
        let configured = [
            CameraControlSetting(name: "focus_automatic_continuous", value: .boolean(false)),
            CameraControlSetting(name: "focus_absolute", value: .integer(100))
        ]
        let changed = configured.overridden(by: [
            CameraControlSetting(name: "gain", value: .integer(4)), CameraControlSetting(name: "focus_absolute", value: .integer(250))
        ])
        // focus_absolute keeps its place after the automatic mode it needs off; gain comes last.
        #expect(changed.map(\.name) == ["focus_automatic_continuous", "focus_absolute", "gain"])
        #expect(changed[1].value == .integer(250) && changed[2].value == .integer(4))
        #expect(configured.overridden(by: []) == configured)
    }

    @Test func thePixelFormatIsASetting() throws {
        #expect(try ScandConfig().applying(toml: "[camera]\npixel_format = \"mjpg\"\n", table: .core).pixelFormat == .mjpeg)
        #expect(try ScandConfig().applying(toml: "[camera]\npixel_format = \"auto\"\n", table: .core).pixelFormat == nil)
        #expect { try ScandConfig().applying(toml: "[camera]\npixel_format = \"H264\"\n", table: .core) } throws: { e in
            "\(e)".contains("pixel_format must be auto or one of MJPG, YUYV")
        }
    }
}
