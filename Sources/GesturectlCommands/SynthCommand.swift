import CommandKit
import GestureModel
import GestureSynth

/// `synth SHAPE`: author a gesture without a device.
enum SynthCommand {
    static let section = "Make and edit gestures"

    /// Options every shape takes.
    private static let commonOptions: [Option] = [
        .option(
            "rate", valueName: "hz", help: "Samples per second.", type: .integer(in: SynthDefaults.sampleRateRange),
            default: String(SynthDefaults.sampleRateHz)),
        .option(
            "like", valueName: "name|file",
            help: "Use the device geometry of this gesture instead of the default 216 × 135 mm touchscreen.",
            completion: .gesture),
    ] + GestureOutput.options

    private static func fingers(_ range: ClosedRange<Int>, default value: Int) -> Option {
        .option(
            "fingers", valueName: "n", help: "How many fingers (\(range.lowerBound)–\(range.upperBound)).",
            type: .integer(in: range), default: String(value))
    }
    private static let spacing = Option.option(
        "spacing", valueName: "mm", help: "Distance between neighbouring fingers in the row.",
        type: .double(above: 0), default: number(SynthDefaults.spacingMM))
    private static let centre = Option.option(
        "centre", valueName: "x,y",
        help: "Where the gesture is centred, in mm from the top-left corner (default: the middle).",
        type: .list(of: .double))
    private static func duration(_ value: Microseconds, name: String = "duration", help: String) -> Option {
        .option(
            name, valueName: "time", help: help + " (e.g. 0.25, 250ms).",
            type: .duration(minimum: 1, maximum: SynthDefaults.maximumDuration.rawValue),
            default: DurationText.format(microseconds: value.rawValue))
    }

    /// A default as people write it (GestureModel's one number format).
    private static func number(_ value: Double) -> String { DecimalText.shortest(value) }

    private static func shapeCommand(
        _ name: String, abstract: String, discussion: String, options: [Option],
        shape: @escaping @Sendable (ParsedValues) throws -> SynthShape
    ) -> Command {
        let usesSpacing = options.contains { $0.name == "spacing" }
        return Command(name: name, abstract: abstract, discussion: discussion, options: options + commonOptions) {
            values, context in
            var options = SynthOptions()
            if let like = values.string("like") {
                options.geometry = try context.loadGesture(like).device
                // Every length of a synthesised gesture is in millimetres.
                AssumedSize.note(options.geometry, of: shown(like), options: ["like"], context: context)
            }
            if let rate = values.integer("rate") { options.sampleRateHz = rate }
            if usesSpacing, let spacing = values.double("spacing") { options.spacingMM = spacing }
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
        let numbers = values.doubles("centre")
        if numbers.isEmpty { return nil }
        guard numbers.count == 2 else {
            throw CommandFailure.usage("--centre takes two numbers, x,y in mm (e.g. --centre 108,67.5)")
        }
        return MillimetrePoint(x: numbers[0], y: numbers[1])
    }

    private static func micro(_ values: ParsedValues, _ name: String) -> Microseconds {
        Microseconds(values.duration(name) ?? 0)
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
                options: [fingers(1...10, default: 1), duration(SynthDefaults.tapDuration, help: "How long each finger touches"), spacing, centre]
            ) { values in
                .tap(fingers: values.integer("fingers") ?? 1, centre: try centrePoint(values), duration: micro(values, "duration"))
            },
            shapeCommand(
                "double-tap", abstract: "Fingers tap twice.",
                discussion: "Example: gesturectl synth double-tap --gap 150ms",
                options: [
                    fingers(1...10, default: 1),
                    duration(SynthDefaults.tapDuration, name: "tap-duration", help: "How long each tap touches"),
                    duration(SynthDefaults.doubleTapGap, name: "gap", help: "Time between lifting and touching again"),
                    spacing, centre,
                ]
            ) { values in
                .doubleTap(
                    fingers: values.integer("fingers") ?? 1, centre: try centrePoint(values),
                    tapDuration: micro(values, "tap-duration"), gap: micro(values, "gap"))
            },
            shapeCommand(
                "long-press", abstract: "Fingers touch and hold without moving.",
                discussion: "Example: gesturectl synth long-press --duration 1.5s",
                options: [fingers(1...10, default: 1), duration(SynthDefaults.longPressDuration, help: "How long to hold"), spacing, centre]
            ) { values in
                .longPress(fingers: values.integer("fingers") ?? 1, centre: try centrePoint(values), duration: micro(values, "duration"))
            },
            shapeCommand(
                "swipe", abstract: "A row of fingers moves in a straight line.",
                discussion: """
                    The motion is centred on --centre: it starts half the distance
                    before it and ends half the distance after it.
                    Example: gesturectl synth swipe --direction left --fingers 3 --distance 60
                    """,
                options: [
                    .option("direction", valueName: "dir", help: "Which way the fingers move.", type: .choice(SwipeDirection.allCases.map(\.rawValue)), required: true),
                    fingers(1...10, default: 1),
                    .option("distance", valueName: "mm", help: "How far the fingers move.", type: .double(above: 0), default: number(SynthDefaults.swipeDistanceMM)),
                    duration(SynthDefaults.swipeDuration, help: "How long the motion takes"), spacing, centre,
                ]
            ) { values in
                .swipe(
                    direction: SwipeDirection(rawValue: values.string("direction") ?? "") ?? .up,
                    fingers: values.integer("fingers") ?? 1, distanceMM: values.double("distance") ?? SynthDefaults.swipeDistanceMM,
                    duration: micro(values, "duration"), centre: try centrePoint(values))
            },
            shapeCommand(
                "pinch", abstract: "Fingers on a circle move towards (in) or away from (out) its centre.",
                discussion: """
                    In goes from a 30 mm to a 10 mm radius, out from 10 to 30, unless
                    --start-radius/--end-radius or --distance (how far each finger
                    moves) say otherwise.
                    Example: gesturectl synth pinch --direction in --fingers 5
                    """,
                options: [
                    .option("direction", valueName: "dir", help: "in: fingers close; out: fingers open.", type: .choice(PinchDirection.allCases.map(\.rawValue)), required: true),
                    fingers(2...10, default: 2),
                    .option("start-radius", valueName: "mm", help: "Radius at the start.", type: .double(above: 0)),
                    .option("end-radius", valueName: "mm", help: "Radius at the end.", type: .double(above: 0)),
                    .option("distance", valueName: "mm", help: "How far each finger moves.", type: .double(above: 0)),
                    duration(SynthDefaults.pinchDuration, help: "How long the motion takes"), centre,
                ]
            ) { values in
                .pinch(
                    direction: PinchDirection(rawValue: values.string("direction") ?? "") ?? .in,
                    fingers: values.integer("fingers") ?? 2, startRadiusMM: values.double("start-radius"),
                    endRadiusMM: values.double("end-radius"), distanceMM: values.double("distance"),
                    duration: micro(values, "duration"), centre: try centrePoint(values))
            },
            shapeCommand(
                "rotate", abstract: "Fingers on a circle turn together around its centre.",
                discussion: "Positive degrees turn clockwise on the screen.\nExample: gesturectl synth rotate --degrees -45 --fingers 3",
                options: [
                    .option("degrees", valueName: "deg", help: "How far to turn (clockwise positive).", type: .double(in: -SynthDefaults.maximumRotateDegrees...SynthDefaults.maximumRotateDegrees), default: number(SynthDefaults.rotateDegrees)),
                    fingers(2...10, default: 2),
                    .option("radius", valueName: "mm", help: "Radius of the circle.", type: .double(above: 0), default: number(SynthDefaults.rotateRadiusMM)),
                    duration(SynthDefaults.rotateDuration, help: "How long the motion takes"), centre,
                ]
            ) { values in
                .rotate(
                    degrees: values.double("degrees") ?? SynthDefaults.rotateDegrees, fingers: values.integer("fingers") ?? 2,
                    radiusMM: values.double("radius") ?? SynthDefaults.rotateRadiusMM,
                    duration: micro(values, "duration"), centre: try centrePoint(values))
            },
            shapeCommand(
                "edge-swipe", abstract: "Fingers start on an edge of the surface and move inward.",
                discussion: """
                    --along places the fingers along the edge, in mm from its left
                    (top/bottom edges) or top (left/right edges) end.
                    Example: gesturectl synth edge-swipe --from bottom --distance 50
                    """,
                options: [
                    .option("from", valueName: "edge", help: "The edge to start on.", type: .choice(SurfaceEdge.allCases.map(\.rawValue)), required: true),
                    fingers(1...10, default: 1),
                    .option("distance", valueName: "mm", help: "How far the fingers move inward.", type: .double(above: 0), default: number(SynthDefaults.edgeSwipeDistanceMM)),
                    duration(SynthDefaults.edgeSwipeDuration, help: "How long the motion takes"),
                    .option("along", valueName: "mm", help: "Position along the edge (default: its middle).", type: .double),
                    spacing,
                ]
            ) { values in
                .edgeSwipe(
                    from: SurfaceEdge(rawValue: values.string("from") ?? "") ?? .left,
                    fingers: values.integer("fingers") ?? 1,
                    distanceMM: values.double("distance") ?? SynthDefaults.edgeSwipeDistanceMM,
                    duration: micro(values, "duration"), alongMM: values.double("along"))
            },
        ]
    )
}
