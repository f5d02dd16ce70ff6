import Foundation
import Testing
import ScandCore
import ScandTestSupport
@testable import ScandPipeline

/// The camera controls kept in the state directory: a `[camera.controls]` table read as the configuration's.
@Suite struct CameraControlStoreTests {
    @Test func keptControlsComeBackInTheirOrderWithTheirTypes() throws {
        let store = CameraControlStore(directory: ScandBinary.temporaryDirectory() + "/state")
        #expect(try store.load() == [], "nothing kept yet")
        let settings = [
            CameraControlSetting(name: "focus_automatic_continuous", value: .boolean(false)),
            CameraControlSetting(name: "focus_absolute", value: .integer(-250)),
            CameraControlSetting(name: "auto_exposure", value: .text("Manual \"Mode\"\\\u{7}")),
            CameraControlSetting(name: "odd name", value: .integer(1))
        ]
        try store.save(settings)
        #expect(try store.load() == settings)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.contains("[camera.controls]\nfocus_automatic_continuous = false\nfocus_absolute = -250\n"), "\(text)")
        #expect(text.contains(#"auto_exposure = "Manual \"Mode\"\\\u0007""#) && text.contains(#""odd name" = 1"#), "\(text)")
        try store.save([])
        #expect(try store.load() == [])
    }

    @Test func aFileThatIsNotATableOfControlsIsRefusedNamingIt() throws {
        let dir = ScandBinary.temporaryDirectory()
        let store = CameraControlStore(directory: dir)
        for (text, says) in [
            ("[camera.controls]\ngain = 1.5\n", "line 2: gain in [camera.controls] must be an integer"),
            ("[camera]\nfps = 5\n", "holds more than a [camera.controls] table"),
            ("gain = \n", "line 1")
        ] {
            try text.write(toFile: store.path, atomically: true, encoding: .utf8)
            #expect { try store.load() } throws: { error in
                let message = "\(error)"
                return message.hasPrefix(store.path + ": ") && message.contains(says) && !message.contains("\n")
            }
        }
    }
}
