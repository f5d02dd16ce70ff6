import Foundation
import Testing
import ScandTestSupport

extension DaemonReliabilityTests {
    @Test func encodeEscapesWhatItEchoes() throws {
        let r = try ScandBinary.run(["encode", "--format", "\u{1b}]0;pwned\u{07}QR", "--text", "x", dir + "/x.png"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("\\u001b]0;pwned\\u0007QR"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
    }
}
