import Foundation
import ScandCore
import ScandDecoding
import Testing

@testable import ScandBench
@testable import ScandBenchScenes

/// Codes on packaging that real photos showed scand not reading live (issue 45, item 5): bars a crumpled bag
/// stretches unevenly, and quiet zones a photo's edge cuts off. Generated (`PackagingPhotos`), held still
/// before the live pipeline.
@Suite struct PackagingPhotosTests {
    @Test(arguments: PackagingPhotos.Kind.allCases)
    func aPackagingCodeHeldStillIsScannedLiveAndNothingElse(_ kind: PackagingPhotos.Kind) async throws {
        for photo in try PackagingPhotos.make(kind, count: 3, seed: 1) {
            let decoder = ZXingDecoder(worker: DecoderWorker(lanes: 1))
            defer { decoder.worker?.retire() }
            let scans = await PhotoBenchmark.held(photo.image, decoder: decoder).map(\.text)
            #expect(scans == [photo.answer], "\(kind.rawValue): \(photo.format) \(photo.answer) held still scanned \(scans)")
        }
    }

    @Test func photosAreTheSameForASeedAndOtherForAnother() throws {
        let a = try PackagingPhotos.make(.crumpled, count: 2, seed: 7), b = try PackagingPhotos.make(.crumpled, count: 2, seed: 7)
        let c = try PackagingPhotos.make(.crumpled, count: 2, seed: 8)
        #expect(a.map(\.image.pixels) == b.map(\.image.pixels) && a.map(\.answer) == b.map(\.answer))
        #expect(a.map(\.answer) != c.map(\.answer))
    }

    /// A cut photo's code reaches the image's edge: at most 3 modules of its quiet zone are left at one end.
    @Test func aCutPhotoLeavesAtMostThreeModulesBeforeTheEdge() throws {
        for photo in try PackagingPhotos.make(.cut, count: 8, seed: 3) {
            let image = photo.image, row = image.height / 2
            let dark = (0..<image.width).filter { image[$0, row] < 128 }
            let first = try #require(dark.first), last = try #require(dark.last)
            #expect(first <= 3 * 4 + 3 || image.width - 1 - last <= 3 * 4 + 3, "\(photo.answer): bars from \(first) to \(last) of \(image.width)")
        }
    }
}
