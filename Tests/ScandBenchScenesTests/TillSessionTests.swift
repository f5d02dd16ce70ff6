import Foundation
import ScandCore
import ScandDecoding
import ScandTestSupport
import Testing

@testable import ScandBench
@testable import ScandBenchScenes

/// The till session generator: the same frames for the same seed, the whole retail mix in 100 items, and items
/// a still decoder reads from their best frame (a scene that can be read, not noise).
@Suite struct TillSessionTests {
    @Test func theSameSeedGivesTheSameFrames() throws {
        let a = TillSession(items: 3, seed: 7), b = TillSession(items: 3, seed: 7)
        #expect(a.items == b.items && a.frameCount == b.frameCount)
        let dir = ScandBinary.temporaryDirectory()
        var hashes: [[Int]] = [[], []]
        for (k, session) in [a, b].enumerated() {
            try session.record(to: dir + "/\(k).rec") { _, grey in hashes[k].append(grey.hashValue) }
        }
        #expect(hashes[0].count == a.frameCount && hashes[0] == hashes[1])
        let bytes = try [0, 1].map { try #require(FileManager.default.contents(atPath: dir + "/\($0).rec")) }
        #expect(bytes[0] == bytes[1], "the recordings are the same byte for byte")
        // Another seed, other items and frames.
        let c = TillSession(items: 3, seed: 8)
        #expect(c.items != a.items)
        let f = a.appearances[0].bestFrame
        #expect(try a.luma(frame: f) != (try c.luma(frame: f)))
    }

    @Test func aHundredItemsHoldTheRetailMix() {
        let session = TillSession(items: 100, seed: 30)
        let items = session.items
        #expect(items.count == 100)
        for kind in Set(TillMix.deck) {
            #expect(items.filter { $0.kind == kind }.count >= 5, "\(kind)")
        }
        #expect(Set(items.filter(\.format.isLinear).map(\.moduleSize)) == [2, 3, 4])
        #expect(items.allSatisfy { abs($0.degrees) <= 40 })
        #expect(items.contains { $0.degrees < -30 } && items.contains { $0.degrees > 30 })
        let swiped = items.filter(\.swiped)
        #expect(swiped.count >= 5 && swiped.allSatisfy { (10...15).contains($0.frames) })
        #expect(items.filter { !$0.swiped }.allSatisfy { (30...90).contains($0.frames) })
        for circumstance in [\TillItem.onCan, \.glare, \.defocused, \.shaken] {
            #expect(items.filter { $0[keyPath: circumstance] }.count >= 5)
        }
        #expect(items.contains { $0.addOn?.count == 2 } && items.contains { $0.addOn?.count == 5 })
        // Every item has a window of its own, one after another, with empty counter between.
        for (a, b) in zip(session.appearances, session.appearances.dropFirst()) {
            #expect(a.end < b.start && a.windowEnd == b.start)
        }
    }

    /// The hard mix: mostly EAN/UPC, most with 2 px modules and turned 15–40°, books and periodicals with their
    /// add-ons; the retail mix's items are unchanged by it (each is hardened from its own seed).
    @Test func theHardMixIsMostlySmallTurnedEANs() {
        let hard = TillSession(items: 200, seed: 5, mix: .hard).items
        let ean = hard.filter { $0.format.mainNumberLength != nil }
        #expect(ean.count >= 120)
        #expect(ean.filter { $0.moduleSize == 2 }.count >= ean.count / 2)
        #expect(ean.filter { abs($0.degrees) >= 15 }.count >= ean.count / 2)
        #expect(hard.contains { $0.expected.hasPrefix("977") && $0.addOn?.count == 2 })
        #expect(hard.contains { ($0.expected.hasPrefix("978") || $0.expected.hasPrefix("979")) && $0.addOn?.count == 5 })
        #expect(hard.contains(where: \.lowContrast) && !hard.filter { !$0.format.isLinear }.contains(where: \.lowContrast))
        #expect(TillSession(items: 20, seed: 30).items == TillSession(items: 20, seed: 30, mix: .retail).items)
    }

    /// Clutter laid over the counter changes the counter, the same way for the same seed.
    @Test func clutterIsLaidOverTheCounterBySeed() {
        var stripes = LumaImage(width: 64, height: 48, fill: 255)
        for y in 0..<48 { for x in 0..<64 where (x / 3) % 2 == 0 { stripes[x, y] = 20 } }
        let plain = TillSession(items: 1, seed: 3), a = TillSession(items: 1, seed: 3, clutter: [stripes])
        let b = TillSession(items: 1, seed: 3, clutter: [stripes])
        #expect(a.counters == b.counters && a.counters != plain.counters)
    }

    /// A held code, quiet zones included, is in view in every frame of its hold where it fits in the frame (a
    /// long GS1-128 held half out of view was a code no reader could read), its centre still in the middle of
    /// the frame where the hold puts it.
    @Test func aHeldCodeIsInViewThroughoutItsHold() throws {
        let session = TillSession(items: 100, seed: 30)
        var cut: [String] = []
        for a in session.appearances where !session.items[a.item].swiped {
            let item = session.items[a.item]
            let symbol = try TillLabel.symbol(item)
            let (w, h) = (Double(symbol.width), Double(symbol.height))
            for pose in a.poses[4..<(a.poses.count - 4)] {
                let r = pose.degrees * Double.pi / 180
                let corners = [(-w, -h), (w, -h), (w, h), (-w, h)].map { (dx, dy) in
                    (pose.x + (dx * cos(r) - dy * sin(r)) / 2, pose.y + (dx * sin(r) + dy * cos(r)) / 2)
                }
                let inside = corners.allSatisfy { (0...Double(TillSession.width)).contains($0.0) && (0...Double(TillSession.height)).contains($0.1) }
                let fits =
                    corners.map(\.0).max()! - corners.map(\.0).min()! < Double(TillSession.width) - 40
                    && corners.map(\.1).max()! - corners.map(\.1).min()! < Double(TillSession.height) - 40
                if fits && !inside {
                    cut.append("#\(a.item) \(item.kind) \(item.moduleSize) px at \(Int(pose.x)),\(Int(pose.y))")
                    break
                }
            }
        }
        #expect(cut.isEmpty, "\(cut)")
        // Where it is centred: every held item still in the hold's region of the frame.
        for a in session.appearances where !session.items[a.item].swiped {
            let held = a.poses[a.poses.count / 2]
            #expect((300...980).contains(held.x) && (150...570).contains(held.y), "#\(a.item) at \(held.x),\(held.y)")
        }
    }

    /// Payloads are valid for their format: the writer takes each (with its check digit) and scand's still decoder
    /// reads the clean label back as the item's expected text.
    @Test func everyKindIsWrittenAndReadBackFromACleanLabel() throws {
        let still = StillImageDecoder(decoder: ZXingDecoder(worker: DecoderWorker(lanes: 1)))
        let items = TillMix.deck.indices.map { i in TillMix.items(count: 20, seed: 30)[i] }
        for item in items {
            let symbol = try TillLabel.symbol(item)
            var page = LumaImage(width: symbol.width + 40, height: symbol.height + 40, fill: 255)
            page.paste(symbol, x: 20, y: 20)
            let read = still.decode(page).detections.map(\.text)
            #expect(read == [item.expected], "\(item.kind) \(item.written)")
        }
        #expect(TillMix.upcECheckDigit("0123456") == "5", "UPC-E 0123456 is UPC-A 01234500006, check digit 5")
    }

    /// A sample of the session's items, each read by `scand scan`'s still decoder from its best frame.
    @Test func sampledItemsAreReadableFromTheirBestFrame() throws {
        let session = TillSession(items: 100, seed: 30)
        let still = StillImageDecoder(decoder: ZXingDecoder(worker: DecoderWorker(lanes: 1)))
        var unread: [String] = []
        for a in session.appearances where a.item % 10 == 3 {
            let item = session.items[a.item]
            let truth = TillScore.Truth(expected: item.expected, mainNumber: item.mainNumber, addOn: item.addOn, window: a.start..<a.windowEnd)
            let read = still.decode(try session.luma(frame: a.bestFrame)).detections.map(\.text)
            if !read.contains(where: { TillScore.reading($0, of: truth) == .right }) {
                unread.append("\(item.kind) (\(item.circumstances)): \(read)")
            }
        }
        #expect(unread.isEmpty, "\(unread)")
    }
}
