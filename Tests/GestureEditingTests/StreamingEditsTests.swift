import GestureModel
import Testing

@testable import GestureEditing

/// Issue 39: fit, trim and fingers transform a long gesture's samples as
/// they are read, never copying them, with the same result as on arrays.
@Suite struct StreamingEditsTests {
    /// An array's samples behind a ``SampleSource``, as a mapped file's are.
    final class Held: SampleSource {
        let samples: [Sample]
        init(_ samples: [Sample]) { self.samples = samples }
        var count: Int { samples.count }
        func sample(at index: Int) -> Sample { samples[index] }
    }

    /// `gesture` with every stroke's samples behind a source.
    private func sourced(_ gesture: Gesture) -> Gesture {
        var sourced = gesture
        for index in sourced.strokes.indices {
            sourced.strokes[index].samples = Samples(source: Held(gesture.strokes[index].samples.arrayValue))
        }
        return sourced
    }

    /// A finger still for a second, moving with pauses, then still again;
    /// a second one moving throughout, partly off a smaller surface; a long press.
    private var gesture: Gesture {
        var still: [(Int64, Int, Int)] = []
        for index in 0..<450 {
            let time = Int64(index) * 10
            if index < 100 {
                still.append((time, 300, 300))
            } else if index < 300 {
                let paused = index / 20 % 2 == 0
                still.append((time, paused ? 300 : 300 + index, 300 + index / 2))
            } else {
                still.append((time, 400, 450))
            }
        }
        var moving: [(Int64, Int, Int)] = []
        for index in 0..<400 { moving.append((Int64(index) * 10 + 5, 50 + 2 * index, 990 - index)) }
        var press: [(Int64, Int, Int)] = []
        for index in 0..<50 { press.append((3_000 + Int64(index) * 20, 700, 700)) }
        var gesture = Fixtures.gesture([Fixtures.stroke(still), Fixtures.stroke(moving), Fixtures.stroke(press)])
        gesture.strokes[0].samples[150].pressure = 20
        return gesture
    }

    /// Checks that an edit gives the same on sources as on arrays, and that
    /// every stroke of its result on sources is still read from one.
    private func same(_ edit: (Gesture) throws -> EditResult, _ what: Comment) throws {
        let fromArrays = try edit(gesture)
        let fromSources = try edit(sourced(gesture))
        #expect(fromSources.gesture == fromArrays.gesture, what)
        #expect(fromSources.warnings == fromArrays.warnings, what)
        #expect(fromSources.gesture.strokes.allSatisfy { $0.samples.source != nil }, "\(what): copied")
        // Read at random as in a pass.
        for stroke in fromSources.gesture.strokes {
            let samples = stroke.samples
            #expect((0..<samples.count).reversed().map { samples[$0] } == Array(samples).reversed(), what)
        }
    }

    @Test func fitToARatio() throws {
        for ratio in ["9:16", "16:9", "1:1", "4:3"] {
            try same({ try GestureEditor.fit($0, aspectRatio: AspectRatio(ratio)!) }, "fit \(ratio)")
        }
    }

    @Test func fitToADevice() throws {
        try same({ try GestureEditor.fit($0, to: Fixtures.unequal) }, "fit to unequal")
        var small = Fixtures.simple
        small.x.maximum = 300
        try same({ try GestureEditor.fit($0, to: small) }, "fit to a smaller one")
    }

    @Test func trimDropsWhatBecomesOne() throws {
        for maxStill in [0, 50, 200, 5_000] {
            try same({ try GestureEditor.trim($0, maxStill: Fixtures.ms(Int64(maxStill))) }, "trim \(maxStill) ms")
        }
        let trimmed = try GestureEditor.trim(sourced(gesture), maxStill: .zero).gesture
        #expect(trimmed.strokes[0].samples.count < gesture.strokes[0].samples.count, "nothing dropped: the test tests less")
    }

    @Test func fingers() throws {
        for (count, layout) in [(2, FingerLayout.row), (5, .arc), (10, .row)] {
            try same(
                { try GestureEditor.fingers($0, count: count, spacingMM: 15, layout: layout, delay: Fixtures.ms(30), strokeIndex: 1) },
                "\(count) fingers")
        }
        #expect(throws: EditError.self) {
            try GestureEditor.fingers(sourced(gesture), count: 4, spacingMM: 40, strokeIndex: 1, strict: true)
        }
    }
}
