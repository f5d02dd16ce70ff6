import Testing
import ScandCore

/// What scand captures in, from what a camera offers at the asked size.
@Suite struct PixelFormatChoiceTests {
    typealias Offer = PixelFormatChoice.Offer

    /// A typical 1080p UVC webcam at 1920x1080: YUYV at 5 fps, MJPEG at 30; libv4lconvert adds emulated formats.
    static let webcam = [
        Offer(fourcc: .yuyv, emulated: false, framesPerSecond: [5]),
        Offer(fourcc: .mjpeg, emulated: false, framesPerSecond: [30, 15]),
        Offer(fourcc: FourCC("RGB3"), emulated: true, framesPerSecond: [30, 15])
    ]

    @Test func mjpegWhenTheCameraSendsTheSizeAtItsRateOnlySo() throws {
        let c = try #require(PixelFormatChoice.choose(from: Self.webcam, width: 1920, height: 1080, framesPerSecond: nil))
        #expect(c.fourcc == .mjpeg)
        #expect(c.reason == "30 fps at 1920x1080, YUYV only 5")
        // Asking for 5 fps or fewer: YUYV does it, uncompressed.
        #expect(PixelFormatChoice.choose(from: Self.webcam, width: 1920, height: 1080, framesPerSecond: 5)?.fourcc == .yuyv)
        #expect(PixelFormatChoice.choose(from: Self.webcam, width: 1920, height: 1080, framesPerSecond: 15)?.fourcc == .mjpeg)
    }

    @Test func rawWhenItKeepsUp() {
        let offers = [
            Offer(fourcc: .mjpeg, emulated: false, framesPerSecond: [30]), Offer(fourcc: .yuyv, emulated: false, framesPerSecond: [29.97])
        ]
        #expect(PixelFormatChoice.choose(from: offers, width: 640, height: 480, framesPerSecond: nil)?.fourcc == .yuyv)
    }

    @Test func mjpegWhenTheRawFormatLacksTheSize() {
        let offers = [Offer(fourcc: .yuyv, emulated: false, framesPerSecond: nil), Offer(fourcc: .mjpeg, emulated: false, framesPerSecond: [30])]
        let c = PixelFormatChoice.choose(from: offers, width: 1920, height: 1080, framesPerSecond: nil)
        #expect(c?.fourcc == .mjpeg && c?.reason == "30 fps at 1920x1080, YUYV not at this size")
    }

    @Test func mjpegRatherThanLibv4lconvertsEmulatedYUYV() {
        let offers = [Offer(fourcc: .mjpeg, emulated: false, framesPerSecond: [30]), Offer(fourcc: .yuyv, emulated: true, framesPerSecond: [30])]
        #expect(PixelFormatChoice.choose(from: offers, width: 1280, height: 720, framesPerSecond: nil)?.fourcc == .mjpeg)
    }

    @Test func theConfigurationOverridesWhenTheCameraOffersIt() {
        let c = PixelFormatChoice.choose(from: Self.webcam, width: 1920, height: 1080, framesPerSecond: nil, override: .yuyv)
        #expect(c?.fourcc == .yuyv && c?.reason == "pixel_format in the configuration")
        #expect(PixelFormatChoice.choose(from: Self.webcam, width: 1920, height: 1080, framesPerSecond: nil, override: .nv12) == nil)
    }

    @Test func withoutMJPEGTheOldPreferenceHolds() {
        let vivid = [Offer(fourcc: .nv12, emulated: false, framesPerSecond: [60]), Offer(fourcc: .yuyv, emulated: false, framesPerSecond: [60])]
        #expect(PixelFormatChoice.choose(from: vivid, width: 1280, height: 720, framesPerSecond: nil)?.fourcc == .yuyv)
        #expect(
            PixelFormatChoice.choose(
                from: [Offer(fourcc: FourCC("H264"), emulated: false, framesPerSecond: [30])], width: 1, height: 1, framesPerSecond: nil) == nil)
    }
}
