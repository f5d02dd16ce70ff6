import Foundation
import Testing
@testable import ScandCapture

/// What can be checked of the V4L2 source without a camera; streaming is covered on vivid
/// (VividEndToEndTests).
@Suite struct V4L2SourceTests {
    @Test func errorsNameTheCauseAndTheRemedy() {
        #expect { try V4L2Source(path: "/dev/video-none-\(getpid())").open() } throws: {
            let e = $0 as! CaptureError
            return e.kind == .noSuchDevice && e.description.contains("scand devices")
        }
        // /dev/null opens but is no V4L2 device.
        #expect { try V4L2Source(path: "/dev/null").open() } throws: { ($0 as! CaptureError).kind == .notACaptureDevice }
        #expect(CaptureError.from(errno: EACCES, path: "/dev/video0", during: "open").description.contains("video' group"))
        #expect(CaptureError.from(errno: EBUSY, path: "/dev/video0", during: "open").description.contains("device busy"))
        #expect(CaptureError.from(errno: ENODEV, path: "/dev/video0", during: "VIDIOC_DQBUF").kind == .disconnected)
    }

    @Test func inventoryListsNodesAndStableNames() throws {
        // A fake /dev: two nodes that are not cameras and a by-id link to one of them.
        let root = NSTemporaryDirectory() + "scand-dev-\(getpid())"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/v4l/by-id", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/video10", contents: Data())
        FileManager.default.createFile(atPath: root + "/video2", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: root + "/v4l/by-id/usb-Cam-video-index0", withDestinationPath: "../../video2")
        let devices = V4L2Inventory.devices(devRoot: root)
        #expect(devices.map(\.path) == [root + "/video2", root + "/video10"])
        #expect(devices[0].stableNames == [root + "/v4l/by-id/usb-Cam-video-index0"])
        #expect(devices.allSatisfy { $0.problem != nil && !$0.isCapture })
    }
}
