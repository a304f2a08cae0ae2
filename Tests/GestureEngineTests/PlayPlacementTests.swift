import GestureEngine
import GestureModel
import GesturePlayback
import InputSystem
import Testing

/// The engine applies a request's placement before it builds frames.
@Suite("Play requests with a placement")
struct PlayRequestPlacementTests {
    /// One contact at 10, 10 mm on a 100 × 50 mm surface (10 units/mm).
    static let tap = Gesture(
        name: "tap",
        device: DeviceGeometry(
            kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 1_000, resolution: 10),
            y: AxisRange(minimum: 0, maximum: 500, resolution: 10), slots: 1),
        strokes: [Stroke(samples: [Sample(time: .zero, x: 100, y: 100)])])

    static func firstPosition(_ frames: [InputFrame]) -> (x: Int32?, y: Int32?) {
        let events = frames.first?.events ?? []
        return (
            events.first { $0.code == .multitouchPositionX }?.value, events.first { $0.code == .multitouchPositionY }?.value
        )
    }

    @Test("resolvingPlacement places the gesture once and leaves no placement")
    func resolving() throws {
        let request = PlayRequest(gesture: Self.tap, placement: PlayPlacement(at: .init(x: .percent(80), y: .millimetres(45))))
        let resolved = try request.resolvingPlacement()
        #expect(resolved.request.placement == nil)
        #expect(resolved.request.gesture.strokes[0].samples[0] == Sample(time: .zero, x: 800, y: 450))
        #expect(resolved.warnings.isEmpty)
        // Without a placement the request is returned as it is.
        let plain = try PlayRequest(gesture: Self.tap).resolvingPlacement()
        #expect(plain.request.gesture == Self.tap)
    }

    @Test("frames(for:) plays the placed gesture; a bad placement throws before any device")
    func frames() throws {
        let engine = Engine(uinputPath: "/nonexistent/uinput")
        let request = PlayRequest(
            gesture: Self.tap, target: .kind(.touchscreen), placement: PlayPlacement(at: .init(x: .percent(50), y: .percent(100))))
        let (profile, frames) = try engine.frames(for: request)
        let x = try #require(profile.description.absoluteAxes[.multitouchPositionX])
        let y = try #require(profile.description.absoluteAxes[.multitouchPositionY])
        let position = Self.firstPosition(frames)
        #expect(position.x == x.minimum + (x.maximum - x.minimum) / 2)
        #expect(position.y == y.maximum)
        let bad = PlayRequest(gesture: Self.tap, placement: PlayPlacement(scale: 0))
        #expect(throws: PlayPlacement.Failure(.scale, "the scale must be a finite number above 0, not 0")) {
            try engine.frames(for: bad)
        }
        #expect(throws: PlayPlacement.Failure.self) { try engine.startPlay(bad) }
    }
}
