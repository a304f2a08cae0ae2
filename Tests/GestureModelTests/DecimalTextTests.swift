import Testing

@testable import GestureModel

@Suite struct DecimalTextTests {
    @Test func fixed() {
        #expect(DecimalText.fixed(8_333, scale: 1_000) == "8.333")
        #expect(DecimalText.fixed(250_000, scale: 1_000_000) == "0.25")
        #expect(DecimalText.fixed(-5, scale: 1_000) == "-0.005")
        #expect(DecimalText.fixed(60_000_000, scale: 1_000_000) == "60")
        #expect(DecimalText.fixed(.min, scale: 1_000_000) == "-9223372036854.775808")
    }

    @Test func decimal() {
        #expect(DecimalText.decimal(216, places: 3) == "216")
        #expect(DecimalText.decimal(67.5, places: 3) == "67.5")
        #expect(DecimalText.decimal(0.1254, places: 3) == "0.125")
        #expect(DecimalText.decimal(-0.0004, places: 3) == "0")
        #expect(DecimalText.decimal(12.499, places: 2) == "12.5")
        #expect(DecimalText.decimal(.infinity, places: 2) == "inf")
        #expect(DecimalText.decimal(1e300, places: 2) == "1e+300")
    }

    @Test("shortest: a number as people write it, the one format of messages and JSON output")
    func shortest() {
        #expect(DecimalText.shortest(100) == "100")
        #expect(DecimalText.shortest(-0.0) == "0")
        #expect(DecimalText.shortest(0.5) == "0.5")
        #expect(DecimalText.shortest(-1.25) == "-1.25")
        #expect(DecimalText.shortest(999_999_999_999_999) == "999999999999999")
        #expect(DecimalText.shortest(1e15) == "1000000000000000.0")
        #expect(DecimalText.shortest(1e16) == "1e+16")
        #expect(DecimalText.shortest(1e-7) == "1e-07")
        #expect(DecimalText.shortest(.infinity) == "inf")
        #expect(DecimalText.shortest(.nan) == "nan")
    }
}
