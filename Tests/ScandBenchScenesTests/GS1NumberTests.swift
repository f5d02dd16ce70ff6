import ScandBenchScenes
import Testing

/// The numbers generated items carry: GS1's check digit, and a UPC-E as the UPC-A it stands for.
@Suite struct GS1NumberTests {
    @Test func checkDigitsAndUPCEExpansion() {
        #expect(GS1Number.withCheckDigit("400638133393") == "4006381333931")
        #expect(GS1Number.expandUPCE("01234565") == "012345000065")
    }
}
