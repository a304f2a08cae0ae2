import Foundation
import Glibc
import Testing
import TestSupport

@testable import InputSystem
import OperatingSystem

/// Tests that need uinput and evdev; they run in the VM (case 18 of the
/// integration tier) and are skipped (reported as skipped, not passed) where
/// /dev/uinput is not writable, except under CI, where that fails them.
/// Serialized: the kernel reuses event node numbers at once, and udev
/// events are broadcast, so parallel tests would see each other's devices.
@Suite("Kernel devices", .serialized, .requiringDevice("/dev/uinput", "modprobe uinput; the VM tier runs this suite"))
struct KernelTests {
    /// The type, code and value of each event (kernel times differ run to run).
    private func contents(_ events: [InputEvent]) -> [String] {
        events.map { "\($0.type) \($0.code.nameOrNumber(type: $0.type)) \($0.value)" }
    }

    /// Reads until the device would block; fails on a resync.
    private func drain(_ reader: EvdevDevice) throws -> [InputEvent] {
        var events: [InputEvent] = []
        while true {
            switch try reader.nextEvent() {
            case .event(let event): events.append(event)
            case .wouldBlock: return events
            case let other:
                Issue.record("unexpected outcome \(other)")
                return events
            }
        }
    }

    @Test("A uinput touchscreen reads back with its description and frames")
    func touchscreenRoundTrip() throws {
        let uinput = try UinputDevice(description: TestDevices.touchscreen)
        let node = try #require(uinput.devnode)
        #expect(UdevInputDevice.isEventNode(node))
        #expect(uinput.syspath?.hasPrefix("/sys/devices/virtual/input/input") == true)

        let reader = try EvdevDevice(path: node)
        var description = reader.description
        #expect(description.codes[.synchronization] != nil)
        description.codes[.synchronization] = nil
        #expect(description == TestDevices.touchscreen)
        #expect(reader.slotCount == 10)
        #expect(reader.slotValue(slot: 0, code: .multitouchTrackingID) == -1)
        #expect(try reader.nextEvent() == .wouldBlock)

        let down: [InputEvent] = [
            InputEvent(type: .absolute, code: .multitouchTrackingID, value: 1),
            InputEvent(type: .absolute, code: .multitouchPositionX, value: 100),
            InputEvent(type: .absolute, code: .multitouchPositionY, value: 200),
            InputEvent(type: .key, code: .buttonTouch, value: 1),
            InputEvent(type: .absolute, code: .absoluteX, value: 100),
            InputEvent(type: .absolute, code: .absoluteY, value: 200),
            .synchronizationReport(),
        ]
        try uinput.write(frame: down)
        let readDown = try drain(reader)
        #expect(contents(readDown) == contents(down))
        // The kernel stamps the whole frame at SYN_REPORT.
        #expect(Set(readDown.map(\.time)).count == 1)
        #expect(reader.slotValue(slot: 0, code: .multitouchTrackingID) == 1)
        #expect(reader.slotValue(slot: 0, code: .multitouchPositionX) == 100)
        #expect(reader.value(type: .key, code: .buttonTouch) == 1)

        let up: [InputEvent] = [
            InputEvent(type: .absolute, code: .multitouchTrackingID, value: -1),
            InputEvent(type: .key, code: .buttonTouch, value: 0),
            .synchronizationReport(),
        ]
        try uinput.write(frame: up)
        #expect(contents(try drain(reader)) == contents(up))
        #expect(reader.slotValue(slot: 0, code: .multitouchTrackingID) == -1)
        #expect(reader.slotValue(slot: 10, code: .multitouchTrackingID) == nil)
    }

    @Test("After SYN_DROPPED the frames the kernel kept are read, from the state they were written against")
    func dropKeepsQueuedFrames() throws {
        let uinput = try UinputDevice(description: TestDevices.touchscreen)
        let reader = try EvdevDevice(path: try #require(uinput.devnode))
        func move(_ step: Int32) -> [InputEvent] {
            [
                InputEvent(type: .absolute, code: .multitouchSlot, value: 0),
                InputEvent(type: .absolute, code: .multitouchPositionX, value: 1000 + step),
                InputEvent(type: .absolute, code: .multitouchSlot, value: 1),
                InputEvent(type: .absolute, code: .multitouchPositionX, value: 3000 + step),
                .synchronizationReport(),
            ]
        }
        try uinput.write(frame: [
            InputEvent(type: .absolute, code: .multitouchSlot, value: 0),
            InputEvent(type: .absolute, code: .multitouchTrackingID, value: 1),
            InputEvent(type: .absolute, code: .multitouchPositionX, value: 1000),
            InputEvent(type: .absolute, code: .multitouchPositionY, value: 500),
            InputEvent(type: .absolute, code: .multitouchSlot, value: 1),
            InputEvent(type: .absolute, code: .multitouchTrackingID, value: 2),
            InputEvent(type: .absolute, code: .multitouchPositionX, value: 3000),
            InputEvent(type: .absolute, code: .multitouchPositionY, value: 500),
            InputEvent(type: .key, code: .buttonTouch, value: 1),
            .synchronizationReport(),
        ])
        // Nine events: slot 0 is already selected, so the kernel leaves out ABS_MT_SLOT 0.
        #expect(try drain(reader).count == 9)
        // Far more than the reader's buffer (~512 events), unread: the
        // kernel drops what was queued. Slot 1 lifts early (in the gap),
        // slot 0's y changes only there.
        for step in Int32(1)...400 {
            var frame = move(step)
            if step == 10 {
                frame.insert(InputEvent(type: .absolute, code: .multitouchTrackingID, value: -1), at: 4)
                frame.insert(InputEvent(type: .absolute, code: .multitouchPositionY, value: 700), at: 2)
            }
            try uinput.write(frame: step > 10 ? Array(frame[0...1]) + [frame[4]] : frame)
        }

        var outcomes: [ReadOutcome] = []
        while true {
            let outcome = try reader.nextEvent()
            if outcome == .wouldBlock { break }
            outcomes.append(outcome)
        }
        guard case .resyncNeeded = outcomes.first else {
            Issue.record("expected a drop first, read \(outcomes.prefix(3))")
            return
        }
        let done = try #require(outcomes.firstIndex(of: .resyncDone))
        let resync = outcomes[1..<done].compactMap { if case .resyncEvent(let event) = $0 { event } else { nil } }
        #expect(resync.count == done - 1)
        // The state the kept frames start from: slot 1 lifted, slot 0's y moved.
        #expect(contents(resync).contains("EV_ABS ABS_MT_TRACKING_ID -1"))
        #expect(contents(resync).contains("EV_ABS ABS_MT_POSITION_Y 700"))
        #expect(resync.last?.isSynchronizationReport == true)
        // Then the frames the kernel kept, whole: libevdev would pass none.
        let kept = outcomes[(done + 1)...].compactMap { if case .event(let event) = $0 { event } else { nil } }
        #expect(kept.count == outcomes.count - done - 1)
        let frames = kept.split(whereSeparator: \.isSynchronizationReport).map(Array.init)
        #expect(kept.last?.isSynchronizationReport == true)
        #expect(frames.count >= 50, "kept \(frames.count) frames")
        // Slot 0 stays selected, so the kernel sends no ABS_MT_SLOT: the
        // slot of the kept frames is the one the device has selected now.
        #expect(frames.allSatisfy { contents($0) == ["EV_ABS ABS_MT_POSITION_X \($0[0].value)"] })
        #expect(frames.last?.last?.value == 1400)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1[0].value == $0[0].value + 1 })
        #expect(reader.slotValue(slot: 0, code: .multitouchPositionX) == 1400)
        #expect(reader.slotValue(slot: 0, code: .multitouchPositionY) == 700)
        #expect(reader.slotValue(slot: 1, code: .multitouchTrackingID) == -1)
        #expect(!reader.isResyncing)
    }

    @Test("A uinput button device delivers key presses")
    func buttons() throws {
        let uinput = try UinputDevice(description: TestDevices.buttons)
        let reader = try EvdevDevice(path: try #require(uinput.devnode))
        var description = reader.description
        description.codes[.synchronization] = nil
        #expect(description == TestDevices.buttons)
        try reader.grab()
        let press: [InputEvent] = [
            InputEvent(type: .key, code: .keyVolumeUp, value: 1), .synchronizationReport(),
            InputEvent(type: .key, code: .keyVolumeUp, value: 0), .synchronizationReport(),
        ]
        try uinput.write(frame: press)
        #expect(contents(try drain(reader)) == contents(press))
        try reader.ungrab()
    }

    @Test("A destroyed device is reported as vanished")
    func vanished() throws {
        var uinput: UinputDevice? = try UinputDevice(description: TestDevices.buttons)
        let reader = try EvdevDevice(path: try #require(uinput?.devnode))
        uinput = nil
        #expect(throws: SystemError(
            call: "read", path: reader.path, errorNumber: 19, kind: .deviceVanished)
        ) {
            _ = try reader.nextEvent()
        }
    }

    @Test("udev announces a new uinput device, classifies it and enumerates it")
    func udevSeesNewDevice() throws {
        let udev = try Udev()
        // Opened before creating, so the "add" cannot be missed.
        let monitor = try udev.monitor()
        let uinput = try UinputDevice(description: TestDevices.touchscreen)
        let node = try #require(uinput.devnode)
        // Node numbers are reused; the input device's syspath is not.
        let syspath = try #require(uinput.syspath)

        var added: UdevEvent?
        // Wait on the monitor's descriptor (no fixed sleep); give up after
        // 30 s without any event, or after 50 unrelated events.
        for _ in 0..<50 where added == nil {
            guard try Poll.waitReadable(monitor.fileDescriptor, timeoutMilliseconds: 30_000) else { break }
            while let event = try monitor.receive() {
                if event.action == .add && event.device.syspath.hasPrefix(syspath + "/") { added = event }
            }
        }
        let event = try #require(added)
        #expect(event.device.node == node)
        #expect(event.device.classes.contains(.touchscreen), "\(event.device)")
        #expect(event.device.name == TestDevices.touchscreen.name)
        #expect(event.device.vendor == 0x1d6b)
        #expect(event.device.product == 0x0001)
        #expect(event.device.bus == 0x06)

        let listed = try #require(try udev.inputDevices().first { $0.node == node })
        #expect(listed.classes.contains(.touchscreen), "\(listed)")
        // The classifier's reading of the capabilities agrees with udev's own.
        #expect(DeviceClassifier.kind(udevClasses: listed.classes) == DeviceClassifier.kind(of: TestDevices.touchscreen))
        #expect(DeviceClassifier.udevClasses(of: TestDevices.touchscreen).isSubset(of: listed.classes), "\(listed)")
        #expect(listed.name == TestDevices.touchscreen.name)
        #expect(listed.syspath.hasPrefix(syspath + "/"))
    }
}
