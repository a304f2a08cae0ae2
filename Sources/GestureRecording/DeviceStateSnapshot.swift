import InputSystem

/// The state of a device when recording begins: which slot is selected,
/// what each slot holds, which keys are down and the absolute axes' values.
///
/// The recorder applies it before the first event so that per-slot state
/// carries over correctly. Contacts already down in the snapshot are not
/// recorded: their touch-down happened before the recording, so a stroke
/// begins only with a touch-down the recorder sees. They are followed
/// until they lift, so that a slot's next contact is recognised as new.
public struct DeviceStateSnapshot: Hashable, Sendable {
    /// The values of one multi-touch slot.
    public struct Slot: Hashable, Sendable {
        /// `ABS_MT_TRACKING_ID`: -1 when the slot holds no contact.
        public var trackingID: Int32
        /// `ABS_MT_POSITION_X`.
        public var x: Int32?
        /// `ABS_MT_POSITION_Y`.
        public var y: Int32?
        /// `ABS_MT_PRESSURE`.
        public var pressure: Int32?
        /// `ABS_MT_TOUCH_MAJOR`.
        public var size: Int32?

        /// Creates a slot's values.
        public init(trackingID: Int32 = -1, x: Int32? = nil, y: Int32? = nil, pressure: Int32? = nil, size: Int32? = nil) {
            self.trackingID = trackingID
            self.x = x
            self.y = y
            self.pressure = pressure
            self.size = size
        }
    }

    /// The slot the next `ABS_MT_*` events belong to (0 unless the device
    /// says otherwise).
    public var currentSlot: Int
    /// The values of each slot, by slot number.
    public var slots: [Int: Slot]
    /// The keys and buttons that are down (`EV_KEY` codes with value 1).
    public var keysDown: Set<EventCode>
    /// The values of non-slot absolute axes, e.g. `ABS_X`, `ABS_PRESSURE`.
    public var absoluteValues: [EventCode: Int32]

    /// Creates a snapshot; the default is a device at rest with slot 0 selected.
    public init(
        currentSlot: Int = 0, slots: [Int: Slot] = [:], keysDown: Set<EventCode> = [],
        absoluteValues: [EventCode: Int32] = [:]
    ) {
        self.currentSlot = currentSlot
        self.slots = slots
        self.keysDown = keysDown
        self.absoluteValues = absoluteValues
    }
}

extension EvdevDevice {
    /// The device's state as libevdev knows it now (right after opening,
    /// this is what the kernel reported): the current slot, every slot's
    /// values, the touch, tool and mouse buttons that are down, and the
    /// single-touch axes (`libevdev_get_current_slot`,
    /// `libevdev_fetch_slot_value`, `libevdev_fetch_event_value`).
    public func recordingSnapshot() -> DeviceStateSnapshot {
        var snapshot = DeviceStateSnapshot(currentSlot: currentSlot ?? 0)
        for slot in 0..<slotCount {
            snapshot.slots[slot] = DeviceStateSnapshot.Slot(
                trackingID: slotValue(slot: slot, code: .multitouchTrackingID) ?? -1,
                x: slotValue(slot: slot, code: .multitouchPositionX),
                y: slotValue(slot: slot, code: .multitouchPositionY),
                pressure: slotValue(slot: slot, code: .multitouchPressure),
                size: slotValue(slot: slot, code: .multitouchTouchMajor))
        }
        let keys: [EventCode] = [
            .buttonTouch, .buttonToolPen, .buttonToolRubber, .buttonLeft, .buttonRight, .buttonMiddle,
        ]
        for key in keys where value(type: .key, code: key) == 1 {
            snapshot.keysDown.insert(key)
        }
        for axis in [EventCode.absoluteX, .absoluteY, .absolutePressure] {
            if let axisValue = value(type: .absolute, code: axis) { snapshot.absoluteValues[axis] = axisValue }
        }
        return snapshot
    }
}
