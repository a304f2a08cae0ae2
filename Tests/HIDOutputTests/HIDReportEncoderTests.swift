import GestureModel
import GesturePlayback
import HIDOutput
import InputSystem
import Synchronization
import Testing

/// Collects the reports a sink sends.
final class ReportCollector: HIDReportOutput {
    let sent = Mutex<[[UInt8]]>([])
    func send(report: [UInt8]) throws { sent.withLock { $0.append(report) } }
}

private func frame(_ events: [(EventType, EventCode, Int32)]) -> InputFrame {
    InputFrame(time: .zero, events: events.map { InputEvent(type: $0.0, code: $0.1, value: $0.2) } + [.synchronizationReport()])
}

private func touch(slot: Int32, id: Int32, x: Int32, y: Int32) -> [(EventType, EventCode, Int32)] {
    [
        (.absolute, .multitouchSlot, slot), (.absolute, .multitouchTrackingID, id), (.absolute, .multitouchPositionX, x),
        (.absolute, .multitouchPositionY, y),
    ]
}

/// Contact `index` of a default-layout report: (tip, id, x, y).
private func contact(_ report: [UInt8], _ index: Int) -> (Bool, UInt8, Int, Int) {
    let base = 1 + index * 6
    return (
        report[base] == 1, report[base + 1], Int(report[base + 2]) | Int(report[base + 3]) << 8,
        Int(report[base + 4]) | Int(report[base + 5]) << 8
    )
}

@Suite struct HIDReportEncoderTests {
    let profile = VirtualDeviceProfile.touchscreen()

    @Test func twoFingersDownMoveAndLiftAsTheHostExpects() throws {
        var encoder = try HIDReportEncoder(profile: profile)
        let down = encoder.reports(
            for: frame(touch(slot: 0, id: 1, x: 100, y: 200) + touch(slot: 1, id: 2, x: 300, y: 400)),
            scanTime: Microseconds(12_300))
        #expect(down.count == 1)
        let report = down[0]
        #expect(report.count == 64)
        #expect(report[0] == 1)
        #expect(contact(report, 0) == (true, 0, 100, 200))
        #expect(contact(report, 1) == (true, 1, 300, 400))
        #expect(report[61] == 123 && report[62] == 0)  // scan time, 100 µs units
        #expect(report[63] == 2)  // contact count

        let lift = encoder.reports(
            for: frame([(.absolute, .multitouchSlot, 0), (.absolute, .multitouchTrackingID, -1)]), scanTime: .zero)
        #expect(lift.count == 1)
        #expect(contact(lift[0], 0) == (false, 0, 100, 200))  // in slot order: the lift of slot 0, once
        #expect(contact(lift[0], 1) == (true, 1, 300, 400))
        #expect(lift[0][63] == 2)

        let after = encoder.reports(for: frame([(.absolute, .multitouchSlot, 1), (.absolute, .multitouchPositionX, 310)]), scanTime: .zero)
        #expect(after.count == 1)
        #expect(contact(after[0], 0) == (true, 1, 310, 400))
        #expect(after[0][63] == 1)  // the lifted contact is not sent again
    }

    @Test func aSlotReusedInOneFrameIsLiftedFirst() throws {
        var encoder = try HIDReportEncoder(profile: profile)
        _ = encoder.reports(for: frame(touch(slot: 0, id: 1, x: 100, y: 100)), scanTime: .zero)
        let reports = encoder.reports(for: frame(touch(slot: 0, id: 2, x: 900, y: 900)), scanTime: .zero)
        #expect(reports.count == 2)
        #expect(contact(reports[0], 0) == (false, 0, 100, 100))
        #expect(contact(reports[1], 0) == (true, 0, 900, 900))
    }

    @Test func aFrameThatChangesNoContactSendsNothing() throws {
        var encoder = try HIDReportEncoder(profile: profile)
        #expect(encoder.reports(for: InputFrame(time: .zero, events: [.synchronizationReport()]), scanTime: .zero).isEmpty)
    }

    @Test func theLiftAllFrameLiftsEveryContact() throws {
        var encoder = try HIDReportEncoder(profile: profile)
        var state = DeviceState(description: profile.description)
        let down = frame(touch(slot: 0, id: 1, x: 1, y: 1) + touch(slot: 3, id: 2, x: 2, y: 2) + [(.key, .buttonTouch, 1)])
        state.apply(down)
        _ = encoder.reports(for: down, scanTime: .zero)
        let lift = encoder.reports(for: try #require(state.liftAllFrame()), scanTime: .zero)
        #expect(lift.count == 1)
        #expect(contact(lift[0], 0).0 == false && contact(lift[0], 1).0 == false)
        #expect(Set([contact(lift[0], 0).1, contact(lift[0], 1).1]) == [0, 3])
    }

    @Test func mouseMovesBeyondSixteenBitsAreSplit() throws {
        var encoder = try HIDReportEncoder(profile: VirtualDeviceProfile.mouse())
        let reports = encoder.reports(
            for: frame([(.key, .buttonLeft, 1), (.relative, .relativeX, 40_000), (.relative, .relativeY, -5)]), scanTime: .zero)
        #expect(reports.count == 2)
        #expect(reports[0] == HIDMouseLayout.report(buttons: 1, dx: 32_767, dy: -5, wheel: 0))
        #expect(reports[1] == HIDMouseLayout.report(buttons: 1, dx: 7_233, dy: 0, wheel: 0))
        let up = encoder.reports(for: frame([(.key, .buttonLeft, 0)]), scanTime: .zero)
        #expect(up == [HIDMouseLayout.report(buttons: 0, dx: 0, dy: 0, wheel: 0)])
    }

    @Test func buttonsGoToTheirPage() throws {
        var encoder = try HIDReportEncoder(profile: VirtualKeyboard.profile())
        let volume = encoder.reports(for: frame([(.key, .keyVolumeUp, 1)]), scanTime: .zero)
        #expect(volume == [HIDButtonsLayout.consumerReport([0xE9])])
        let enter = encoder.reports(for: frame([(.key, .keyEnter, 1), (.key, .keyVolumeUp, 0)]), scanTime: .zero)
        #expect(enter == [HIDButtonsLayout.consumerReport([]), HIDButtonsLayout.keyboardReport([0x28])])
    }

    @Test func theSinkSendsEveryReportOfAFrame() throws {
        let collector = ReportCollector()
        let sink = try HIDFrameSink(profile: profile, output: collector, clock: { Microseconds(200) })
        try sink.write(frame(touch(slot: 0, id: 1, x: 5, y: 6)))
        let sent = collector.sent.withLock { $0 }
        #expect(sent.count == 1)
        #expect(sent[0][61] == 2)
    }
}
