import CommandKit
import GestureEngine
import GestureInterop
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem

/// `import` and `export`: evemu and libinput record files.
enum InteropCommands {
    static let section = DevicesCommand.section

    static let importCommand = Command(
        name: "import", abstract: "Turn an evemu or libinput record recording into a gesture.",
        discussion: """
            Reads a file written by evemu-record (or evemu-describe plus
            events) or by 'libinput record' (its first device), and runs its
            events through the same recorder as 'gesturectl record': one stroke
            per contact, the device's geometry from its description. The
            format is detected from the content. docs/INTEROP.md has details.
            A recording whose times go backwards, or whose values lie beyond
            the device's own axis ranges, is repaired (times kept from going
            back, values clamped into the axes) with a warning that counts
            the samples changed; --strict refuses it instead.

            Example:
              gesturectl import swipe.evemu -o swipe.gesture.json
            """,
        section: section,
        arguments: [Argument("file", help: "The recording ('-' for standard input).", completion: .files)],
        options: [
            .flag("sequential", help: "Make all strokes start together, as 'record --sequential' does."),
            .option("screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: "1920x1080"),
            .flag("strict", help: "Refuse a recording that would have to be repaired (times going backwards, values beyond the axes)."),
        ] + GestureOutput.options
    ) { values, context in
        let file = values.argument("file") ?? "-"
        // As large as an export can be: import reads what export writes.
        let bytes = try context.readFile(file, limit: GestureLimits.maximumRecordingBytes)
        let source = file == "-" ? "<stdin>" : file
        let recording = try InteropReader.read(bytes: bytes, source: source)
        if !recording.ignoredLines.isEmpty {
            // Said, not silently dropped: evemu-play skips them too.
            let lines = listed(recording.ignoredLines.map(String.init))
            let what =
                recording.ignoredLines.count == 1
                ? "line \(lines), which is neither an event nor a comment"
                : "\(recording.ignoredLines.count) lines (\(lines)), which are neither events nor comments"
            context.warn("\(shown(source)): skipped \(what) (as evemu-play does)")
        }
        let screen = values.string("screen") ?? "1920x1080"
        let size = screen.lowercased().split(separator: "x").compactMap { Int($0) }
        guard size.count == 2 else { throw CommandFailure.usage("--screen: \"\(shown(screen))\" is not a screen size like 1920x1080") }
        var baseName = FileIO.baseName(source)
        if let dot = baseName.lastIndex(of: "."), dot != baseName.startIndex { baseName = String(baseName[..<dot]) }
        let handle = try context.engine.startImport(
            recording, options: RecorderOptions(virtualScreenWidth: size[0], virtualScreenHeight: size[1]),
            sequential: values.flag("sequential"),
            details: RecordingDetails(
                name: baseName, tool: "gesturectl \(Gesturectl.version) import (\(recording.format.rawValue))"))
        context.cancelledBySignals(handle)
        switch await context.untilFinished(handle) {
        case .success(let recorded):
            if values.flag("strict") && !recorded.repairs.isEmpty {
                throw CommandFailure.failure(
                    "\(shown(source)): refused (--strict): " + recorded.repairs.messages.joined(separator: "; ")
                        + "; nothing was written")
            }
            for warning in recorded.warnings { context.warn("\(shown(source)): \(warning)") }
            try GestureOutput.write(recorded.gesture, values: values, context: context)
        case .failure(let error):
            throw CommandFailure.failure("\(shown(source)): \(error)")
        }
    }

    static let exportCommand = Command(
        name: "export", abstract: "Write a gesture as an evemu or libinput record file that those tools replay.",
        discussion: """
            The file holds the description of the virtual device 'gesturectl
            play --as KIND' would create, and the events it would play.
            Replay it with:
              evemu-device FILE   (then: evemu-play /dev/input/eventN < FILE)
              libinput replay FILE

            The text is written as it is made, so a gesture of any length
            exports in little memory; 'gesturectl import' reads it back.

            Example:
              gesturectl export pinch-in --format libinput -o pinch-in.yml
            """,
        section: section,
        arguments: [Argument("gesture", help: "The gesture (NAME|FILE).", completion: .gesture)],
        options: [
            .option("format", valueName: "format", help: "The file format.", type: .choice(["evemu", "libinput"]), required: true),
            .option("as", valueName: "kind", help: "The device to describe.", type: .choice(PlayCommand.kinds), default: "touchscreen"),
            .option("speed", valueName: "factor", help: "Play faster (2) or slower (0.5).", type: .double(in: 0.01...100), default: "1"),
            .option("output", short: "o", valueName: "file", help: "Where to write ('-' for standard output).", default: "-", completion: .files),
            GestureOutput.forceFlag,
        ]
    ) { values, context in
        let gesture = try context.loadGesture(values.argument("gesture") ?? "")
        let kind = DeviceKind(rawValue: values.string("as") ?? "touchscreen") ?? .touchscreen
        let stream = try context.engine.frameStream(
            for: PlayRequest(gesture: gesture, target: .kind(kind), options: PlaybackOptions(speed: values.double("speed") ?? 1)))
        try writeFrames(
            of: stream.gesture, with: stream.builder, format: values.string("format") == "evemu" ? .evemu : .libinput,
            to: values.string("output") ?? "-", force: values.flag("force"), context: context)
    }

    /// The text formats frames are written in.
    enum TextFormat { case evemu, libinput }

    /// How much text is gathered before it is written: large enough that
    /// writes are few, small enough that memory does not grow with the play.
    static let chunkBytes = 1 << 16

    /// Writes the frames that play `gesture` with `builder` as evemu or
    /// libinput record text where `-o` points, frame by frame in pieces of
    /// about ``chunkBytes``: the memory used does not grow with the
    /// gesture's length. Every check (the gesture, its contacts on the
    /// device) comes before anything is written; a failed write stops it
    /// and is reported.
    static func writeFrames(
        of gesture: Gesture, with builder: FrameBuilder, format: TextFormat, to output: String, force: Bool,
        context: CommandContext
    ) throws {
        let description = builder.target.description
        try GestureOutput.writeStream(to: output, force: force, context: context) { write in
            var text: String
            var evemu = EvemuWriter.EventWriter()
            var libinput = LibinputRecordWriter.EventWriter()
            switch format {
            case .evemu: text = EvemuWriter.description(description) + EvemuWriter.eventsBanner
            case .libinput: text = LibinputRecordWriter.header(description: description)
            }
            text.reserveCapacity(chunkBytes + 4_096)
            var failure: (any Error)?
            try builder.forEachFrame(for: gesture) { frame, _ in
                switch format {
                case .evemu: evemu.append(frame, to: &text)
                case .libinput: libinput.append(frame, to: &text)
                }
                guard text.utf8.count >= chunkBytes else { return true }
                do {
                    try write(text)
                } catch {
                    failure = error
                    return false
                }
                text.removeAll(keepingCapacity: true)
                return true
            }
            if let failure { throw failure }
            try write(text)
        }
    }
}
