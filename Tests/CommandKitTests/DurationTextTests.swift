import Testing
import CommandKit

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("0.25", Int64(250_000)), ("250ms", 250_000), ("2s", 2_000_000), ("1.5s", 1_500_000), ("100us", 100),
        ("100µs", 100), ("100μs", 100), ("0", 0), (".5", 500_000), ("1.", 1_000_000), ("1.5ms", 1_500),
        ("-100ms", -100_000), ("+3s", 3_000_000), ("0.0000005", 1), ("0.0000004", 0), ("1.5us", 2),
        ("9223372036854775807us", Int64.max),
    ])
    func parsesDurations(text: String, microseconds: Int64) {
        #expect(DurationText.parse(text) == .microseconds(microseconds))
    }

    @Test(arguments: ["", "s", "ms", "-", ".", "1.2.3", "fast", "1m", "1 s", "1e3", "0x10", "1ss", "--1", "1h"])
    func rejectsNonDurations(text: String) {
        #expect(DurationText.parse(text) == .invalid)
    }

    @Test(arguments: ["9223372036854775808us", "9223372036855s", "99999999999999999999999"])
    func reportsDurationsTooLarge(text: String) {
        #expect(DurationText.parse(text) == .tooLarge)
    }

    @Test(arguments: [
        (Int64(2_000_000), "2s"), (1_500_000, "1.5s"), (1_000_001, "1.000001s"), (250_000, "250ms"), (1_500, "1.5ms"),
        (100, "100us"), (0, "0s"), (-250_000, "-250ms"), (Int64.min, "-9223372036854.775808s"),
    ])
    func formatsDurations(microseconds: Int64, text: String) {
        #expect(DurationText.format(microseconds: microseconds) == text)
    }
}
