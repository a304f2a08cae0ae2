import DaemonTestSupport
import Foundation
import GestureBindings
import GestureDaemon
import GestureProtocol
import GestureEngine
import GestureFormat
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem
import Testing
import TestSupport

/// `play`'s placement through the daemon (`at`, `scale`, `rotate`), over a
/// real socket with test-double devices: the frames on the sink put the
/// contact where it was asked, computed here from the profiles' axis ranges.
@Suite("The daemon's play placement")
struct DaemonPlacementTests {
    /// A 100 × 50 mm surface at 10 units/mm (axes 0…1000 × 0…500): not the
    /// ready devices' own, so the test also covers the mapping onto them.
    static let surface = DeviceGeometry(
        kind: .touchscreen, x: AxisRange(minimum: 0, maximum: 1_000, resolution: 10),
        y: AxisRange(minimum: 0, maximum: 500, resolution: 10), slots: 10)

    /// One finger at `points` (units of ``surface``), 10 ms apart.
    static func gesture(_ points: [(Int, Int)]) -> Gesture {
        Gesture(
            name: "placed", device: surface,
            strokes: [Stroke(samples: points.enumerated().map { Sample(time: Microseconds(Int64($0.offset) * 10_000), x: $0.element.0, y: $0.element.1) })])
    }

    /// A tap at 10, 10 mm: far from where the tests put it.
    static let tap = gesture([(100, 100)])

    /// The device value at `fraction` of `kind`'s ready profile's axis
    /// `code`, from the profile's own range.
    static func expected(_ kind: DeviceKind, _ code: EventCode, _ fraction: Double) throws -> Int32 {
        let profile: VirtualDeviceProfile = kind == .touchpad ? .touchpad() : .touchscreen()
        let axis = try #require(profile.description.absoluteAxes[code])
        return axis.minimum + Int32((fraction * Double(axis.maximum - axis.minimum)).rounded())
    }

    /// The contact's positions in the order written (one finger), each
    /// frame that moves it giving one (x, y). A value equal to the device's
    /// current one is not written (the kernel would drop it), so values
    /// start at a fresh device's 0 and carry over.
    static func positions(_ frames: [InputFrame]) -> [Position] {
        var x: Int32 = 0
        var y: Int32 = 0
        var result: [Position] = []
        for frame in frames {
            var moved = false
            for event in frame.events where event.type == .absolute {
                if event.code == .multitouchPositionX { x = event.value; moved = true }
                if event.code == .multitouchPositionY { y = event.value; moved = true }
            }
            if moved { result.append(Position(x: x, y: y)) }
        }
        return result
    }

    struct Position: Equatable, CustomStringConvertible {
        var x: Int32
        var y: Int32
        var description: String { "(\(x), \(y))" }
    }

    @Test("at in percents puts the tap at that fraction of the ready touchscreen and touchpad")
    func percents() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        _ = try client.call("play", [("gesture", try inline(Self.tap)), ("at", .array([.string("80%"), .string("90%")]))])
        let touchscreen = Self.positions(daemon.sink(.touchscreen)?.frames ?? [])
        #expect(
            touchscreen == [
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.8),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.9))
            ])
        #expect(touchscreen == [Position(x: 17_280, y: 12_150)])  // 0…21600 × 0…13500
        _ = try client.call(
            "play", [("gesture", try inline(Self.tap)), ("as", .string("touchpad")), ("at", .array([.string("25%"), .string("0%")]))])
        let touchpad = Self.positions(daemon.sink(.touchpad)?.frames ?? [])
        #expect(
            touchpad == [
                Position(
                    x: try Self.expected(.touchpad, .multitouchPositionX, 0.25),
                    y: try Self.expected(.touchpad, .multitouchPositionY, 0))
            ])
        await daemon.stop()
    }

    @Test("at in mm is measured on the gesture's own surface")
    func millimetres() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        // 25 mm of 100, 10 mm of 50: a quarter across, a fifth down.
        _ = try client.call("play", [("gesture", try inline(Self.tap)), ("at", .array([.integer(25), .decimal(10)]))])
        #expect(
            Self.positions(daemon.sink(.touchscreen)?.frames ?? []) == [
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.25),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.2))
            ])
        await daemon.stop()
    }

    @Test("scale and rotate turn the stroke about its centre, which lands at at")
    func scaleAndRotate() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        // A 20 mm swipe to the right centred at 20, 25 mm; half as long
        // (10 mm), turned clockwise by 90° (now downwards), centred at 50%, 50%
        // = 50, 25 mm: from 50, 20 mm to 50, 30 mm.
        let swipe = Self.gesture([(100, 250), (300, 250)])
        _ = try client.call(
            "play",
            [
                ("gesture", try inline(swipe)), ("at", .array([.string("50%"), .string("50%")])), ("scale", .decimal(0.5)),
                ("rotate", .integer(90)),
            ])
        #expect(
            Self.positions(daemon.sink(.touchscreen)?.frames ?? []) == [
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.5),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.4)),
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.5),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.6)),
            ])
        await daemon.stop()
    }

    @Test("A library gesture is placed too; without placement it plays where it is")
    func libraryAndNone() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        _ = try client.call("save", [("name", .string("corner-tap")), ("gesture", try inline(Self.tap))])
        _ = try client.call("play", [("name", .string("corner-tap"))])
        _ = try client.call("play", [("name", .string("corner-tap")), ("at", .array([.string("100%"), .string("100%")]))])
        let x = EventCode.multitouchPositionX
        let y = EventCode.multitouchPositionY
        #expect(
            Self.positions(daemon.sink(.touchscreen)?.frames ?? []) == [
                Position(x: try Self.expected(.touchscreen, x, 0.1), y: try Self.expected(.touchscreen, y, 0.2)),
                Position(x: try Self.expected(.touchscreen, x, 1), y: try Self.expected(.touchscreen, y, 1)),
            ])
        await daemon.stop()
    }

    @Test("Bad placements are bad-argument naming the key, and nothing plays")
    func badArguments() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let tap = try inline(Self.tap)
        let cases: [(JSONValue, String, String)] = [
            (.array([.string("120%"), .string("5%")]), "at", "play: \"at\": X 120% is outside the surface (0% to 100%)"),
            (.array([.integer(5)]), "at", "play: \"at\" must be [x, y]"),
            (.string("80%,90%"), "at", "play: \"at\" must be [x, y]"),
            (.array([.string("80"), .string("90%")]), "at", "play: \"at\" must be [x, y]"),
            (.array([.string("nan%"), .string("90%")]), "at", "play: \"at\": \"nan%\" is not a percent"),
            (.array([.integer(101), .integer(5)]), "at", "play: \"at\": X 101 mm is outside the surface (0 to 100 mm; or use 0% to 100%)"),
            (.array([.integer(5), .decimal(50.5)]), "at", "play: \"at\": Y 50.5 mm is outside the surface (0 to 50 mm"),
            (.integer(0), "scale", "play: \"scale\": the scale must be a finite number above 0, not 0"),
            (.integer(-2), "scale", "play: \"scale\": the scale must be a finite number above 0, not -2"),
            (.string("2"), "scale", "play: \"scale\" must be a number"),
            (.string("90"), "rotate", "play: \"rotate\" must be a number"),
        ]
        for (value, key, message) in cases {
            do {
                _ = try client.call("play", [("gesture", tap), (key, value)])
                Issue.record("\(key): \(value.jsonText) was accepted")
            } catch let error as DaemonError {
                #expect(error.code == .badArgument, "\(key): \(value.jsonText)")
                #expect(error.message.hasPrefix(message), "\(key): \(value.jsonText) gave \(error.message)")
            }
        }
        // Checked before the gesture is looked up: no not-found for a bad scale.
        #expect(errorCode { try client.call("play", [("name", .string("no-such")), ("scale", .integer(0))]) } == .badArgument)
        #expect(daemon.sink(.touchscreen)?.frames.isEmpty ?? true)
        await daemon.stop()
    }

    @Test("Samples pushed off the surface are clipped to its edge, as transform does, and the daemon logs it")
    func clipping() async throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        // A 20 mm swipe centred at 1 mm from the left edge: its start clips to 0.
        let swipe = Self.gesture([(100, 250), (300, 250)])
        _ = try client.call("play", [("gesture", try inline(swipe)), ("at", .array([.integer(1), .string("50%")]))])
        #expect(
            Self.positions(daemon.sink(.touchscreen)?.frames ?? []) == [
                Position(x: 0, y: try Self.expected(.touchscreen, .multitouchPositionY, 0.5)),
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.11),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.5)),
            ])
        #expect(daemon.logLines.contains { $0.contains("1 sample fell outside the surface and was clipped to its edge") })
        await daemon.stop()
    }

    @Test("gesturectl --socket PATH play FILE --at … --scale … --rotate … sends the placement")
    func throughTheClient() async throws {
        let daemon = try TestDaemon()
        let file = daemon.folder + "/tap.gesture.json"
        try GestureFileFormat.encode(Self.tap).write(toFile: file, atomically: true, encoding: .utf8)
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("gesturectl").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": daemon.folder]
        let played = try ProcessRunner.run(
            binary, ["--socket", daemon.socketPath, "play", file, "--at", "30%,12.5", "--scale", "2", "--rotate", "45"],
            environment: environment)
        #expect(played.status == 0, "\(played.standardError)")
        // A one-point tap: scale and rotate leave it where at puts it. 12.5 mm of 50 = 25%.
        #expect(
            Self.positions(daemon.sink(.touchscreen)?.frames ?? []) == [
                Position(
                    x: try Self.expected(.touchscreen, .multitouchPositionX, 0.3),
                    y: try Self.expected(.touchscreen, .multitouchPositionY, 0.25))
            ])
        // The daemon's refusal comes back as the client's error, naming the key.
        let refused = try ProcessRunner.run(
            binary, ["--socket", daemon.socketPath, "play", file, "--at", "150,5"], environment: environment)
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("\"at\": X 150 mm is outside the surface (0 to 100 mm"), "\(refused.standardError)")
        await daemon.stop()
    }
}
