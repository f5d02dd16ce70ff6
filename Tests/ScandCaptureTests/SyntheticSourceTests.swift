import Testing
import ScandCore
@testable import ScandCapture

/// The synthetic source as `--source demo` plays it: a playlist in order, over and over, numbered and
/// stamped live, until its count.
@Suite struct SyntheticSourceTests {
    func page(_ fill: UInt8) -> Frame { Frame.yuyv(LumaImage(width: 8, height: 4, fill: fill)) }

    @Test func aPlaylistPlaysInOrderOverAndOverStampedAsHandedOut() throws {
        let playlist = SyntheticSource.Playlist(name: "demo", frames: [page(1), page(1), page(2)], framesPerSecond: 0)
        let source = SyntheticSource(playlist, count: 7)
        #expect(source.name == "demo" && !source.waitsForDevice)
        #expect(try source.open() == .packed(.yuyv, width: 8, height: 4))
        var got: [Frame] = []
        while got.count < 7, let frame = try source.nextFrame(timeoutMilliseconds: 100) { got.append(frame) }
        #expect(got.map { $0.bytes[0] } == [1, 1, 2, 1, 1, 2, 1])
        #expect(got.map(\.sequence) == Array(0..<7))
        #expect(zip(got, got.dropFirst()).allSatisfy { $0.timestampMicroseconds <= $1.timestampMicroseconds })
        #expect(throws: CaptureError.self) { try source.nextFrame(timeoutMilliseconds: 100) }
    }

    /// Stamped as a camera at that rate stamps, whenever the frames are taken (here at once, unpaced): a lockstep
    /// pipeline's tracker goes by the stamps, and a slow decode is no time the picture changed.
    @Test func framesStampedEveryIntervalKeepThatPaceWhenTheyAreTaken() throws {
        let source = SyntheticSource(frames: [page(1)], count: 3, framesPerSecond: 0, stampedEvery: 33_333)
        _ = try source.open()
        let first = try #require(try source.nextFrame(timeoutMilliseconds: 100))
        let second = try #require(try source.nextFrame(timeoutMilliseconds: 100))
        let third = try #require(try source.nextFrame(timeoutMilliseconds: 100))
        #expect(second.timestampMicroseconds - first.timestampMicroseconds == 33_333)
        #expect(third.timestampMicroseconds - second.timestampMicroseconds == 33_333)
    }

    @Test func playlistsAreEqualByTheirFramesNotOnlyTheirCount() {
        let a = SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 10)
        #expect(a == SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 10))
        #expect(a != SyntheticSource.Playlist(name: "demo", frames: [page(1), page(3)], framesPerSecond: 10))
        #expect(a != SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 15))
    }
}
