import GestureModel
import InputSystem

/// A relative pointer (mouse, trackball, head pointer) moving over a
/// virtual screen, or an absolute pointer (``init(absolute:)``) at the
/// positions its `ABS_X`/`ABS_Y` report.
///
/// `REL_X`/`REL_Y` are summed over a frame and added to the position,
/// which starts at the screen's centre and is clamped to its edges; an
/// absolute pointer's position is its last `ABS_X`/`ABS_Y` (the recorder
/// clamps it into the device's axes). A press
/// of `BTN_LEFT`, `BTN_RIGHT` or `BTN_MIDDLE` starts a stroke with that
/// button (left before right before middle when several are pressed in one
/// frame); releasing that button ends it. Other buttons pressed during a
/// stroke are ignored, and a button still held when the stroke ends starts
/// nothing until it is pressed again. Within a frame, motion is applied
/// before the buttons, so the first sample is where the press happened
/// after that frame's motion.
struct PointerTracker: ContactTracker {
    private let width: Int
    private let height: Int
    private var x: Int
    private var y: Int
    private var motionX = 0
    private var motionY = 0
    private var held: Set<PointerButton> = []
    private var pressedThisFrame: Set<PointerButton> = []
    private var active: PointerButton?
    private var generation = 0
    /// Whether positions come from `ABS_X`/`ABS_Y` instead of relative motion.
    private let isAbsolute: Bool

    /// The most motion summed in one frame, in pixels per axis; far beyond
    /// any screen, and small enough that the sum cannot overflow.
    private static let motionLimit = 1 << 40

    var pointerPosition: PointerPosition? { PointerPosition(x: x, y: y) }

    /// A pointer at the centre of a `width` × `height` virtual screen.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        x = width / 2
        y = height / 2
        isAbsolute = false
    }

    /// An absolute pointer starting at `start` (the device's position when
    /// recording begins, or its axes' minimum).
    init(absolute start: (x: Int, y: Int)) {
        width = Int.max
        height = Int.max
        x = start.x
        y = start.y
        isAbsolute = true
    }

    mutating func apply(_ event: InputEvent) {
        if event.type == .absolute && isAbsolute {
            switch event.code {
            case .absoluteX: x = Int(event.value)
            case .absoluteY: y = Int(event.value)
            default: break
            }
        } else if event.type == .relative && !isAbsolute {
            switch event.code {
            case .relativeX: motionX = Self.addClamped(motionX, Int(event.value))
            case .relativeY: motionY = Self.addClamped(motionY, Int(event.value))
            default: break
            }
        } else if event.type == .key {
            let button: PointerButton
            switch event.code {
            case .buttonLeft: button = .left
            case .buttonRight: button = .right
            case .buttonMiddle: button = .middle
            default: return
            }
            switch event.value {
            case 0: held.remove(button)
            case 1:
                held.insert(button)
                pressedThisFrame.insert(button)
            default: break  // 2 is an auto-repeat of a held button
            }
        }
    }

    mutating func endFrame() -> [ContactKey: ContactPoint] {
        if !isAbsolute {
            x = min(max(x + motionX, 0), width - 1)
            y = min(max(y + motionY, 0), height - 1)
        }
        motionX = 0
        motionY = 0
        if let button = active, !held.contains(button) { active = nil }
        if active == nil,
            let button = PointerButton.allCases.first(where: { pressedThisFrame.contains($0) && held.contains($0) })
        {
            active = button
            generation &+= 1
        }
        pressedThisFrame = []
        guard let button = active else { return [:] }
        return [ContactKey(slot: 0, generation: generation): ContactPoint(x: x, y: y, kind: .pointer, button: button)]
    }

    mutating func load(_ snapshot: DeviceStateSnapshot) {
        let buttons: [(EventCode, PointerButton)] = [(.buttonLeft, .left), (.buttonRight, .right), (.buttonMiddle, .middle)]
        held = Set(buttons.filter { snapshot.keysDown.contains($0.0) }.map(\.1))
        if isAbsolute {
            if let value = snapshot.absoluteValues[.absoluteX] { x = Int(value) }
            if let value = snapshot.absoluteValues[.absoluteY] { y = Int(value) }
        }
    }

    private static func addClamped(_ total: Int, _ value: Int) -> Int {
        min(max(total + value, -motionLimit), motionLimit)
    }
}
