import ArgumentParser
import ScandCore
import ScandDecoding
import Testing

@testable import ScandCommands

/// Codes that come and go: `--code` specs with their times, which codes each frame shows, the pictures drawn
/// once, and the demo source's loop read back by the real decoder.
@Suite struct CodeScheduleTests {
    func schedule(_ specs: [String], loopSeconds: Double? = nil) throws -> CodeSchedule {
        try CodeSchedule(codes: specs.map(CodeSchedule.code), loopSeconds: loopSeconds)
    }

    func refusal(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? ValidationError)?.message ?? "\(error)" }
    }

    @Test func aCodeSpecTakesAnOptionalTimeInEachLoop() throws {
        let always = try CodeSchedule.code("QRCode:a:b@c@0.25,0.75")
        #expect(always == .init(format: .qrCode, text: "a:b@c", x: 0.25, y: 0.75, shown: nil), "the text is between the first ':' and the last '@'")
        let timed = try CodeSchedule.code("EAN13:4006381333931@0.5,0.5,2.5-4.5")
        #expect(timed.format == .ean13 && timed.text == "4006381333931" && timed.shown == 2.5..<4.5)
    }

    @Test(arguments: [
        ("QRCode:a@0.5", "position"), ("QRCode:a@0.5,1.5", "position"), ("QRCode:a@nan,0.5", "position"),
        ("QRCode:a@0.5,0.5,", "time"), ("QRCode:a@0.5,0.5,2", "time"), ("QRCode:a@0.5,0.5,3-2", "time"),
        ("QRCode:a@0.5,0.5,-1-2", "time"), ("QRCode:a@0.5,0.5,0-inf", "time"), ("QRCode:a@0.5,0.5,0-86401", "time"),
        ("QRCode:a@0.5,0.5,0-1,2", "position"), ("Nope:a@0.5,0.5", "FORMAT:TEXT@X,Y"), ("QRCode-a@0.5,0.5", "FORMAT:TEXT@X,Y")
    ])
    func aWrongCodeSpecIsRefusedInOneLine(spec: String, naming: String) {
        let message = refusal { try CodeSchedule.code(spec) }
        #expect(message?.contains(naming) == true && message?.contains(spec) == true && message?.contains("\n") == false, "\(message ?? "accepted")")
    }

    @Test func aLoopLastsUntilTheLastCodeLeavesOrAsLongAsSaid() throws {
        #expect(try schedule(["QRCode:a@0.5,0.5"]).loopSeconds == nil, "nothing comes or goes")
        #expect(try schedule(["QRCode:a@0.5,0.5,0-1", "QRCode:b@0.5,0.5,2-3"]).loopSeconds == 3)
        #expect(try schedule(["QRCode:a@0.5,0.5,0-1"], loopSeconds: 5).framesPerLoop(10) == 50)
        #expect(refusal { try schedule(["QRCode:a@0.5,0.5,0-6"], loopSeconds: 5) }?.contains("after the loop") == true)
        #expect(refusal { try schedule([], loopSeconds: 0) }?.contains("more than 0") == true)
    }

    @Test func eachFrameShowsTheCodesInViewAtItsTimeInTheLoop() throws {
        let s = try schedule(["QRCode:a@0.5,0.5,0-1", "QRCode:b@0.5,0.5,0.5-2", "QRCode:c@0.5,0.5"], loopSeconds: 3)
        #expect(s.inView(frame: 0, framesPerSecond: 10) == [0, 2])
        #expect(s.inView(frame: 5, framesPerSecond: 10) == [0, 1, 2])
        #expect(s.inView(frame: 10, framesPerSecond: 10) == [1, 2], "until is the first frame without it")
        #expect(s.inView(frame: 25, framesPerSecond: 10) == [2])
        #expect(s.inView(frame: 35, framesPerSecond: 10) == [0, 1, 2], "the second loop as the first")
    }

    @Test func eachSetOfCodesInViewIsDrawnOnce() throws {
        let s = try schedule(["QRCode:a@0.3,0.5,0-1", "QRCode:b@0.7,0.5,2-3"], loopSeconds: 4)
        let (pages, order) = try s.pictures(width: 320, height: 240, framesPerSecond: 10, moduleSize: 3)
        #expect(order.count == 40)
        #expect(pages.count == 3, "a, nothing, b")
        #expect(order[0..<10].allSatisfy { $0 == order[0] } && order[10..<20].allSatisfy { $0 == order[10] })
        #expect(order[10] == order[30] && order[0] != order[10] && order[20] != order[10] && order[0] != order[20])
        #expect(pages[order[10]].pixels.allSatisfy { $0 == 235 }, "an empty page between the codes")
    }

    @Test func aCodeTooWideForItsModuleSizeIsDrawnSmallerAndOneTooWideAtOnePixelIsRefused() throws {
        let code = try CodeSchedule.code("Code128:SCAND-DEMO-128@0.5,0.5")
        let unit = try SymbolWriter.render(.code128, text: code.text, moduleSize: 1)
        let fitted = try CodeSchedule.symbol(code, moduleSize: 4, width: unit.width * 3 + 2, height: 480)
        #expect(fitted.width == unit.width * 3, "the largest module size that fits")
        #expect(try CodeSchedule.symbol(code, moduleSize: 2, width: 4000, height: 480).width == unit.width * 2, "as asked when it fits")
        #expect(refusal { try CodeSchedule.symbol(code, moduleSize: 4, width: unit.width - 1, height: 480) }?.contains("larger than") == true)
    }

    /// The demo's loop: 10 s at 10 frames a second, four pictures of one code and the empty page, each code
    /// read back by the real decoder from its picture alone.
    @Test func theDemoShowsEachOfItsFourCodesAloneForTwoSeconds() throws {
        let playlist = try DemoSource.playlist()
        #expect(playlist.frames.count == 100 && playlist.framesPerSecond == 10 && playlist.name == "demo")
        #expect(playlist.frames.allSatisfy { $0.format == .packed(.yuyv, width: 640, height: 480) })
        var decoder = FrameDecoder()
        // No expensive pass: which of them a frame gets follows how long this machine, busy with other suites,
        // takes a frame, and a code one of them reads is re-read from a tracked crop only while no regular pass
        // reads it. The demo's codes are read by the regular passes alone.
        decoder.extraPassBudgetMilliseconds = 0
        var seen: [[String]] = []
        for frame in playlist.frames {
            seen.append(try decoder.decode(frame).detections.map(\.text))
        }
        // Each code is read from its first frame to its last: the localizers find each (the Code 128, upright and
        // most of the page wide, too), so none waits for the whole-frame fallback's turn (`FrameDecoder.wholeFrameEvery`).
        for (i, text) in DemoSource.codes.map(\.text).enumerated() {
            let shown = seen.indices.filter { seen[$0] == [text] }
            #expect(shown == Array((25 * i)..<(25 * i + 20)), "\(text): frames \(shown)")
        }
        #expect(seen.allSatisfy { $0.count <= 1 }, "one code at a time, nothing else read")
        let gaps: [Int] = (0..<4).flatMap { (loop: Int) -> [Int] in Array((25 * loop + 20)..<(25 * loop + 25)) }
        #expect(gaps.allSatisfy { seen[$0].isEmpty }, "half a second of empty page after each code")
        #expect(Set(DemoSource.codes.map(\.format)) == [.qrCode, .ean13, .code128, .dataMatrix])
    }
}
