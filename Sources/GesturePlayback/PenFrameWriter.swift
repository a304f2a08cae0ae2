import GestureModel
import InputSystem

/// Frames for a pen tablet, one stroke at a time: at the first sample the
/// pen comes into proximity and touches (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`,
/// `BTN_TOOL_PEN 1`, `BTN_TOUCH 1`), moves update position and pressure,
/// and the lift sets pressure to its minimum, `BTN_TOUCH 0` and
/// `BTN_TOOL_PEN 0` (libinput judges the tip by pressure when there is
/// some, so pressure must fall too). A sample without pressure gets
/// ``PlaybackOptions/defaultPressure``.
struct PenFrameWriter: FrameWriter {
    private let supported: SupportedCodes
    /// `ABS_PRESSURE`, looked up once rather than for every frame.
    private let pressureAxis: AbsoluteAxisInfo?
    private let mapper: PositionMapper
    private let source: DeviceGeometry
    private let defaultPressure: Double
    private let axisX: AbsoluteAxisInfo
    private let axisY: AbsoluteAxisInfo

    init(gesture: Gesture, description: InputDeviceDescription, options: PlaybackOptions) {
        supported = SupportedCodes(description)
        pressureAxis = description.absoluteAxes[.absolutePressure]
        source = gesture.device
        defaultPressure = options.defaultPressure
        // FrameBuilder.init checked that these axes exist.
        axisX = description.absoluteAxes[.absoluteX] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        axisY = description.absoluteAxes[.absoluteY] ?? AbsoluteAxisInfo(minimum: 0, maximum: 1)
        mapper = PositionMapper(source: gesture.device, targetX: axisX, targetY: axisY, physicalSize: options.physicalSize)
    }

    mutating func appendFrames(
        for moment: Moment, at time: Microseconds, state: inout DeviceState, to frames: inout [InputFrame]
    ) throws(PlaybackError) {
        var assembler = FrameAssembler(supported: supported, taking: &state)
        for change in moment.changes where change.kind == .lift {
            if let pressure = pressureAxis {
                assembler.setAbsolute(.absolutePressure, pressure.minimum)
            }
            assembler.setKey(.buttonTouch, false)
            assembler.setKey(.buttonToolPen, false)
        }
        for change in moment.changes where change.kind != .lift {
            guard let sample = change.sample else { continue }
            let fractions = mapper.fractions(of: sample)
            assembler.setAbsolute(.absoluteX, PositionMapper.value(at: fractions.x, on: axisX))
            assembler.setAbsolute(.absoluteY, PositionMapper.value(at: fractions.y, on: axisY))
            if let axis = pressureAxis {
                let fraction = PositionMapper.fraction(of: sample.pressure, on: source.pressure, fallback: defaultPressure)
                assembler.setAbsolute(.absolutePressure, PositionMapper.value(at: fraction, on: axis))
            }
            if change.kind == .down {
                assembler.setKey(.buttonToolPen, true)
                assembler.setKey(.buttonTouch, true)
            }
        }
        if let frame = assembler.end(at: time, into: &state) { frames.append(frame) }
    }
}
