import GestureModel
import InputSystem

@testable import GesturePlayback

/// Frames as readable lines, e.g. `["ABS_MT_SLOT 1", "BTN_TOUCH 1", "SYN_REPORT 0"]`.
func lines(_ frame: InputFrame) -> [String] {
    frame.events.map { "\($0.code.nameOrNumber(type: $0.type)) \($0.value)" }
}

/// Each frame as its time and lines.
func timeline(_ frames: [InputFrame]) -> [String] {
    frames.map { "\($0.time.rawValue): " + lines($0).joined(separator: ", ") }
}

/// A finger stroke through `(time, x, y)` points.
func finger(_ points: [(Int64, Int, Int)]) -> Stroke {
    Stroke(kind: .finger, samples: points.map { Sample(time: Microseconds($0.0), x: $0.1, y: $0.2) })
}

/// A gesture on the synth default touchscreen (the same axes as the
/// default virtual touchscreen, so positions map one to one).
func touchscreenGesture(_ strokes: [Stroke], device: DeviceGeometry = .synthDefault) -> Gesture {
    Gesture(name: "test", device: device, strokes: strokes)
}

/// The default touchpad's surface as a gesture geometry.
let touchpadGeometry = DeviceGeometry(
    kind: .touchpad, x: AxisRange(minimum: 0, maximum: 1_100, resolution: 10),
    y: AxisRange(minimum: 0, maximum: 700, resolution: 10), slots: 10)

/// Frames of `gesture` on `target`.
func build(
    _ gesture: Gesture, on target: VirtualDeviceProfile = .touchscreen(), options: PlaybackOptions = PlaybackOptions()
) throws -> [InputFrame] {
    try FrameBuilder(target: target, options: options).frames(for: gesture)
}
