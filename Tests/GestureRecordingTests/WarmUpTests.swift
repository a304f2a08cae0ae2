import GestureModel
import InputSystem
import Testing
import TestSupport

@testable import GestureRecording

/// `warmUp()` runs the recorder's own path on a copy (so the first real
/// frames do not run it cold) and leaves the recorder as it was.
@Suite struct WarmUpTests {
    static let devices: [(String, InputDeviceDescription, Int)] = [
        ("touchscreen", TestDevices.touchscreen, 10), ("two-slot touchscreen", TestDevices.twoSlotTouchscreen, 2),
        ("protocol A", TestDevices.protocolA, 10), ("single touch", TestDevices.singleTouch, 1),
        ("touchpad", TestDevices.touchpad, 5), ("pen", TestDevices.pen, 1), ("mouse", TestDevices.mouse, 1),
    ]

    @Test(arguments: devices.indices)
    func theMadeUpGestureIsRecordedOnACopyOnly(index: Int) throws {
        let (name, device, expected) = Self.devices[index]
        let recorder = try StrokeRecorder(device: device)
        let strokes = recorder.warmUp()
        // The copy recorded a stroke a contact: the recorder's own path ran.
        #expect(strokes == expected, "\(name)")
        // The recorder itself saw nothing.
        #expect(recorder.strokeCount == 0, "\(name)")
        #expect(!recorder.hasStarted, "\(name)")
        #expect(recorder.latestFrameTime == nil, "\(name)")
        #expect(recorder.droppedEventCount == 0, "\(name)")
        #expect(throws: RecordingError.noContact) { try recorder.finish(RecordingDetails(name: "x"), reason: .cancelled) }
    }

    @Test func aTouchscreenWarmsEverySlotUpToTen() throws {
        #expect(try StrokeRecorder(device: TestDevices.touchscreen).warmUp() == min(TestDevices.touchscreen.slotCount, 10))
    }

    /// A recording after a warm-up is the recording without one.
    @Test func aWarmedRecorderRecordsAsAColdOne() throws {
        let outcomes =
            frame(
                5_000,
                [abs(.multitouchTrackingID, 7), abs(.multitouchPositionX, 100), abs(.multitouchPositionY, 200)])
            + frame(5_010, [abs(.multitouchPositionX, 120)])
            + frame(5_020, [abs(.multitouchTrackingID, -1)])
        var cold = try StrokeRecorder(device: TestDevices.touchscreen)
        var warm = try StrokeRecorder(device: TestDevices.touchscreen)
        warm.warmUp()
        cold.feed(all: outcomes)
        warm.feed(all: outcomes)
        #expect(try warm.finished().gesture == cold.finished().gesture)
        #expect(warm.status() == cold.status())
    }
}
