import GestureModel
import Testing

@testable import InputSystem

@Suite("Input events")
struct InputEventTests {
    @Test("Description names type and code and shows seconds with six decimals")
    func readableDescription() {
        let event = InputEvent(time: 1_520_004_213, type: .absolute, code: .multitouchPositionX, value: 1234)
        #expect(event.description == "EV_ABS ABS_MT_POSITION_X 1234 @ 1520.004213")
        let early = InputEvent(time: 7, type: .key, code: .buttonTouch, value: 1)
        #expect(early.description == "EV_KEY BTN_TOUCH 1 @ 0.000007")
        let unknown = InputEvent(time: -250_000, type: .absolute, code: EventCode(rawValue: 0x3e), value: -1)
        #expect(unknown.description == "EV_ABS 0x3e -1 @ -0.250000")
    }

    @Test("The frame end is SYN_REPORT with value 0")
    func synchronizationReport() {
        let report = InputEvent.synchronizationReport(time: 5)
        #expect(report == InputEvent(time: 5, type: .synchronization, code: .synchronizationReport, value: 0))
        #expect(report.isSynchronizationReport)
        #expect(!report.isSynchronizationDropped)
        let dropped = InputEvent(type: .synchronization, code: .synchronizationDropped, value: 0)
        #expect(dropped.isSynchronizationDropped)
        #expect(!dropped.isSynchronizationReport)
    }

    @Test("Kernel structure round trip keeps every field")
    func kernelRoundTrip() {
        let events = [
            InputEvent(time: 1_520_004_213, type: .absolute, code: .multitouchTrackingID, value: -1),
            InputEvent(time: 0, type: .key, code: .keyVolumeUp, value: 1),
            InputEvent(time: -1, type: .relative, code: .relativeWheel, value: Int32.min),
        ]
        for event in events {
            #expect(InputEvent(event.kernelEvent) == event)
        }
        let kernel = events[0].kernelEvent
        #expect(kernel.type == 3)
        #expect(kernel.code == 0x39)
        #expect(kernel.value == -1)
    }

    @Test("Time splits into a non-negative microsecond part")
    func timeSplitting() {
        #expect(InputEvent.secondsAndMicroseconds(of: 1_520_004_213) == (1520, 4213))
        #expect(InputEvent.secondsAndMicroseconds(of: -1) == (-1, 999_999))
        #expect(InputEvent.secondsAndMicroseconds(of: -1_000_000) == (-1, 0))
        #expect(InputEvent.secondsAndMicroseconds(of: 0) == (0, 0))
    }

    @Test("Time joins with clamping instead of overflow")
    func timeJoining() {
        #expect(InputEvent.microseconds(seconds: 1520, microseconds: 4213) == 1_520_004_213)
        #expect(InputEvent.microseconds(seconds: Int64.max, microseconds: 0) == Int64.max)
        #expect(InputEvent.microseconds(seconds: Int64.min, microseconds: 0) == Int64.min)
        #expect(InputEvent.microseconds(seconds: Int64.max / 1_000_000, microseconds: 999_999) == Int64.max)
    }
}
