import GestureModel
@testable import GestureRender
import Testing

/// Issue 39: a trace's step positions are worked out in its one pass in
/// order over the samples (a long stroke's are read from its file); they
/// must be exactly what the search by index gives for each step.
@Suite("StrokeTrace step positions")
struct StepPositionsTests {
    typealias F = Fixtures

    static let strokes: [(String, Stroke)] = {
        var generator = SystemRandomNumberGenerator()
        // Times that repeat and jump, positions anywhere on the surface.
        var time: Int64 = 5
        var ragged: [F.Point] = []
        for _ in 0..<500 {
            time += [0, 0, 1, 7, 16, 250].randomElement(using: &generator)!
            ragged.append((time, Double.random(in: 0...216, using: &generator), Double.random(in: 0...135, using: &generator)))
        }
        return [
            ("a line", F.line(from: (10, 10), to: (200, 120), startMilliseconds: 30, durationMilliseconds: 1_234)),
            ("ragged times", F.stroke(ragged)),
            ("two samples", F.stroke([(0, 5, 5), (1, 100, 100)])),
            ("one sample", F.stroke([(7, 5, 5)])),
            ("no time", F.stroke([(3, 5, 5), (3, 50, 5), (3, 50, 60), (3, 9, 9)])),
            ("time only at the end", F.stroke([(0, 5, 5), (0, 6, 6), (0, 7, 7), (900, 8, 8)])),
        ]
    }()

    @Test("each step's position is position(atFraction:) of it", arguments: strokes.map(\.0))
    func stepsMatchTheSearch(name: String) throws {
        let stroke = try #require(Self.strokes.first { $0.0 == name }).1
        let mapping = SurfaceMapping(F.gesture([stroke]).device)
        let trace = try #require(StrokeTrace(index: 0, stroke: stroke, mapping: mapping, withSteps: true))
        #expect(trace.stepPositions.count == StrokeTrace.steps + 1)
        for step in 0...StrokeTrace.steps {
            let expected = trace.position(atFraction: Double(step) / Double(StrokeTrace.steps))
            #expect(trace.stepPositions[step] == expected, "\(name): step \(step)")
        }
        #expect(try #require(StrokeTrace(index: 0, stroke: stroke, mapping: mapping)).stepPositions.isEmpty)
    }
}
