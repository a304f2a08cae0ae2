import GestureModel
import InputSystem

/// One contact at a time: a single-touch device (`ABS_X`/`ABS_Y`,
/// `BTN_TOUCH`, `ABS_PRESSURE`) or a pen.
///
/// The contact is down while `BTN_TOUCH` is 1; for a pen it must also be in
/// proximity (`BTN_TOOL_PEN` or `BTN_TOOL_RUBBER` is 1), so a pen that
/// leaves proximity while touching ends its stroke. A hovering pen moves
/// the position but makes no samples. Positions and pressure carry over
/// until changed; a contact is reported once both coordinates are known.
struct SingleContactTracker: ContactTracker {
    private let kind: StrokeKind
    private let requiresProximity: Bool
    private var x: Int?
    private var y: Int?
    private var pressure: Int?
    private var touching = false
    private var penInProximity = false
    private var rubberInProximity = false
    private var wasDown = false
    private var generation = 0

    /// A tracker whose strokes are of `kind`; `requiresProximity` for a pen
    /// device that reports `BTN_TOOL_PEN`.
    init(kind: StrokeKind, requiresProximity: Bool) {
        self.kind = kind
        self.requiresProximity = requiresProximity
    }

    mutating func apply(_ event: InputEvent) {
        if event.type == .absolute {
            switch event.code {
            case .absoluteX: x = Int(event.value)
            case .absoluteY: y = Int(event.value)
            case .absolutePressure: pressure = Int(event.value)
            default: break
            }
        } else if event.type == .key {
            // 1 is a press, 2 an auto-repeat of a held key; both mean down.
            let isDown = event.value != 0
            switch event.code {
            case .buttonTouch: touching = isDown
            case .buttonToolPen: penInProximity = isDown
            case .buttonToolRubber: rubberInProximity = isDown
            default: break
            }
        }
    }

    mutating func endFrame() -> [ContactKey: ContactPoint] {
        let isDown = touching && (!requiresProximity || penInProximity || rubberInProximity)
        guard isDown, let x, let y else {
            wasDown = false
            return [:]
        }
        if !wasDown { generation &+= 1 }
        wasDown = true
        return [ContactKey(slot: 0, generation: generation): ContactPoint(x: x, y: y, pressure: pressure, kind: kind)]
    }

    mutating func load(_ snapshot: DeviceStateSnapshot) {
        x = snapshot.absoluteValues[.absoluteX].map(Int.init)
        y = snapshot.absoluteValues[.absoluteY].map(Int.init)
        pressure = snapshot.absoluteValues[.absolutePressure].map(Int.init)
        touching = snapshot.keysDown.contains(.buttonTouch)
        penInProximity = snapshot.keysDown.contains(.buttonToolPen)
        rubberInProximity = snapshot.keysDown.contains(.buttonToolRubber)
    }
}
