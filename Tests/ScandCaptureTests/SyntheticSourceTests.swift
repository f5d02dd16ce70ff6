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

    @Test func playlistsAreEqualByTheirFramesNotOnlyTheirCount() {
        let a = SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 10)
        #expect(a == SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 10))
        #expect(a != SyntheticSource.Playlist(name: "demo", frames: [page(1), page(3)], framesPerSecond: 10))
        #expect(a != SyntheticSource.Playlist(name: "demo", frames: [page(1), page(2)], framesPerSecond: 15))
    }
}
