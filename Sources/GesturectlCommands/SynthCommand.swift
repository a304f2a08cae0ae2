import CommandKit
import GestureModel
import GestureSynth

/// `synth SHAPE`: author a gesture without a device.
enum SynthCommand {
    static let section = "Make and edit gestures"

    /// `--rate`: samples per second.
    private static let rate: TypedOption<Int> = .integer(
        "rate", valueName: "hz", help: "Samples per second.", type: .integer(in: SynthDefaults.sampleRateRange),
        default: SynthDefaults.sampleRateHz)
    /// `--like`: another gesture's device.
    private static let like: TypedOption<String?> = .string(
        "like", valueName: "name|file",
        help: "Use the device geometry of this gesture instead of the default 216 × 135 mm touchscreen.",
        completion: .gesture)

    /// Options every shape takes.
    private static let commonOptions: [any OptionDeclaration] = [rate, like] + GestureOutput.options

    private static func fingers(_ range: ClosedRange<Int>, default value: Int) -> TypedOption<Int> {
        .integer(
            "fingers", valueName: "n", help: "How many fingers (\(range.lowerBound)–\(range.upperBound)).",
            type: .integer(in: range), default: value)
    }
    /// `--fingers` of the shapes that start from one finger, and of those that need two.
    private static let oneOrMoreFingers = fingers(1...10, default: 1)
    private static let twoOrMoreFingers = fingers(2...10, default: 2)
    private static let spacing: TypedOption<Double> = .number(
        "spacing", valueName: "mm", help: "Distance between neighbouring fingers in the row.",
        type: .double(above: 0), default: SynthDefaults.spacingMM)
    private static let centre: TypedOption<[Double]> = .numbers(
        "centre", valueName: "x,y",
        help: "Where the gesture is centred, in mm from the top-left corner (default: the middle).")
    private static func duration(_ value: Microseconds, name: String = "duration", help: String) -> TypedOption<Microseconds> {
        .duration(
            name, valueName: "time", help: help + " (e.g. 0.25, 250ms).",
            type: .duration(minimum: 1, maximum: SynthDefaults.maximumDuration.rawValue), default: value)
    }
    private static let distance: TypedOption<Double?> = .number(
        "distance", valueName: "mm", help: "How far each finger moves.", type: .double(above: 0))

    /// Each shape's own options.
    private enum Tap {
        static let duration = SynthCommand.duration(SynthDefaults.tapDuration, help: "How long each finger touches")
    }
    private enum DoubleTap {
        static let tapDuration = SynthCommand.duration(
            SynthDefaults.tapDuration, name: "tap-duration", help: "How long each tap touches")
        static let gap = SynthCommand.duration(
            SynthDefaults.doubleTapGap, name: "gap", help: "Time between lifting and touching again")
    }
    private enum LongPress {
        static let duration = SynthCommand.duration(SynthDefaults.longPressDuration, help: "How long to hold")
    }
    private enum Swipe {
        static let direction: TypedOption<SwipeDirection> = .requiredChoice(
            "direction", valueName: "dir", help: "Which way the fingers move.")
        static let distance: TypedOption<Double> = .number(
            "distance", valueName: "mm", help: "How far the fingers move.", type: .double(above: 0),
            default: SynthDefaults.swipeDistanceMM)
        static let duration = SynthCommand.duration(SynthDefaults.swipeDuration, help: "How long the motion takes")
    }
    private enum Pinch {
        static let direction: TypedOption<PinchDirection> = .requiredChoice(
            "direction", valueName: "dir", help: "in: fingers close; out: fingers open.")
        static let startRadius: TypedOption<Double?> = .number(
            "start-radius", valueName: "mm", help: "Radius at the start.", type: .double(above: 0))
        static let endRadius: TypedOption<Double?> = .number(
            "end-radius", valueName: "mm", help: "Radius at the end.", type: .double(above: 0))
        static let duration = SynthCommand.duration(SynthDefaults.pinchDuration, help: "How long the motion takes")
    }
    private enum Rotate {
        static let degrees: TypedOption<Double> = .number(
            "degrees", valueName: "deg", help: "How far to turn (clockwise positive).",
            type: .double(in: -SynthDefaults.maximumRotateDegrees...SynthDefaults.maximumRotateDegrees),
            default: SynthDefaults.rotateDegrees)
        static let radius: TypedOption<Double> = .number(
            "radius", valueName: "mm", help: "Radius of the circle.", type: .double(above: 0), default: SynthDefaults.rotateRadiusMM)
        static let duration = SynthCommand.duration(SynthDefaults.rotateDuration, help: "How long the motion takes")
    }
    private enum EdgeSwipe {
        static let from: TypedOption<SurfaceEdge> = .requiredChoice("from", valueName: "edge", help: "The edge to start on.")
        static let distance: TypedOption<Double> = .number(
            "distance", valueName: "mm", help: "How far the fingers move inward.", type: .double(above: 0),
            default: SynthDefaults.edgeSwipeDistanceMM)
        static let duration = SynthCommand.duration(SynthDefaults.edgeSwipeDuration, help: "How long the motion takes")
        static let along: TypedOption<Double?> = .number(
            "along", valueName: "mm", help: "Position along the edge (default: its middle).")
    }

    private static func shapeCommand(
        _ name: String, abstract: String, discussion: String, options: [any OptionDeclaration],
        shape: @escaping @Sendable (ParsedValues) throws -> SynthShape
    ) -> Command {
        let usesSpacing = options.contains { $0.declaration.name == spacing.name }
        return Command(name: name, abstract: abstract, discussion: discussion, options: options + commonOptions) {
            values, context in
            var options = SynthOptions()
            if let like = values[SynthCommand.like] {
                options.geometry = try context.loadGesture(like).device
                // Every length of a synthesised gesture is in millimetres.
                AssumedSize.note(options.geometry, of: shown(like), options: ["like"], context: context)
            }
            options.sampleRateHz = values[rate]
            if usesSpacing { options.spacingMM = values[spacing] }
            let gesture: Gesture
            do {
                gesture = try GestureSynthesizer.synthesize(try shape(values), options: options)
            } catch let error as SynthError {
                throw CommandFailure.usage(error.description)
            }
            try GestureOutput.write(gesture, values: values, context: context)
        }
    }

    private static func centrePoint(_ values: ParsedValues) throws -> MillimetrePoint? {
        let numbers = values[centre]
        if numbers.isEmpty { return nil }
        guard numbers.count == 2 else {
            throw CommandFailure.usage("--centre takes two numbers, x,y in mm (e.g. --centre 108,67.5)")
        }
        return MillimetrePoint(x: numbers[0], y: numbers[1])
    }

    static let command = Command(
        name: "synth", abstract: "Make a gesture without a device: tap, swipe, pinch, rotate, edge swipe…",
        discussion: """
            Shapes are drawn on a 216 × 135 mm touchscreen (axes 0–21600 ×
            0–13500, 100 units/mm) unless --like names a gesture whose device
            to use. Motion is at constant speed; samples come at --rate per
            second and the last one lands exactly at the end.

            Examples:
              gesturectl synth swipe --direction up --fingers 3 -o swipe.gesture.json
              gesturectl synth pinch --direction out --save zoom-in
              gesturectl synth tap --fingers 2 | gesturectl show -
            """,
        section: section,
        subcommands: [
            shapeCommand(
                "tap", abstract: "Fingers touch and lift without moving.",
                discussion: "Example: gesturectl synth tap --fingers 2 --centre 50,40",
                options: [oneOrMoreFingers, Tap.duration, spacing, centre]
            ) { values in
                .tap(fingers: values[oneOrMoreFingers], centre: try centrePoint(values), duration: values[Tap.duration])
            },
            shapeCommand(
                "double-tap", abstract: "Fingers tap twice.",
                discussion: "Example: gesturectl synth double-tap --gap 150ms",
                options: [oneOrMoreFingers, DoubleTap.tapDuration, DoubleTap.gap, spacing, centre]
            ) { values in
                .doubleTap(
                    fingers: values[oneOrMoreFingers], centre: try centrePoint(values),
                    tapDuration: values[DoubleTap.tapDuration], gap: values[DoubleTap.gap])
            },
            shapeCommand(
                "long-press", abstract: "Fingers touch and hold without moving.",
                discussion: "Example: gesturectl synth long-press --duration 1.5s",
                options: [oneOrMoreFingers, LongPress.duration, spacing, centre]
            ) { values in
                .longPress(fingers: values[oneOrMoreFingers], centre: try centrePoint(values), duration: values[LongPress.duration])
            },
            shapeCommand(
                "swipe", abstract: "A row of fingers moves in a straight line.",
                discussion: """
                    The motion is centred on --centre: it starts half the distance
                    before it and ends half the distance after it.
                    Example: gesturectl synth swipe --direction left --fingers 3 --distance 60
                    """,
                options: [Swipe.direction, oneOrMoreFingers, Swipe.distance, Swipe.duration, spacing, centre]
            ) { values in
                .swipe(
                    direction: values[Swipe.direction], fingers: values[oneOrMoreFingers], distanceMM: values[Swipe.distance],
                    duration: values[Swipe.duration], centre: try centrePoint(values))
            },
            shapeCommand(
                "pinch", abstract: "Fingers on a circle move towards (in) or away from (out) its centre.",
                discussion: """
                    In goes from a 30 mm to a 10 mm radius, out from 10 to 30, unless
                    --start-radius/--end-radius or --distance (how far each finger
                    moves) say otherwise.
                    Example: gesturectl synth pinch --direction in --fingers 5
                    """,
                options: [Pinch.direction, twoOrMoreFingers, Pinch.startRadius, Pinch.endRadius, distance, Pinch.duration, centre]
            ) { values in
                .pinch(
                    direction: values[Pinch.direction], fingers: values[twoOrMoreFingers],
                    startRadiusMM: values[Pinch.startRadius], endRadiusMM: values[Pinch.endRadius], distanceMM: values[distance],
                    duration: values[Pinch.duration], centre: try centrePoint(values))
            },
            shapeCommand(
                "rotate", abstract: "Fingers on a circle turn together around its centre.",
                discussion: "Positive degrees turn clockwise on the screen.\nExample: gesturectl synth rotate --degrees -45 --fingers 3",
                options: [Rotate.degrees, twoOrMoreFingers, Rotate.radius, Rotate.duration, centre]
            ) { values in
                .rotate(
                    degrees: values[Rotate.degrees], fingers: values[twoOrMoreFingers], radiusMM: values[Rotate.radius],
                    duration: values[Rotate.duration], centre: try centrePoint(values))
            },
            shapeCommand(
                "edge-swipe", abstract: "Fingers start on an edge of the surface and move inward.",
                discussion: """
                    --along places the fingers along the edge, in mm from its left
                    (top/bottom edges) or top (left/right edges) end.
                    Example: gesturectl synth edge-swipe --from bottom --distance 50
                    """,
                options: [EdgeSwipe.from, oneOrMoreFingers, EdgeSwipe.distance, EdgeSwipe.duration, EdgeSwipe.along, spacing]
            ) { values in
                .edgeSwipe(
                    from: values[EdgeSwipe.from], fingers: values[oneOrMoreFingers], distanceMM: values[EdgeSwipe.distance],
                    duration: values[EdgeSwipe.duration], alongMM: values[EdgeSwipe.along])
            },
        ]
    )
}
