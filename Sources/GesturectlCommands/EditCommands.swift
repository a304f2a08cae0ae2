import CommandKit
import GestureEditing
import GestureModel
import GestureRender

/// `merge`, `fingers`, `transform`: edit gestures.
enum EditCommands {
    static let section = SynthCommand.section

    private static let strictFlag: TypedOption<Bool> = .flag(
        "strict", help: "Refuse instead of clipping points pushed outside the surface to its edge.")

    /// The edges `merge --align` takes.
    enum AlignEdge: String, CaseIterable, Sendable {
        /// Groups start together (the default).
        case start
        /// Groups end together.
        case end
    }

    /// `merge`'s options.
    enum MergeOptions {
        static let gestures: TypedArgument<[String]> = .oneOrMore(
            "gestures", help: "The gestures to merge (NAME|FILE).", completion: .gesture)
        static let align: TypedOption<AlignEdge> = .choice(
            "align", valueName: "edge", help: "Start groups together or end them together.", default: .start)
        static let stagger: TypedOption<[Int64]> = .durations(
            "stagger", valueName: "times", help: "Start offsets: one step, or a comma-separated list (e.g. 0,100ms,250ms).")
        static let maximumFingers: TypedOption<Int> = .integer(
            "max-fingers", valueName: "n", help: "Refuse a result with more fingers down at once.", type: .integer(in: 1...100),
            default: GestureEditor.defaultMaximumFingers)
    }

    /// `fingers`' options.
    enum FingersOptions {
        static let gesture: TypedArgument<String> = .required(
            "gesture", help: "The gesture with the stroke to copy (NAME|FILE).", completion: .gesture)
        static let count: TypedArgument<Int> = .integer("count", help: "How many fingers (2–10).", type: .integer(in: 2...10))
        static let spacing: TypedOption<Double> = .number(
            "spacing", valueName: "mm", help: "Distance between neighbouring fingers.", type: .double(above: 0),
            default: GestureEditor.defaultFingerSpacingMM)
        static let layout: TypedOption<FingerLayout> = .choice(
            "layout", valueName: "layout", help: "Fingers in a straight row or on an arc.", default: .row)
        static let delay: TypedOption<Microseconds> = .duration(
            "delay", valueName: "time", help: "Each finger starts this long after the previous one.", default: .zero)
        static let stroke: TypedOption<Int?> = .integer(
            "stroke", valueName: "n", help: "Which stroke to copy (1 = first) when there are several.", type: .integer(minimum: 1))
    }

    /// `transform`'s options.
    enum TransformOptions {
        static let gesture: TypedArgument<String> = .required(
            "gesture", help: "The gesture to change (NAME|FILE).", completion: .gesture)
        static let speed: TypedOption<Double?> = .number(
            "speed", valueName: "factor", help: "Play faster (2 = twice as fast) or slower (0.5).", type: .double(minimum: 0.001))
        static let scale: TypedOption<Double?> = .number(
            "scale", valueName: "factor", help: "Make the gesture larger or smaller.", type: .double(minimum: 0.001))
        static let rotate: TypedOption<Double?> = .number(
            "rotate", valueName: "degrees", help: "Turn the gesture (clockwise positive).")
        static let about: TypedOption<[Double]> = .numbers(
            "about", valueName: "x,y", help: "The point to scale and rotate about, in mm (default: the gesture's centre).")
        static let translate: TypedOption<[Double]> = .numbers(
            "translate", valueName: "dx,dy", help: "Move the gesture by dx,dy mm (y grows downward).")
        static let fit: TypedOption<String?> = .string(
            "fit", valueName: "w:h", help: "Re-express the gesture on a surface of this aspect ratio (e.g. 16:9).")
        static let trim: TypedOption<Bool> = .flag(
            "trim", help: "Remove idle time before the first contact and stillness longer than --max-still at the ends of moving strokes.")
        static let maxStill: TypedOption<Microseconds> = .duration(
            "max-still", valueName: "time", help: "With --trim: longest stillness kept.", default: GestureEditor.defaultMaxStill)
    }

    /// Prints the operation's warnings and writes its gesture, named for
    /// what it now is (see ``ResultNaming``); `--name`/`--description`
    /// given by the user win.
    private static func finish(
        _ result: EditResult, origin: String, values: ParsedValues, context: CommandContext
    ) throws {
        for warning in result.warnings { context.warn(warning) }
        try GestureOutput.write(ResultNaming.named(result.gesture, origin: origin), values: values, context: context)
    }

    /// Runs an editing operation, turning its errors into failures that
    /// name the input.
    /// `input` is as it should be shown (``shown(_:)`` or ``listed(_:limit:quoted:)``).
    private static func edit(_ input: String, _ operation: () throws(EditError) -> EditResult) throws -> EditResult {
        do {
            return try operation()
        } catch {
            throw CommandFailure.failure("\(input): \(error.description)")
        }
    }

    static let merge = Command(
        name: "merge", abstract: "Merge strokes drawn one after another into one multi-finger gesture.",
        discussion: """
            Each stroke becomes a finger and all play at once, as
            AssistiveTouch's custom gestures do. Strokes that already overlap
            in time (a real two-finger touch) stay together as a group with
            their timing. Groups are aligned by start (the default), by end,
            or with explicit offsets: --stagger 100ms starts each group 100 ms
            after the previous one; --stagger 0,50ms,200ms gives each group its
            start (the last step repeats for further groups).
            Several files: their groups are taken in order, positions mapped
            by physical size onto the first file's device.

            Examples:
              gesturectl merge strokes.gesture.json -o three-finger.gesture.json
              gesturectl merge a.gesture.json b.gesture.json --align end --save both
            """,
        section: section,
        arguments: [MergeOptions.gestures],
        options: [MergeOptions.align, MergeOptions.stagger, MergeOptions.maximumFingers] + GestureOutput.options
    ) { values, context in
        let inputs = values[MergeOptions.gestures]
        let gestures = try inputs.map { try context.loadGesture($0) }
        var alignment: MergeAlignment =
            switch values[MergeOptions.align] {
            case .start: .start
            case .end: .end
            }
        if values.isGiven(MergeOptions.stagger) {
            if values.isGiven(MergeOptions.align) { throw CommandFailure.usage("--stagger and --align cannot be used together") }
            alignment = .stagger(values[MergeOptions.stagger].map { Microseconds($0) })
        }
        let result = try edit(listed(inputs)) { () throws(EditError) in
            try GestureEditor.merge(gestures, alignment: alignment, maximumFingers: values[MergeOptions.maximumFingers])
        }
        let names = zip(gestures, inputs).map { ResultNaming.name(of: $0, input: $1) }
        try finish(result, origin: ResultNaming.mergeOrigin(names), values: values, context: context)
    }

    static let fingers = Command(
        name: "fingers", abstract: "Replicate one stroke onto 2–10 fingers that move together.",
        discussion: """
            The stroke's path becomes the middle of a hand: the copies sit
            --spacing mm apart in a row or on an arc like fingertips, and each
            moves exactly as the original did. --delay starts each finger
            that much after the previous one.

            Examples:
              gesturectl fingers swipe.gesture.json 3 -o three-finger-swipe.gesture.json
              gesturectl synth swipe --direction up | gesturectl fingers - 4 --layout arc --save up4
            """,
        section: section,
        arguments: [FingersOptions.gesture, FingersOptions.count],
        options: [FingersOptions.spacing, FingersOptions.layout, FingersOptions.delay, FingersOptions.stroke, strictFlag]
            + GestureOutput.options
    ) { values, context in
        let input = values[FingersOptions.gesture]
        let count = values[FingersOptions.count]
        let gesture = try context.loadGesture(input)
        AssumedSize.note(gesture.device, of: shown(input), options: ["spacing"], context: context)
        // --stroke counts from 1, the editor from 0: check here so the
        // message speaks the user's numbers.
        if let stroke = values[FingersOptions.stroke], stroke > gesture.strokes.count {
            throw CommandFailure.usage(
                "--stroke \(stroke): \(shown(input)) has \(Plural.count(gesture.strokes.count, "stroke")) (--stroke counts from 1)")
        }
        let result = try edit(shown(input)) { () throws(EditError) in
            try GestureEditor.fingers(
                gesture, count: count, spacingMM: values[FingersOptions.spacing], layout: values[FingersOptions.layout],
                delay: values[FingersOptions.delay], strokeIndex: values[FingersOptions.stroke].map { $0 - 1 },
                strict: values[strictFlag])
        }
        let source = ResultNaming.name(of: gesture, input: input)
        let copied = values[FingersOptions.stroke].map { "stroke \($0) of \(source)" } ?? source
        try finish(result, origin: "Replicated from \(copied) onto \(count) fingers.", values: values, context: context)
    }

    static let transform = Command(
        name: "transform", abstract: "Change a gesture's speed, size, position, angle or aspect ratio.",
        discussion: """
            The changes apply in this order: --trim, --speed, --scale,
            --rotate, --translate, --fit. Scaling and rotating are about the
            centre of the gesture unless --about gives a point (mm from the
            top-left corner); positive degrees turn clockwise on the screen.
            Points pushed outside the surface are clipped to its edge with a
            warning; --strict refuses instead.

            Examples:
              gesturectl transform pinch-in --speed 0.5 -o slow-pinch.gesture.json
              gesturectl transform swipe.gesture.json --rotate 90 --scale 1.5 --save big-swipe
              gesturectl transform tap --translate 20,-10 --fit 9:16
            """,
        section: section,
        arguments: [TransformOptions.gesture],
        options: [
            TransformOptions.speed, TransformOptions.scale, TransformOptions.rotate, TransformOptions.about,
            TransformOptions.translate, TransformOptions.fit, TransformOptions.trim, TransformOptions.maxStill, strictFlag,
        ] + GestureOutput.options
    ) { values, context in
        let input = values[TransformOptions.gesture]
        var result = EditResult(gesture: try context.loadGesture(input))
        AssumedSize.note(
            result.gesture.device, of: shown(input),
            options: [TransformOptions.about, TransformOptions.translate].filter { values.isGiven($0) }.map(\.name),
            context: context)
        let strict = values[strictFlag]
        let anchor: Anchor
        switch values[TransformOptions.about] {
        case []: anchor = .centre
        case let point where point.count == 2: anchor = .point(xMM: point[0], yMM: point[1])
        default: throw CommandFailure.usage("--about takes two numbers, x,y in mm (e.g. --about 108,67.5)")
        }
        var fitRatio: AspectRatio?
        if let text = values[TransformOptions.fit] {
            guard let ratio = AspectRatio(text) else {
                throw CommandFailure.usage("--fit: \"\(shown(text))\" is not an aspect ratio like 16:9")
            }
            fitRatio = ratio
        }
        let translation = values[TransformOptions.translate]
        if !translation.isEmpty && translation.count != 2 {
            throw CommandFailure.usage("--translate takes two numbers, dx,dy in mm (e.g. --translate 20,-10)")
        }
        // Each step keeps the warnings of the steps before it.
        func apply(_ step: (Gesture) throws(EditError) -> EditResult) throws {
            let next = try edit(shown(input)) { () throws(EditError) in try step(result.gesture) }
            result = EditResult(gesture: next.gesture, warnings: result.warnings + next.warnings)
        }
        let source = ResultNaming.name(of: result.gesture, input: input)
        // What was done, in the order it was done, for the description.
        var steps: [String] = []
        if values[TransformOptions.trim] {
            let maxStill = values[TransformOptions.maxStill]
            try apply { (gesture) throws(EditError) in try GestureEditor.trim(gesture, maxStill: maxStill) }
            steps.append("trimmed")
        }
        if let factor = values[TransformOptions.speed] {
            try apply { (gesture) throws(EditError) in try GestureEditor.speed(gesture, factor: factor) }
            steps.append("speed × \(ResultNaming.number(factor))")
        }
        if let factor = values[TransformOptions.scale] {
            try apply { (gesture) throws(EditError) in
                try GestureEditor.scale(gesture, factor: factor, about: anchor, strict: strict)
            }
            steps.append("scaled × \(ResultNaming.number(factor))")
        }
        if let degrees = values[TransformOptions.rotate] {
            try apply { (gesture) throws(EditError) in
                try GestureEditor.rotate(gesture, degrees: degrees, about: anchor, strict: strict)
            }
            steps.append("turned \(ResultNaming.number(abs(degrees)))° \(degrees < 0 ? "anticlockwise" : "clockwise")")
        }
        if translation.count == 2 {
            try apply { (gesture) throws(EditError) in
                try GestureEditor.translate(gesture, dxMM: translation[0], dyMM: translation[1], strict: strict)
            }
            steps.append("moved by \(ResultNaming.number(translation[0])),\(ResultNaming.number(translation[1])) mm")
        }
        if let fitRatio {
            try apply { (gesture) throws(EditError) in
                try GestureEditor.fit(gesture, aspectRatio: fitRatio, strict: strict)
            }
            steps.append("fitted to \(fitRatio)")
        }
        if steps.isEmpty {
            throw CommandFailure.usage("nothing to do: give at least one of --trim, --speed, --scale, --rotate, --translate, --fit")
        }
        try finish(
            result, origin: "Made from \(source): \(steps.joined(separator: ", ")).", values: values, context: context)
    }
}
