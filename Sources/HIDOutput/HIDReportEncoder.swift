import GestureModel
import GesturePlayback
import InputSystem

/// Turns the evdev frames a player writes into the HID input reports that
/// make a host's HID driver produce the same frames: pure, so that it is
/// tested without a kernel.
///
/// - Touchscreen: after each frame that changes a contact, one report with
///   every contact down (tip 1, its slot as contact identifier, X, Y,
///   pressure) and every contact lifted by the frame (tip 0, once), the
///   contact count, and the scan time. A slot whose contact is replaced by
///   another in one frame is lifted in a report of its own first, so that
///   the host sees two touches, not one that jumps.
/// - Mouse: buttons, and the frame's moves and wheel steps, split over
///   several reports when a move exceeds 16 bits.
/// - Buttons: a consumer report and/or a keyboard report when keys of that
///   page went down or up.
public struct HIDReportEncoder: Sendable {
    private let kind: HIDDevicePlan.Kind
    private var state: DeviceState

    /// An encoder for the frames of `profile`, from a device with nothing down.
    /// - Throws: ``HIDDevicePlan/Failure`` for a profile with no HID form.
    public init(profile: VirtualDeviceProfile) throws(HIDDevicePlan.Failure) {
        kind = try HIDDevicePlan.kind(of: profile)
        state = DeviceState(description: profile.description)
    }

    /// The reports for `frame`, in order; empty when the frame changes
    /// nothing a report carries (a lone `SYN_REPORT`). `scanTime` is the
    /// moment of sending (the touchscreen's Scan Time, modulo 6.5536 s).
    public mutating func reports(for frame: InputFrame, scanTime: Microseconds) -> [[UInt8]] {
        let before = state
        state.apply(frame)
        switch kind {
        case .touch(let layout):
            return touchReports(layout: layout, before: before, after: state, scanTime: scanTime)
        case .mouse:
            return mouseReports(frame: frame, before: before, after: state)
        case .buttons:
            return buttonReports(before: before, after: state)
        }
    }

    // MARK: Touchscreen

    private struct Contact {
        var slot: Int
        var tip: Bool
        var x: Int32
        var y: Int32
        var pressure: Int32
    }

    private func contact(_ state: DeviceState, slot: Int, tip: Bool) -> Contact {
        Contact(
            slot: slot, tip: tip, x: state.slotValue(slot: slot, code: .multitouchPositionX) ?? 0,
            y: state.slotValue(slot: slot, code: .multitouchPositionY) ?? 0,
            pressure: state.slotValue(slot: slot, code: .multitouchPressure) ?? 0)
    }

    private func touchReports(
        layout: HIDTouchscreenLayout, before: DeviceState, after: DeviceState, scanTime: Microseconds
    ) -> [[UInt8]] {
        let slots = 0..<min(after.slotCount, layout.contacts)
        func id(_ state: DeviceState, _ slot: Int) -> Int32 { state.slotValue(slot: slot, code: .multitouchTrackingID) ?? -1 }
        let changed = slots.contains { slot in
            [EventCode.multitouchTrackingID, .multitouchPositionX, .multitouchPositionY, .multitouchPressure].contains {
                before.slotValue(slot: slot, code: $0) != after.slotValue(slot: slot, code: $0)
            }
        }
        guard changed else { return [] }
        var reports: [[UInt8]] = []
        let replaced = slots.filter { id(before, $0) >= 0 && id(after, $0) >= 0 && id(before, $0) != id(after, $0) }
        if !replaced.isEmpty {
            let contacts = slots.filter { id(before, $0) >= 0 }.map {
                contact(before, slot: $0, tip: !replaced.contains($0))
            }
            reports.append(touchReport(layout: layout, contacts: contacts, scanTime: scanTime))
        }
        var contacts: [Contact] = []
        for slot in slots {
            if id(after, slot) >= 0 {
                contacts.append(contact(after, slot: slot, tip: true))
            } else if id(before, slot) >= 0 {
                contacts.append(contact(before, slot: slot, tip: false))
            }
        }
        reports.append(touchReport(layout: layout, contacts: contacts, scanTime: scanTime))
        return reports
    }

    private func touchReport(layout: HIDTouchscreenLayout, contacts: [Contact], scanTime: Microseconds) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: layout.inputReportLength)
        report[0] = HIDTouchscreenLayout.inputReportID
        var offset = 1
        func put(_ value: Int32, bytes: Int) {
            for index in 0..<bytes { report[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
            offset += bytes
        }
        for index in 0..<layout.contacts {
            guard index < contacts.count else {
                offset += layout.contactBytes
                continue
            }
            let contact = contacts[index]
            report[offset] = contact.tip ? 1 : 0
            report[offset + 1] = UInt8(contact.slot)
            offset += 2
            if layout.pressureBytes > 0 { put(contact.pressure, bytes: layout.pressureBytes) }
            put(contact.x, bytes: layout.axisBytes)
            put(contact.y, bytes: layout.axisBytes)
        }
        let ticks = UInt16(truncatingIfNeeded: scanTime.rawValue / 100)
        report[offset] = UInt8(ticks & 0xFF)
        report[offset + 1] = UInt8(ticks >> 8)
        report[offset + 2] = UInt8(contacts.count)
        return report
    }

    // MARK: Mouse

    private func mouseReports(frame: InputFrame, before: DeviceState, after: DeviceState) -> [[UInt8]] {
        var dx: Int64 = 0
        var dy: Int64 = 0
        var wheel: Int64 = 0
        for event in frame.events where event.type == .relative {
            switch event.code {
            case .relativeX: dx += Int64(event.value)
            case .relativeY: dy += Int64(event.value)
            case .relativeWheel: wheel += Int64(event.value)
            default: break
            }
        }
        var buttons: UInt8 = 0
        for (bit, code) in [EventCode.buttonLeft, .buttonRight, .buttonMiddle].enumerated()
        where after.pressedKeys.contains(code) {
            buttons |= 1 << UInt8(bit)
        }
        let buttonsChanged = before.pressedKeys != after.pressedKeys
        guard buttonsChanged || dx != 0 || dy != 0 || wheel != 0 else { return [] }
        var reports: [[UInt8]] = []
        repeat {
            let stepX = max(-32_767, min(32_767, dx))
            let stepY = max(-32_767, min(32_767, dy))
            let stepWheel = max(-127, min(127, wheel))
            reports.append(HIDMouseLayout.report(buttons: buttons, dx: Int16(stepX), dy: Int16(stepY), wheel: Int8(stepWheel)))
            dx -= stepX
            dy -= stepY
            wheel -= stepWheel
        } while dx != 0 || dy != 0 || wheel != 0
        return reports
    }

    // MARK: Buttons

    private func buttonReports(before: DeviceState, after: DeviceState) -> [[UInt8]] {
        func down(_ state: DeviceState, page: UInt32) -> [UInt16] {
            state.pressedKeys.compactMap { HIDButtonsLayout.usage(for: $0) }.filter { $0.page == page }.map(\.id).sorted()
                .prefix(HIDButtonsLayout.simultaneousKeys).map { $0 }
        }
        var reports: [[UInt8]] = []
        let consumer = down(after, page: HIDItem.consumerPage)
        if consumer != down(before, page: HIDItem.consumerPage) { reports.append(HIDButtonsLayout.consumerReport(consumer)) }
        let keyboard = down(after, page: HIDItem.keyboardPage)
        if keyboard != down(before, page: HIDItem.keyboardPage) { reports.append(HIDButtonsLayout.keyboardReport(keyboard)) }
        return reports
    }
}
