import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

/// Issue 7 item 14: touchpads that track fewer slots than fingers down.
@Suite struct UntrackedFingerTests {
    /// A two-slot touchpad (like a Cypress trackpad) that says three or more
    /// fingers with BTN_TOOL_TRIPLETAP…QUINTTAP; 0…1200 at 12 units/mm.
    static var twoSlotPad: InputDeviceDescription {
        var device = TestDevices.touchpad
        device.codes[.key] = [
            .buttonLeft, .buttonTouch, .buttonToolFinger, .buttonToolDoubleTap, .buttonToolTripleTap,
            .buttonToolQuadTap,
        ]
        device.absoluteAxes[.multitouchSlot] = AbsoluteAxisInfo(minimum: 0, maximum: 1)
        return device
    }

    @Test func aThreeFingerTapOnATwoSlotPadKeepsThreeFingers() throws {
        var recorder = try StrokeRecorder(device: Self.twoSlotPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 300), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 410),
            key(.buttonTouch, 1), key(.buttonToolTripleTap, 1),
        ]))
        recorder.feed(all: frame(10, [abs(.multitouchSlot, 1), abs(.multitouchPositionX, 502)]))
        recorder.feed(all: frame(60, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1),
            key(.buttonTouch, 0), key(.buttonToolTripleTap, 0),
        ]))
        let result = try recorder.finished()
        let strokes = result.gesture.strokes
        #expect(strokes.count == 3)
        #expect(strokes.map(\.isEstimated) == [false, false, true])
        // 18 mm (216 units) right of the rightmost tracked finger, moving with it.
        #expect(strokes[2].samples.map { [Int($0.time.rawValue), $0.x, $0.y] } == [[0, 716, 400], [10_000, 718, 400], [60_000, 718, 400]])
        #expect(result.gesture.device.slots == 3)
        #expect(result.warnings.contains {
            $0.hasPrefix("the device reported more fingers down") && $0.contains("1 finger was placed beside")
        })
        try result.gesture.validate()
    }

    @Test func aSlotWithATrackingIDButNoPositionIsAFinger() throws {
        var recorder = try StrokeRecorder(device: Self.twoSlotPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 1_100), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2),
        ]))
        recorder.feed(all: frame(50, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1)]))
        let strokes = try recorder.finished().gesture.strokes
        #expect(strokes.count == 2)
        // No room on the right: to the left of the tracked finger.
        #expect(strokes[1].isEstimated && strokes[1].samples[0].x == 884)
    }

    @Test func aPadThatTracksEveryFingerHasNoEstimates() throws {
        var recorder = try StrokeRecorder(device: Self.twoSlotPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 300), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 410),
            key(.buttonToolDoubleTap, 1),
        ]))
        recorder.feed(all: frame(50, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1), key(.buttonToolDoubleTap, 0)]))
        let result = try recorder.finished()
        #expect(result.gesture.strokes.count == 2 && !result.gesture.strokes.contains(where: \.isEstimated))
        #expect(result.gesture.device.slots == 2)
        #expect(!result.warnings.contains { $0.contains("estimated") })
    }

    // Issue 24 item 3: tracking-id churn.

    /// ``twoSlotPad`` as a semi-MT device (INPUT_PROP_SEMI_MT): its two
    /// slots are the corners of the fingers' bounding box.
    static var semiMultitouchPad: InputDeviceDescription {
        var device = twoSlotPad
        device.properties.insert(.semiMultitouch)
        return device
    }

    /// The points of each stroke, `[time ms, x, y]`.
    static func paths(_ strokes: [Stroke]) -> [[[Int]]] {
        strokes.map { $0.samples.map { [Int($0.time.rawValue / 1000), $0.x, $0.y] } }
    }

    /// The Cypress semi-MT three-finger press: two fingers land; when the
    /// third lands BTN_TOOL_TRIPLETAP replaces DOUBLETAP and slot 0 ends;
    /// the next frame slot 0 comes back with a new tracking id at the other
    /// corner. Three fingers, three strokes, none of them jumping.
    @Test func semiMTChurnWhileTheCountHoldsContinuesAFinger() throws {
        var recorder = try StrokeRecorder(device: Self.semiMultitouchPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 397), abs(.multitouchPositionX, 370), abs(.multitouchPositionY, 330),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 398), abs(.multitouchPositionX, 535), abs(.multitouchPositionY, 277),
            key(.buttonTouch, 1), key(.buttonToolDoubleTap, 1),
        ]))
        recorder.feed(all: frame(200, [
            abs(.multitouchPositionX, 538), abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1),
            key(.buttonToolDoubleTap, 0), key(.buttonToolTripleTap, 1),
        ]))
        recorder.feed(all: frame(215, [abs(.multitouchTrackingID, 399), abs(.multitouchPositionX, 537), abs(.multitouchPositionY, 279)]))
        recorder.feed(all: frame(300, [abs(.multitouchSlot, 0), abs(.multitouchPositionX, 535)]))
        recorder.feed(all: frame(700, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1),
            key(.buttonTouch, 0), key(.buttonToolTripleTap, 0),
        ]))
        let result = try recorder.finished()
        let strokes = result.gesture.strokes
        #expect(strokes.count == 3)
        #expect(result.gesture.maximumSimultaneousContacts == 3)
        #expect(strokes.map(\.isEstimated) == [false, false, true])
        // Slot 0's finger stays where it was and follows the slot's moves (2 units left) from there.
        #expect(Self.paths([strokes[0]]) == [[[0, 370, 330], [300, 368, 330], [700, 368, 330]]])
        #expect(Self.paths([strokes[1]]) == [[[0, 535, 277], [200, 538, 277], [700, 538, 277]]])
        #expect(strokes[2].samples.first?.time.rawValue == 200_000 && strokes[2].endTime.rawValue == 700_000)
        try result.gesture.validate()
    }

    /// The same churn with the count unchanged throughout (three fingers
    /// from the start), a new id given in the same frame as the old one
    /// ends.
    @Test func semiMTChurnInOneFrameContinuesAFinger() throws {
        var recorder = try StrokeRecorder(device: Self.semiMultitouchPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 300), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 410),
            key(.buttonTouch, 1), key(.buttonToolTripleTap, 1),
        ]))
        for step in 1...4 {
            recorder.feed(all: frame(Int64(step * 50), [
                abs(.multitouchSlot, 0), abs(.multitouchTrackingID, Int32(10 + step)), abs(.multitouchPositionX, Int32(300 + step)),
            ]))
        }
        recorder.feed(all: frame(250, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1),
            key(.buttonTouch, 0), key(.buttonToolTripleTap, 0),
        ]))
        let gesture = try recorder.finished().gesture
        #expect(gesture.strokes.count == 3)
        #expect(gesture.maximumSimultaneousContacts == 3)
    }

    /// Not semi-MT, but three fingers on two slots: while the device
    /// reports more fingers than it tracks, a new id continues a finger too.
    @Test func churnWhileFingersAreUntrackedContinuesAFinger() throws {
        var recorder = try StrokeRecorder(device: Self.twoSlotPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 300), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 410),
            key(.buttonTouch, 1), key(.buttonToolTripleTap, 1),
        ]))
        recorder.feed(all: frame(50, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1)]))
        recorder.feed(all: frame(60, [abs(.multitouchTrackingID, 3), abs(.multitouchPositionX, 310)]))
        recorder.feed(all: frame(400, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1),
            key(.buttonTouch, 0), key(.buttonToolTripleTap, 0),
        ]))
        let gesture = try recorder.finished().gesture
        #expect(gesture.strokes.count == 3)
        #expect(gesture.maximumSimultaneousContacts == 3)
        // Not semi-MT: the positions are the fingers', so the finger takes the slot's (held at 300 in between).
        #expect(Self.paths([gesture.strokes[0]]) == [[[0, 300, 400], [60, 310, 400], [400, 310, 400]]])
    }

    /// When the count falls with a slot's end, that slot's finger lifts.
    @Test func aSlotEndingAsTheCountFallsLifts() throws {
        var recorder = try StrokeRecorder(device: Self.semiMultitouchPad)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 300), abs(.multitouchPositionY, 400),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 500), abs(.multitouchPositionY, 410),
            key(.buttonTouch, 1), key(.buttonToolDoubleTap, 1),
        ]))
        recorder.feed(all: frame(100, [abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1), key(.buttonToolDoubleTap, 0), key(.buttonToolFinger, 1)]))
        recorder.feed(all: frame(200, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), key(.buttonTouch, 0), key(.buttonToolFinger, 0)]))
        let strokes = try recorder.finished().gesture.strokes
        #expect(Self.paths(strokes) == [[[0, 300, 400], [200, 300, 400]], [[0, 500, 410], [100, 500, 410]]])
    }

    /// A touchscreen tracks every finger: a finger that lifts and another
    /// that lands in the same slot within one frame (the count unchanged)
    /// are two fingers, as the kernel's new tracking id says; so is a quick
    /// re-touch a frame later.
    @Test func onAFullyTrackedDeviceANewIDIsANewFinger() throws {
        var recorder = try StrokeRecorder(device: TestDevices.touchscreen)
        recorder.feed(all: frame(0, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 1), abs(.multitouchPositionX, 1000), abs(.multitouchPositionY, 1000),
            abs(.multitouchSlot, 1), abs(.multitouchTrackingID, 2), abs(.multitouchPositionX, 5000), abs(.multitouchPositionY, 1000),
            key(.buttonTouch, 1),
        ]))
        recorder.feed(all: frame(100, [abs(.multitouchSlot, 0), abs(.multitouchTrackingID, 3), abs(.multitouchPositionX, 9000)]))
        recorder.feed(all: frame(200, [abs(.multitouchTrackingID, -1)]))
        recorder.feed(all: frame(210, [abs(.multitouchTrackingID, 4), abs(.multitouchPositionX, 9100)]))
        recorder.feed(all: frame(300, [
            abs(.multitouchSlot, 0), abs(.multitouchTrackingID, -1), abs(.multitouchSlot, 1), abs(.multitouchTrackingID, -1),
            key(.buttonTouch, 0),
        ]))
        let strokes = try recorder.finished().gesture.strokes
        #expect(Self.paths(strokes) == [
            [[0, 1000, 1000], [100, 1000, 1000]], [[0, 5000, 1000], [300, 5000, 1000]],
            [[100, 9000, 1000], [200, 9000, 1000]], [[210, 9100, 1000], [300, 9100, 1000]],
        ])
    }
}
