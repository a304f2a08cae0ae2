import CommandKit
import GestureModel
import GestureRender

/// `describe`, `show`, `render`, `validate`: look at gestures.
enum InspectCommands {
    static let section = "Look at gestures"

    private static let jsonFlag: TypedOption<Bool> = .flag("json", help: "Print JSON instead of text.")
    /// The gestures of `describe` and `validate`.
    private static let gestures: TypedArgument<[String]> = .oneOrMore(
        "gestures", help: "The gestures (NAME|FILE).", completion: .gesture)
    /// The gesture of `show` and `render`.
    private static let gesture: TypedArgument<String> = .required("gesture", help: "The gesture (NAME|FILE).", completion: .gesture)

    private static let spoken: TypedOption<Bool> = .flag(
        "spoken", help: "Write the summary for speech: units in words, commas for pauses.")

    /// `show`'s picture.
    private enum ShowOptions {
        static let columns: TypedOption<Int> = .integer(
            "columns", valueName: "n", help: "Width of the picture in characters.", type: .integer(in: 10...400), default: 40)
        static let rows: TypedOption<Int> = .integer(
            "rows", valueName: "n", help: "Height of the picture in lines.", type: .integer(in: 5...200), default: 12)
    }

    /// `render`'s options.
    private enum RenderOptions {
        static let output: TypedOption<String> = .string(
            "output", short: "o", valueName: "file", help: "Where to write the SVG ('-' for standard output).",
            default: GestureOutput.standardOutput, completion: .files)
        static let width: TypedOption<Int> = .integer(
            "width", valueName: "px", help: "Width of the picture in pixels.", type: .integer(in: 50...10_000),
            default: SVGOptions.defaultWidthPixels)
        static let noCaption: TypedOption<Bool> = .flag("no-caption", help: "Leave out the caption.")
        static let exact: TypedOption<Bool> = .flag("exact", help: "Keep every sample in the paths (no simplification).")
    }

    /// The facts `describe --json` and `show --json` print about a gesture.
    static func jsonFacts(_ gesture: Gesture, source: String) -> String {
        let device = gesture.device
        return JSONText.object([
            ("source", JSONText.string(source)),
            ("name", JSONText.string(gesture.name)),
            ("description", JSONText.stringOrNull(gesture.description)),
            ("summary", JSONText.string(describe(gesture))),
            ("spoken", JSONText.string(describe(gesture, style: .spoken))),
            ("fingers", String(gesture.maximumSimultaneousContacts)),
            ("strokes", String(gesture.strokes.count)),
            ("samples", String(gesture.sampleCount)),
            ("duration_s", JSONText.number(gesture.duration.seconds)),
            ("device_kind", JSONText.string(device.kind.rawValue)),
            // FORMAT.md's size rule: the size every operation uses, null
            // when unknown (never the assumed one as a fact), and whence.
            ("width_mm", device.isSizeKnown ? JSONText.number(Self.thousandths(device.surfaceWidthMM)) : "null"),
            ("height_mm", device.isSizeKnown ? JSONText.number(Self.thousandths(device.surfaceHeightMM)) : "null"),
            ("size_from", JSONText.string(Self.sizeFrom(device))),
        ])
    }

    /// `stated`, `resolution` or `unknown`: where the size comes from.
    static func sizeFrom(_ device: DeviceGeometry) -> String {
        switch device.sizeSource {
        case .stated: "stated"
        case .resolution: "resolution"
        case .assumed: "unknown"
        }
    }

    /// The device part of `show`: `touchscreen 216 × 135 mm`, `touchpad
    /// 100 × 66.7 mm (from the resolution)` or `touchpad, size unknown`.
    static func deviceSummary(_ device: DeviceGeometry) -> String {
        let size = "\(JSONText.number(tenths(device.surfaceWidthMM))) × \(JSONText.number(tenths(device.surfaceHeightMM))) mm"
        switch device.sizeSource {
        case .stated: return "\(device.kind.rawValue) \(size)"
        case .resolution: return "\(device.kind.rawValue) \(size) (from the resolution)"
        case .assumed: return "\(device.kind.rawValue), size unknown"
        }
    }

    /// A length rounded to 0.001 mm, as gesture files hold it.
    private static func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// A length rounded to 0.1 mm, for people.
    private static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static let describeCommand = Command(
        name: "describe", abstract: "Print a one-line summary a screen reader can speak.",
        discussion: """
            For example: 3 fingers · swipe up · 0.42 s · 38 mm
            --spoken writes it for speech, units in words and commas for
            pauses: 3 fingers, swipe up, 0.42 seconds, 38 millimetres
            A path that turns is an arc (with its angle), a half circle or a
            circle, clockwise or counter-clockwise, and its size; one that
            goes back and forth is a zigzag. Fingers that draw it together
            are said so: 2 fingers · circle clockwise · 1.45 s · 50 mm
            With several gestures, each line starts with the gesture's name.
            --json prints one object per gesture with the summary (and its
            spoken form), finger, stroke and sample counts, duration and
            device size.
            """,
        section: section,
        arguments: [gestures],
        options: [spoken, jsonFlag]
    ) { values, context in
        let inputs = values[gestures]
        let style: DescriptionStyle = values[spoken] ? .spoken : .text
        var objects: [String] = []
        for input in inputs {
            let gesture = try context.loadGesture(input)
            if values[jsonFlag] {
                objects.append(jsonFacts(gesture, source: input))
            } else {
                let summary = describe(gesture, style: style)
                context.print(inputs.count > 1 ? "\(shown(input)): \(summary)" : summary)
            }
        }
        if values[jsonFlag] { context.print(inputs.count == 1 ? objects[0] : JSONText.array(objects)) }
    }

    static let show = Command(
        name: "show", abstract: "Show a gesture: its summary, device and a small picture.",
        discussion: """
            The picture uses plain characters: each stroke's number at its
            start, dots along its path, an arrowhead at its end, and * for a
            finger that does not move. Colour is used only on a terminal and
            never when NO_COLOR is set.
            """,
        section: section,
        arguments: [gesture],
        options: [ShowOptions.columns, ShowOptions.rows, jsonFlag]
    ) { values, context in
        let input = values[InspectCommands.gesture]
        let gesture = try context.loadGesture(input, daemon: try context.daemonClient(values))
        if values[jsonFlag] {
            context.print(jsonFacts(gesture, source: input))
            return
        }
        let device = gesture.device
        context.print(shown(gesture.name))
        // A description may have several lines (docs/FORMAT.md); they stay lines.
        if let description = gesture.description { context.print(DisplayText.escaped(description, keepingLineBreaks: true)) }
        context.print(describe(gesture))
        context.print(
            "\(Plural.count(gesture.strokes.count, "stroke")), \(Plural.count(gesture.sampleCount, "sample")); "
                + deviceSummary(device))
        let colour = context.isStandardOutputTerminal && !context.hasValue("NO_COLOR")
        context.standardOutput.write(
            renderPreview(gesture, columns: values[ShowOptions.columns], rows: values[ShowOptions.rows], colour: colour))
    }

    static let render = Command(
        name: "render", abstract: "Draw a gesture as an SVG picture.",
        discussion: """
            The picture has the source device's aspect ratio: one path per
            stroke with an arrowhead at its end, a dot for a tap, each finger
            in its own colour and with its number at its start, and the
            one-line summary as a caption. Each path is simplified to what
            the picture can show: no sample left out lies more than a quarter
            of a pixel (at --width) from the line drawn, and what goes back
            over what the stroke drew long before (round and round a circle,
            back along its own line) is drawn once, so a long recording gives
            a small file; --exact keeps every sample.

            Example:
              gesturectl render pinch-in -o pinch-in.svg
            """,
        section: section,
        arguments: [gesture],
        options: [RenderOptions.output, RenderOptions.width, RenderOptions.noCaption, RenderOptions.exact, GestureOutput.force]
    ) { values, context in
        let gesture = try context.loadGesture(values[InspectCommands.gesture])
        var options = SVGOptions()
        options.widthPixels = values[RenderOptions.width]
        options.showsCaption = !values[RenderOptions.noCaption]
        if values[RenderOptions.exact] { options.tolerancePixels = 0 }
        try GestureOutput.writeText(
            renderSVG(gesture, options: options), to: values[RenderOptions.output], force: values[GestureOutput.force],
            context: context)
    }

    static let validate = Command(
        name: "validate", abstract: "Check gesture files and say what is wrong with each.",
        discussion: """
            Prints 'FILE: ok' with the summary for each valid gesture and the
            precise problem (line, stroke, sample) for each invalid one.
            Exits 1 if any is invalid, 3 if any is missing.
            """,
        section: section,
        arguments: [gestures]
    ) { values, context in
        var worst = ExitStatus.success
        for input in values[gestures] {
            do {
                let gesture = try context.loadGesture(input)
                context.print("\(shown(input)): ok (\(describe(gesture)))")
            } catch {
                let failure = ErrorMapping.commandFailure(for: error)
                context.error(failure.description)
                if worst == .success || failure.status == .notFound { worst = failure.status }
            }
        }
        if worst != .success { throw CommandFailure.exit(worst) }
    }
}
