import GestureModel
import Testing

@testable import GestureSynth

/// The times a stroke is sampled at (rate, rounding, the last sample).
struct SampleTimesTests {
    @Test func quarterSecondAt120HertzEndsExactlyAtTheDuration() {
        let expected: [Int64] = [
            0, 8333, 16667, 25000, 33333, 41667, 50000, 58333, 66667, 75000, 83333, 91667, 100000, 108333, 116667,
            125000, 133333, 141667, 150000, 158333, 166667, 175000, 183333, 191667, 200000, 208333, 216667, 225000,
            233333, 241667, 250000,
        ]
        #expect(sampleTimes(duration: 250_000, rateHz: 120).map(\.rawValue) == expected)
    }

    @Test func durationBetweenSamplesAddsALastSampleAtTheDuration() {
        let expected: [Int64] = [0, 8333, 16667, 25000, 33333, 41667, 50000, 58333, 66667, 75000, 80000]
        #expect(sampleTimes(duration: 80_000, rateHz: 120).map(\.rawValue) == expected)
    }

    @Test func halvesRoundUp() {
        // 1 000 000 / 128 = 7812.5.
        #expect(sampleTimes(duration: 20_000, rateHz: 128).map(\.rawValue) == [0, 7813, 15625, 20000])
    }

    @Test func oneMicrosecondIsTwoSamples() {
        #expect(sampleTimes(duration: 1, rateHz: 1_000).map(\.rawValue) == [0, 1])
    }

    @Test func extremesOfTheAllowedRange() {
        #expect(sampleTimes(duration: 60_000_000, rateHz: 1).count == 61)
        let fast = sampleTimes(duration: 60_000_000, rateHz: 1_000)
        #expect(fast.count == 60_001)
        #expect(fast.last == 60_000_000)
    }
}

/// Numbers in messages and descriptions.
struct NumberFormattingTests {
    @Test func numbers() {
        #expect(formatNumber(500) == "500")
        #expect(formatNumber(67.5) == "67.5")
        #expect(formatNumber(-9) == "-9")
        #expect(formatNumber(0.0833333) == "0.083")
        #expect(formatNumber(-0.05) == "-0.05")
        #expect(formatNumber(.nan) == "nan")
        #expect(formatNumber(.infinity) == "inf")
    }

    @Test func durations() {
        #expect(formatSeconds(250_000) == "0.25")
        #expect(formatSeconds(60_000_000) == "60")
        #expect(formatSeconds(-1) == "-0.000001")
        #expect(formatSeconds(Microseconds(Int64.min)) == "-9223372036854.775808")
        #expect(formatMilliseconds(83_333) == "83.333")
        #expect(formatMilliseconds(80_000) == "80")
        #expect(formatMilliseconds(1_050) == "1.05")
    }
}
