import GestureModel
import InputSystem

/// Frames for a mouse: each stroke presses its button (pointer strokes
/// their own, finger and pen strokes `BTN_LEFT`) at its first sample, moves
/// by `REL_X`/`REL_Y`, and releases at its lift.
///
/// Positions are placed on a virtual screen of
/// ``PlaybackOptions/screenWidth`` × ``PlaybackOptions/screenHeight``
/// pixels by their normalised place on the gesture's surface, rounded to
/// whole pixels; each move is the difference of two rounded positions, so
/// the moves of a stroke add up exactly. The pointer starts wherever it is:
/// the first stroke begins there, and before each later stroke (and each
/// repetition) the pointer moves, button up, by the distance from the
/// previous stroke's end, in a frame of its own just before the press
/// (libinput applies a frame's buttons before its motion).
struct MouseFrameWriter: FrameWriter {
    private let supported: SupportedCodes
    private let mapper: PositionMapper
    private let buttons: [EventCode]
    private let width: Int
    private let height: Int
    /// The pointer's place on the virtual screen; `nil` before the first stroke.
    private var pointer: (x: Int, y: Int)?

    init(gesture: Gesture, description: InputDeviceDescription, options: PlaybackOptions) {
        supported = SupportedCodes(description)
        let unit = AbsoluteAxisInfo(minimum: 0, maximum: 1)
        mapper = PositionMapper(source: gesture.device, targetX: unit, targetY: unit, physicalSize: false)
        buttons = gesture.strokes.map { stroke in
            switch stroke.kind == .pointer ? stroke.button : nil {
            case .right: .buttonRight
            case .middle: .buttonMiddle
            case .left, nil: .buttonLeft
            }
        }
        width = options.screenWidth
        height = options.screenHeight
    }

    mutating func appendFrames(
        for moment: Moment, at time: Microseconds, state: inout DeviceState, to frames: inout [InputFrame]
    ) throws(PlaybackError) {
        func emit(_ build: (inout FrameAssembler) -> Void) {
            var assembler = FrameAssembler(supported: supported, taking: &state)
            build(&assembler)
            if let frame = assembler.end(at: time, into: &state) { frames.append(frame) }
        }
        for change in moment.changes where change.kind == .lift {
            emit { $0.setKey(buttons[change.contact], false) }
        }
        for change in moment.changes where change.kind == .down {
            guard let sample = change.sample else { continue }
            let target = pixel(of: sample)
            if let from = pointer {
                emit { move(&$0, from: from, to: target) }
            }
            pointer = target
            emit { $0.setKey(buttons[change.contact], true) }
        }
        for change in moment.changes where change.kind == .move {
            guard let sample = change.sample, let from = pointer else { continue }
            let target = pixel(of: sample)
            emit { move(&$0, from: from, to: target) }
            pointer = target
        }
    }

    private func move(_ assembler: inout FrameAssembler, from: (x: Int, y: Int), to: (x: Int, y: Int)) {
        // Both lie within the screen (at most 100 000 px), so the
        // differences fit in Int32.
        assembler.addRelative(.relativeX, Int32(clamping: to.x - from.x))
        assembler.addRelative(.relativeY, Int32(clamping: to.y - from.y))
    }

    private func pixel(of sample: Sample) -> (x: Int, y: Int) {
        let fractions = mapper.fractions(of: sample)
        return (Int((fractions.x * Double(width - 1)).rounded()), Int((fractions.y * Double(height - 1)).rounded()))
    }
}
