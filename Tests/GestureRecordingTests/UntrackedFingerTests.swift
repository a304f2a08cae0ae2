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
}
