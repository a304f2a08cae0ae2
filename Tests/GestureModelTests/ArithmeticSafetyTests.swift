import Testing

@testable import GestureModel

/// Hostile numbers from files or devices give clamped results, never a trap.
@Suite struct ArithmeticSafetyTests {
    @Test func microsecondsSaturate() {
        #expect(Microseconds(.max) + Microseconds(1) == Microseconds(.max))
        #expect(Microseconds(.min) - Microseconds(1) == Microseconds(.min))
        #expect(Microseconds(5) - Microseconds(7) == Microseconds(-2))
        #expect(Microseconds(seconds: .nan) == Microseconds(0))
        #expect(Microseconds(seconds: .infinity) == Microseconds(.max))
        #expect(Microseconds(seconds: 0.25) == Microseconds(250_000))
    }

    @Test func spanSaturates() {
        #expect(AxisRange(minimum: .min, maximum: .max).span == .max)
        #expect(AxisRange(minimum: 0, maximum: 100).span == 100)
    }

    @Test func conversionsClamp() {
        let geometry = DeviceGeometry.synthDefault
        #expect(geometry.units(xMM: .nan, yMM: 1).x == 0)
        #expect(geometry.units(xMM: .infinity, yMM: 1).x == .max)
        #expect(geometry.units(xMM: 10, yMM: 20) == (1000, 2000))
        let extreme = DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: .min, maximum: .max), y: AxisRange(minimum: 0, maximum: 1),
            widthMM: 1, heightMM: 1, slots: 1)
        #expect(extreme.millimetres(x: .max, y: 0).y == 0)
    }
}
