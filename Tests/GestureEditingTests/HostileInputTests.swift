import GestureEditing
import GestureModel
import Testing

/// Every operation on values no reader should let through must throw or
/// clip, never trap.
@Suite struct HostileInputTests {
    typealias F = Fixtures

    let hostile = F.gesture([
        Stroke(samples: [
            Sample(time: Microseconds(Int64.min), x: Int.min, y: Int.max),
            Sample(time: 0, x: Int.max, y: Int.min),
            Sample(time: Microseconds(Int64.max), x: Int.max, y: Int.max),
        ]),
        Stroke(samples: [Sample(time: Microseconds(Int64.max), x: 0, y: 0)]),
    ])

    @Test func nothingTraps() throws {
        _ = try? GestureEditor.merge([hostile, hostile], alignment: .stagger([Microseconds(Int64.max)]))
        _ = try? GestureEditor.merge([hostile], alignment: .end)
        _ = try? GestureEditor.fingers(hostile, count: 10, spacingMM: 1e300, delay: Microseconds(Int64.max), strokeIndex: 0)
        _ = try? GestureEditor.speed(hostile, factor: 1e-300)
        _ = try? GestureEditor.speed(hostile, factor: 1e300)
        _ = try? GestureEditor.scale(hostile, factor: 1e300)
        _ = try? GestureEditor.translate(hostile, dxMM: -1e308, dyMM: 1e308)
        _ = try? GestureEditor.rotate(hostile, degrees: 1e300)
        _ = try? GestureEditor.fit(hostile, aspectRatio: AspectRatio(width: 1e-300, height: 1e300))
        _ = try? GestureEditor.fit(hostile, to: F.unequal)
        _ = try? GestureEditor.trim(hostile, maxStill: Microseconds(Int64.max))
        let trimmed = try GestureEditor.trim(hostile)
        #expect(trimmed.gesture.strokes.allSatisfy { stroke in
            zip(stroke.samples, stroke.samples.dropFirst()).allSatisfy { $0.time <= $1.time }
        })
        let clipped = try GestureEditor.translate(hostile, dxMM: 0, dyMM: 0)
        #expect(F.points(clipped.gesture)[0].map { [$0.x, $0.y] } == [[0, 1_000], [1_000, 0], [1_000, 1_000]])
        #expect(clipped.warnings == ["3 samples fell outside the surface and were clipped to its edge"])
    }
}
