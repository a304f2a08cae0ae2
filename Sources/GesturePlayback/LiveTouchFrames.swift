import GestureModel
import InputSystem

/// Frames for contacts that come as they happen (live input:
/// `gesturectl fingertips`) rather than from a gesture. Each call says
/// where every contact is now; the frame that takes readers there is built
/// by the writer plays use (slots lowest free first, increasing tracking
/// ids, `BTN_TOUCH`, a touchpad's finger-count tool, the pointer
/// emulation), so a live device and a played one are written alike.
public struct LiveTouchFrames: Sendable {
    /// The device written to: a touchscreen or a touchpad.
    public let target: VirtualDeviceProfile
    /// The target's surface in its own units (its `ABS_MT_POSITION_X`/`Y`
    /// axes and their resolution): positions passed in are on it.
    public let surface: DeviceGeometry
    private var writer: TouchFrameWriter
    private var held: Set<Int> = []

    /// Creates the frames of `target`.
    /// - Throws: ``PlaybackError/targetLacks(device:kind:missing:)`` for a
    ///   device without slots, tracking ids and positions,
    ///   ``PlaybackError/cannotClassify(device:)`` for one that is not a
    ///   touchscreen or a touchpad.
    public init(target: VirtualDeviceProfile) throws(PlaybackError) {
        guard target.kind == .touchscreen || target.kind == .touchpad else {
            throw .cannotClassify(device: target.description.name)
        }
        _ = try FrameBuilder(target: target)
        self.target = target
        surface = Self.surface(of: target)
        writer = TouchFrameWriter(
            gesture: Gesture(name: "live", device: surface, strokes: []), target: target, options: PlaybackOptions())
    }

    /// The surface of a touch profile: its multi-touch position axes (the
    /// single-touch ones when it has none), their resolution, its slots.
    public static func surface(of target: VirtualDeviceProfile) -> DeviceGeometry {
        let axes = target.description.absoluteAxes
        let x = axes[.multitouchPositionX] ?? axes[.absoluteX] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        let y = axes[.multitouchPositionY] ?? axes[.absoluteY] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        return DeviceGeometry(
            kind: target.kind,
            x: AxisRange(minimum: Int(x.minimum), maximum: Int(x.maximum), resolution: Int(x.resolution)),
            y: AxisRange(minimum: Int(y.minimum), maximum: Int(y.maximum), resolution: Int(y.resolution)),
            slots: max(1, target.description.slotCount))
    }

    /// The frame that leaves exactly the contacts of `positions` down, each
    /// at its position (units of ``surface``, clamped to it): a contact not
    /// held before touches down, one held before and absent now lifts, the
    /// others move. `nil` when readers would see no change. `state` is what
    /// readers know before the frame and follows it.
    /// - Throws: ``PlaybackError/frameTooLarge(events:at:)`` (more contacts
    ///   than fit one frame; ``FrameBuilder/maximumContacts`` always fit).
    public mutating func frame(
        _ positions: [Int: (x: Int, y: Int)], state: inout DeviceState, at time: Microseconds = .zero
    ) throws(PlaybackError) -> InputFrame? {
        var changes: [ContactChange] = []
        for contact in held.sorted() where positions[contact] == nil {
            changes.append(ContactChange(kind: .lift, contact: contact, sample: nil))
        }
        for contact in positions.keys.sorted() {
            guard let position = positions[contact] else { continue }
            let sample = Sample(time: time, x: surface.x.clamp(position.x), y: surface.y.clamp(position.y))
            changes.append(ContactChange(kind: held.contains(contact) ? .move : .down, contact: contact, sample: sample))
        }
        held = Set(positions.keys)
        var frames: [InputFrame] = []
        try writer.appendFrames(for: Moment(time: time, changes: changes), at: time, state: &state, to: &frames)
        return frames.first
    }
}
