import Foundation
import Testing
import TestSupport

/// Issue 24 item 3: a semi-MT touchpad shaped like the "CyPS/2 Cypress
/// Trackpad" of evemu's device-recordings collection. Its two slots are the
/// corners of the fingers' bounding box; it says how many fingers are down
/// with BTN_TOOL_FINGER…QUINTTAP, and when a third finger lands it ends
/// slot 0 and gives it a new tracking id the next frame while
/// BTN_TOOL_TRIPLETAP stays set. Its three-finger press imported as
/// "4 fingers · press" with 5 strokes.
@Suite struct SemiMultitouchTests {
    /// One frame: its time in seconds and its events (type, code, value),
    /// SYN_REPORT added.
    typealias Frame = (time: Double, events: [(Int, Int, Int)])

    static let slot = 0x2f, trackingID = 0x39, x = 0x35, y = 0x36, pressure = 0x3a
    static let touch = 0x14a, finger = 0x145, doubleTap = 0x14d, tripleTap = 0x14e, right = 0x111

    /// The pad: 1600 × 900 at 16 and 15 units/mm, INPUT_PROP_BUTTONPAD and
    /// INPUT_PROP_SEMI_MT, two slots.
    static func cypress(_ frames: [Frame]) -> String {
        var lines: [String] = []
        for frame in frames {
            let time = String(format: "%.6f", frame.time)
            for (type, code, value) in frame.events + [(0, 0, 0)] {
                lines.append("E: \(time) " + String(format: "%04x %04x %04d", type, code, value))
            }
        }
        return EvemuFixture(
            name: "CyPS/2 Cypress Trackpad", bus: 0x11, vendor: 0x02, product: 0x11, version: 0x01,
            properties: [2, 3],
            codes: [EvemuFixture.key: [0x110, 0x111, 0x112, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f]],
            axes: [
                .init(0x00, 0, 1600, resolution: 16), .init(0x01, 0, 900, resolution: 15), .init(0x18, 0, 255),
                .init(0x1c, 0, 255), .init(0x2f, 0, 1), .init(0x35, 0, 1600, resolution: 16),
                .init(0x36, 0, 900, resolution: 15), .init(0x39, 0, 65535), .init(0x3a, 0, 255),
            ],
            events: lines.joined(separator: "\n")
        ).text
    }

    static func abs(_ code: Int, _ value: Int) -> (Int, Int, Int) { (3, code, value) }
    static func key(_ code: Int, _ value: Int) -> (Int, Int, Int) { (1, code, value) }

    /// Frames every 15 ms from `start` to before `end` in which both
    /// corners' pressure rises and slot 1 wobbles by a unit.
    static func held(from start: Double, to end: Double, firstPressure: Int) -> [Frame] {
        var frames: [Frame] = []
        var time = start
        var pressure = firstPressure
        var step = 0
        while time < end - 0.0001 {
            frames.append(
                (time, [
                    abs(slot, 0), abs(Self.pressure, pressure), abs(slot, 1), abs(x, 536 + step % 2),
                    abs(Self.pressure, pressure),
                ]))
            time += 0.015
            pressure = min(pressure + 4, 120)
            step += 1
        }
        return frames
    }

    /// Both slots end; BTN_TOUCH and the finger count `count` are released.
    static func lift(at time: Double, count: Int) -> Frame {
        (time, [abs(slot, 0), abs(trackingID, -1), abs(slot, 1), abs(trackingID, -1), key(touch, 0), key(count, 0)])
    }

    /// Two corners land together, with `count` (BTN_TOOL_DOUBLETAP or
    /// TRIPLETAP).
    static func land(count: Int) -> Frame {
        (0.000001, [
            abs(slot, 0), abs(trackingID, 397), abs(x, 368), abs(y, 329), abs(pressure, 18),
            abs(slot, 1), abs(trackingID, 398), abs(x, 536), abs(y, 277), abs(pressure, 18),
            key(touch, 1), key(count, 1),
        ])
    }

    static let twoFingerTap = cypress([land(count: doubleTap)] + held(from: 0.015, to: 0.105, firstPressure: 23) + [lift(at: 0.108, count: doubleTap)])

    static let threeFingerTap = cypress([land(count: tripleTap)] + held(from: 0.015, to: 0.090, firstPressure: 30) + [lift(at: 0.105, count: tripleTap)])

    /// One finger, then a second 85 ms later.
    static let twoFingerPress = cypress(
        [
            (0.000001, [abs(slot, 0), abs(trackingID, 395), abs(x, 762), abs(y, 288), abs(pressure, 39), key(touch, 1), key(finger, 1)]),
            (0.012, [abs(pressure, 51)]),
            (0.085, [
                abs(slot, 1), abs(trackingID, 396), abs(x, 583), abs(y, 321), abs(pressure, 49),
                abs(slot, 0), abs(pressure, 49), key(finger, 0), key(doubleTap, 1),
            ]),
        ] + held(from: 0.100, to: 0.560, firstPressure: 52) + [lift(at: 0.572, count: doubleTap)])

    /// Two fingers, then a third at 0.2 s: slot 0 ends as TRIPLETAP
    /// replaces DOUBLETAP, and comes back the next frame with a new
    /// tracking id at the other corner; a click (BTN_RIGHT) half-way.
    static let threeFingerPress = cypress(
        [land(count: doubleTap)] + held(from: 0.015, to: 0.200, firstPressure: 23)
            + [
                (0.2025, [
                    abs(x, 537), abs(y, 278), abs(slot, 0), abs(trackingID, -1), key(doubleTap, 0), key(tripleTap, 1),
                ]),
                (0.2177, [abs(trackingID, 399), abs(x, 538), abs(y, 278), abs(pressure, 61)]),
            ]
            + held(from: 0.233, to: 0.470, firstPressure: 64)
            + [(0.478, [abs(slot, 0), abs(x, 534), key(right, 1)])]
            + held(from: 0.493, to: 0.720, firstPressure: 101)
            + [(0.7296, [abs(slot, 0), abs(trackingID, -1), abs(slot, 1), abs(trackingID, -1), key(touch, 0), key(tripleTap, 0), key(right, 0)])])

    @Test(
        "Cypress semi-MT taps and presses keep their fingers",
        arguments: [
            (twoFingerTap, "2 fingers · tap · 0.11 s", 2),
            (twoFingerPress, "2 fingers · press · 0.57 s", 2),
            (threeFingerTap, "3 fingers · tap · 0.10 s", 3),
            (threeFingerPress, "3 fingers · long press · 0.73 s", 3),
        ])
    func cypressGestures(recording: String, description: String, strokes: Int) throws {
        let scratch = try TemporaryFolder()
        try scratch.write("cypress.evemu", recording)
        let imported = try CLI.run(["import", "cypress.evemu", "-o", "c.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try scratch.read("c.json")
        #expect(text.components(separatedBy: "\"samples\"").count - 1 == strokes)
        let described = try CLI.run(["describe", "c.json"], in: scratch.path)
        #expect(described.stdout == description + "\n")
    }
}

/// Issue 24 item 4: shaped like the Wacom ISDv4 E6 Finger
/// "double-center-circle" recording of evemu's device collection: a
/// touchscreen without resolution on which two fingers go around together,
/// clockwise, a little over one turn in 1.45 s. It was "2 fingers · swipe up".
@Suite struct CirclingFingersRecordingTests {
    static var recording: String {
        var lines: [String] = []
        func add(_ time: Double, _ type: Int, _ code: Int, _ value: Int) {
            lines.append("E: " + String(format: "%.6f %04x %04x %04d", time, type, code, value))
        }
        let centres = [(1400.0, 690.0), (1250.0, 818.0)]
        let frames = 48
        for frame in 0...frames {
            let time = 0.000001 + Double(frame) * 0.030
            let angle = (-120 + 400 * Double(frame) / Double(frames)) * Double.pi / 180
            for (slot, centre) in centres.enumerated() {
                add(time, 3, 0x2f, slot)
                if frame == 0 { add(time, 3, 0x39, 16 + slot) }
                add(time, 3, 0x35, Int((centre.0 + 310 * cos(angle)).rounded()))
                add(time, 3, 0x36, Int((centre.1 + 310 * sin(angle)).rounded()))
            }
            if frame == 0 { add(time, 1, 0x14a, 1) }
            add(time, 0, 0, 0)
        }
        let end = 0.000001 + Double(frames) * 0.030 + 0.010
        for slot in 0...1 {
            add(end, 3, 0x2f, slot)
            add(end, 3, 0x39, -1)
        }
        add(end, 1, 0x14a, 0)
        add(end, 0, 0, 0)
        return EvemuFixture(
            name: "Wacom ISDv4 E6 Finger", bus: 0x03, vendor: 0x56a, product: 0xe6, version: 0x139, properties: [1],
            codes: [EvemuFixture.key: [0x14a]],
            axes: [
                .init(0x00, 0, 2776, fuzz: 4), .init(0x01, 0, 1569, fuzz: 4), .init(0x2f, 0, 1),
                .init(0x35, 0, 2776, fuzz: 4), .init(0x36, 0, 1569, fuzz: 4), .init(0x39, 0, 65535),
            ],
            events: lines.joined(separator: "\n")
        ).text
    }

    @Test func twoFingersCirclingTogetherAreSaidSo() throws {
        let scratch = try TemporaryFolder()
        try scratch.write("circle.evemu", Self.recording)
        let imported = try CLI.run(["import", "circle.evemu", "-o", "c.json"], in: scratch.path)
        #expect(imported.status == 0, "\(imported.stderr)")
        let described = try CLI.run(["describe", "c.json"], in: scratch.path)
        #expect(described.stdout.hasPrefix("2 fingers · circle clockwise · 1.45 s · "), "\(described.stdout)")
        #expect(described.stdout.hasSuffix(" % of the width\n"), "\(described.stdout)")
        let spoken = try CLI.run(["describe", "--spoken", "c.json"], in: scratch.path)
        #expect(spoken.stdout.hasPrefix("2 fingers, circle clockwise, 1.45 seconds, "), "\(spoken.stdout)")
    }
}
