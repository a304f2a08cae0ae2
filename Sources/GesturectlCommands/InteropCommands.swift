import CommandKit
import GestureEngine
import GestureInterop
import GestureLibrary
import GestureModel
import GesturePlayback
import GestureRecording
import InputSystem
import OperatingSystem

/// `import` and `export`: evemu and libinput record files.
enum InteropCommands {
    static let section = DevicesCommand.section

    /// `import`'s recording.
    private static let file: TypedArgument<String> = .required(
        "file", help: "The recording ('-' for standard input).", completion: .files)

    /// `import`'s options (the rest are ``GestureOutput``'s).
    private enum ImportOptions {
        static let sequential: TypedOption<Bool> = .flag(
            "sequential", help: "Make all strokes start together, as 'record --sequential' does.")
        static let screen: TypedOption<String> = .string(
            "screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: OptionDefault.screen)
        static let viewport: TypedOption<String?> = .string(
            "viewport", valueName: "WxH",
            help: "The viewport of a WebDriver payload, in CSS pixels (default: the smallest that holds every position).")
        static let strict: TypedOption<Bool> = .flag(
            "strict", help: "Refuse a recording that would have to be repaired (times going backwards, values beyond the axes).")
    }

    /// The formats `export --format` writes.
    enum FormatName: String, CaseIterable, Sendable {
        case evemu, libinput
        case androidUinput = "android-uinput"
        case webdriver
    }

    /// How `export --format webdriver` times its moves.
    enum Moves: String, CaseIterable, Sendable {
        /// A pause, then an instant move (chromedriver), once per display
        /// frame of a finger's movement; the default.
        case stepped
        /// As stepped, but only where the path bends, at most one every
        /// --tick-ms: fewer, costlier moves (issue 39: the form before).
        case sparse
        /// Each move lasts until its point is due (drivers that interpolate, such as Appium), where the path bends.
        case gliding
    }

    /// `export`'s gesture.
    private static let gesture: TypedArgument<String> = .required("gesture", help: "The gesture (NAME|FILE).", completion: .gesture)

    /// `export`'s options.
    private enum ExportOptions {
        static let format: TypedOption<FormatName> = .requiredChoice("format", valueName: "format", help: "The file format.")
        static let kind: TypedOption<DeviceKind> = .choice(
            "as", valueName: "kind", help: "The device to describe.", choices: PlayCommand.kinds, default: .touchscreen)
        static let speed: TypedOption<Double> = .number(
            "speed", valueName: "factor", help: "Play faster (2) or slower (0.5).", type: .double(in: 0.01...100),
            default: PlaybackOptions.defaultSpeed)
        static let viewport: TypedOption<String?> = .string(
            "viewport", valueName: "WxH",
            help: "For --format webdriver: the viewport in CSS pixels (default: the gesture's surface at 96 pixels per inch).")
        /// Its default, the writer's, is said in the help: given, it is refused for other formats.
        static let tick: TypedOption<Int?> = .integer(
            "tick-ms", valueName: "ms",
            help: "For --format webdriver, sparse or gliding moves: the shortest time between two moves kept only because the path bends "
                + "(default \(WebDriverActionsWriter.defaultMinimumTick); 0 keeps every bend). Given alone, it means --moves sparse.",
            type: .integer(in: 0...Int(WebDriverActionsWriter.maximumMinimumTick)))
        static let moves: TypedOption<Moves?> = .choice(
            "moves", valueName: "how",
            help: "For --format webdriver: stepped (a pause, then an instant move, every display frame a finger moves: chromedriver), "
                + "sparse (the same, only where the path bends: fewer moves, for drivers where each costs more) or gliding "
                + "(each move lasts until its point is due, where the path bends: drivers that interpolate, such as Appium); default stepped.")
        /// Its default, chromedriver's, is said in the help: given, it is refused for other formats.
        static let moveCost: TypedOption<Int?> = .integer(
            "move-cost-ms", valueName: "ms",
            help: "For --format webdriver, stepped moves: what the driver spends on each move, taken out of the pause before it "
                + "(default \(WebDriverActionsWriter.chromedriverMoveCost), chromedriver's; 0 keeps the file's own times).",
            type: .integer(in: 0...1_000))
        static let output: TypedOption<String> = .string(
            "output", short: "o", valueName: "file", help: "Where to write ('-' for standard output).",
            default: GestureOutput.standardOutput, completion: .files)
    }

    static let importCommand = Command(
        name: "import",
        abstract: "Turn an evemu, libinput record, Android uinput or WebDriver actions file into a gesture.",
        discussion: """
            Reads a file written by evemu-record (or evemu-describe plus
            events), by 'libinput record' (its first device), an Android
            'uinput' command file (register, inject and delay commands) or a
            W3C WebDriver actions payload ({"actions": [...]}, one pointer
            source per finger), and runs its events through the same
            recorder as 'gesturectl record': one stroke per contact, the
            device's geometry from its description. The format is detected
            from the content. docs/INTEROP.md has details.
            A recording whose times go backwards, or whose values lie beyond
            the device's own axis ranges, is repaired (times kept from going
            back, values clamped into the axes) with a warning that counts
            the samples changed; --strict refuses it instead.

            A WebDriver payload gives positions in CSS pixels of a viewport
            it does not name: --viewport gives it (as for 'export --format
            webdriver'); without it, the smallest viewport that holds every
            position is used. Its size in millimetres is unknown.

            A long recording's samples wait in a temporary file, not in
            memory, deleted as soon as it is made: in $TMPDIR when it is
            set, else beside the output file (or in the library folder for
            --save), else in $XDG_CACHE_HOME/gesturectl or
            ~/.cache/gesturectl, else /tmp (often in memory itself).

            Examples:
              gesturectl import swipe.evemu -o swipe.gesture.json
              gesturectl import pinch.json --save pinch          # adb's uinput file
              gesturectl import actions.json --viewport 412x915 -o swipe.gesture.json
            """,
        section: section,
        arguments: [file],
        options: [ImportOptions.sequential, ImportOptions.screen, ImportOptions.viewport, ImportOptions.strict]
            + GestureOutput.options
    ) { values, context in
        let file = values[InteropCommands.file]
        let viewport = try values[ImportOptions.viewport].map { try parseViewport($0) }
        let screen = values[ImportOptions.screen]
        let size = screen.lowercased().split(separator: "x").compactMap { Int($0) }
        guard size.count == 2 else { throw CommandFailure.usage("--screen: \"\(shown(screen))\" is not a screen size like 1920x1080") }
        // As large as an export can be: import reads what export writes.
        let input = try context.fileToRead(file, limit: GestureLimits.maximumRecordingBytes)
        let source = file == "-" ? "<stdin>" : file
        var baseName = FileIO.baseName(source)
        if let dot = baseName.lastIndex(of: "."), dot != baseName.startIndex { baseName = String(baseName[..<dot]) }
        let imported = try await importStreaming(
            input, source: source, viewport: viewport,
            options: RecorderOptions(
                virtualScreenWidth: size[0], virtualScreenHeight: size[1],
                spillFolders: SpillFolders.candidates(environment: context.environment, output: spillOutput(values, context: context))),
            sequential: values[ImportOptions.sequential],
            details: RecordingDetails(name: baseName),
            context: context)
        if !imported.ignoredLines.isEmpty {
            // Said, not silently dropped: evemu-play skips them too.
            let lines = listed(imported.ignoredLines.map(String.init))
            let what =
                imported.ignoredLines.count == 1
                ? "line \(lines), which is neither an event nor a comment"
                : "\(imported.ignoredLines.count) lines (\(lines)), which are neither events nor comments"
            context.warn("\(shown(source)): skipped \(what) (as evemu-play does)")
        }
        switch imported.result {
        case .success(let recorded):
            if values[ImportOptions.strict] && !recorded.repairs.isEmpty {
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

    /// The file an import writes, for its temporary file to go beside
    /// (``GestureRecording/SpillFolders``): `-o`'s when it is a file (or
    /// nothing yet), else the library folder with `--save`; nil for
    /// standard output, a device or a FIFO.
    static func spillOutput(_ values: ParsedValues, context: CommandContext) -> String? {
        if let output = values[GestureOutput.output], output != GestureOutput.standardOutput,
            !GestureOutput.isStandardOutput(output), !GestureOutput.namesOpenDescriptor(output)
        {
            let resolved = context.resolve(output)
            // Harmless: what cannot be examined is not written beside; the next folder is used.
            switch (try? Paths.status(resolved))?.type {
            case nil, .regular?: return resolved
            default: return nil
            }
        }
        guard values[GestureOutput.save] != nil else { return nil }
        return context.library.userDirectory + "/"
    }

    /// Reads `input` and feeds the recorder as it reads, in the engine's
    /// import (cancelled by SIGINT and SIGTERM, which keep the strokes fed
    /// so far), so that the memory used is the gesture's, not the text's.
    /// Errors reading or in the file are thrown; the recorder's come back
    /// in ``GestureEngine/Engine/Imported/result``.
    static func importStreaming(
        _ input: FileToRead, source: String, viewport: WebDriverViewport?, options: RecorderOptions, sequential: Bool,
        details: RecordingDetails, context: CommandContext
    ) async throws -> Engine.Imported {
        var named = details
        named.tool = "gesturectl \(Gesturectl.version) import"
        let handle = try context.engine.startImport(
            source: source, viewport: viewport, options: options, sequential: sequential, details: named,
            open: {
                let pieces = try input.open()
                return { try pieces.next() }
            })
        do {
            return try await context.untilFinished(handle).get()
        } catch Engine.ImportError.viewportNotApplicable(let found) {
            throw CommandFailure.usage(
                "--viewport: \(shown(source)) is \(describedFormat(found)), which carries its own device size; "
                    + "--viewport is for WebDriver actions payloads")
        } catch Engine.ImportError.cancelledBeforeDevice {
            throw CommandFailure.failure("\(shown(source)): cancelled before the device was read")
        }
    }

    static let exportCommand = Command(
        name: "export",
        abstract: "Write a gesture as an evemu, libinput record, Android uinput or WebDriver actions file.",
        discussion: """
            evemu and libinput: the file holds the description of the
            virtual device 'gesturectl play --as KIND' would create, and the
            events it would play. Replay it with:
              evemu-device FILE   (then: evemu-play /dev/input/eventN < FILE)
              libinput replay FILE

            android-uinput: the same device and events as commands for
            Android's 'uinput' shell command (a register, a 500 ms delay,
            then inject and delay commands, delays in whole ms):
              adb shell uinput - < pinch.json

            webdriver: a W3C WebDriver Actions payload, one touch pointer
            source per finger, for Selenium's or Appium's perform actions
            (POST /session/ID/actions), with positions in CSS pixels of
            --viewport (default: the gesture's surface at 96 pixels per
            inch, its size in millimetres). Every touch and lift is
            written, and a finger that moves gets a move every display
            frame (1/60 s) of its movement, at the file's positions then,
            as a real finger on a 60 Hz screen: an app that tracks velocity
            (a fling, momentum scrolling) sees the movement. Each move is a
            pause, then a move of duration 0, as chromedriver needs (it
            sends a move at the start of its tick, then waits for a display
            frame: --move-cost-ms, 16 ms, is taken out of the pause before
            each move, so the lift lands on time; 0 keeps the file's own
            times, for import or another driver). --moves sparse writes
            only the frames where the path bends away from a straight, even
            line by more than half a pixel, at most one every --tick-ms
            (250 ms keeps a gesture's time within 10% in Chromium), for
            drivers where each move costs more; --moves gliding writes the
            same frames, each move lasting until its point is due, for
            drivers that move the pointer through a move's duration
            (Appium, geckodriver):
              curl -X POST -H 'Content-Type: application/json' \\
                --data @pinch.json http://127.0.0.1:4723/session/ID/actions
              driver.execute('actions', json.load(open('pinch.json')))   # Selenium (Python)

            The text is written as it is made, so a gesture of any length
            exports in little memory; 'gesturectl import' reads all four
            back.

            Examples:
              gesturectl export pinch-in --format libinput -o pinch-in.yml
              gesturectl export pinch-in --format android-uinput -o pinch-in.json
              gesturectl export three-finger-swipe-left --format webdriver --viewport 412x915 -o swipe.json
            """,
        section: section,
        arguments: [gesture],
        options: [
            ExportOptions.format, ExportOptions.kind, ExportOptions.speed, ExportOptions.viewport, ExportOptions.tick,
            ExportOptions.moves, ExportOptions.moveCost, ExportOptions.output, GestureOutput.force,
        ]
    ) { values, context in
        let formatName = values[ExportOptions.format]
        let format: TextFormat =
            switch formatName {
            case .evemu: .evemu
            case .libinput: .libinput
            case .androidUinput: .androidUinput
            case .webdriver:
                .webdriver(nil, tick: WebDriverActionsWriter.defaultMinimumTick, gliding: false, moveCost: 0, framePeriod: nil)
            }
        let viewport = try values[ExportOptions.viewport].map { try parseViewport($0) }
        if viewport != nil, case .webdriver = format {} else if viewport != nil {
            throw CommandFailure.usage("--viewport is for --format webdriver (positions in CSS pixels), not \(formatName.rawValue)")
        }
        let tick = values[ExportOptions.tick]
        if tick != nil, case .webdriver = format {} else if tick != nil {
            throw CommandFailure.usage("--tick-ms is for --format webdriver (the time between its moves), not \(formatName.rawValue)")
        }
        let moves = values[ExportOptions.moves]
        if moves != nil, case .webdriver = format {} else if let moves {
            throw CommandFailure.usage("--moves \(moves.rawValue) is for --format webdriver (how its moves are timed), not \(formatName.rawValue)")
        }
        let moveCost = values[ExportOptions.moveCost]
        if moveCost != nil, case .webdriver = format {} else if moveCost != nil {
            throw CommandFailure.usage("--move-cost-ms is for --format webdriver (what its driver spends on a move), not \(formatName.rawValue)")
        }
        if tick != nil && moves == .stepped {
            throw CommandFailure.usage(
                "--tick-ms is for --moves sparse or gliding (the time between moves kept for a bend); stepped moves come every display frame")
        }
        if moveCost != nil && moves == .gliding {
            throw CommandFailure.usage("--move-cost-ms is for stepped moves; a gliding move's own duration carries its time")
        }
        let kind = values[ExportOptions.kind]
        if case .webdriver = format, kind != .touchscreen {
            throw CommandFailure.usage(
                "--format webdriver plays touch pointers, one per finger: it needs --as touchscreen, not \(kind.rawValue)")
        }
        let gesture = try context.loadGesture(values[InteropCommands.gesture])
        let stream = try context.engine.frameStream(
            for: PlayRequest(gesture: gesture, target: .kind(kind), options: PlaybackOptions(speed: values[ExportOptions.speed])))
        var chosen = format
        if case .webdriver = format {
            chosen = .webdriver(
                viewport ?? defaultViewport(for: stream.builder.target.description, gesture: stream.gesture),
                tick: tick.map { Int64($0) } ?? WebDriverActionsWriter.defaultMinimumTick, gliding: moves == .gliding,
                moveCost: moves == .gliding ? 0 : moveCost.map { Int64($0) } ?? WebDriverActionsWriter.chromedriverMoveCost,
                // Every display frame unless --moves says otherwise, or --tick-ms alone asks for the sparse form.
                framePeriod: (moves ?? (tick == nil ? .stepped : .sparse)) == .stepped ? WebDriverActionsWriter.displayFrame : nil)
        }
        try writeFrames(
            of: stream.gesture, with: stream.builder, format: chosen,
            to: values[ExportOptions.output], force: values[GestureOutput.force], context: context)
    }

    /// `WxH` as a viewport, or a usage error naming the option.
    static func parseViewport(_ text: String) throws -> WebDriverViewport {
        guard let viewport = WebDriverViewport(parsing: text) else {
            throw CommandFailure.usage(
                "--viewport: \"\(shown(text))\" is not a viewport size like 1080x1920 "
                    + "(width and height in CSS pixels, 1 to \(WebDriverViewport.maximumSide))")
        }
        return viewport
    }

    /// The surface the frames are played on, at 96 CSS pixels per inch:
    /// the device's axes over their resolution, or the gesture's surface
    /// (its stated, derived or assumed size) when the device has none.
    static func defaultViewport(for description: InputDeviceDescription, gesture: Gesture) -> WebDriverViewport {
        func millimetres(_ code: EventCode, fallback: Double) -> Double {
            guard let axis = description.absoluteAxes[code], axis.resolution > 0 else { return fallback }
            return (Double(axis.maximum) - Double(axis.minimum)) / Double(axis.resolution)
        }
        return WebDriverViewport(
            millimetresWide: millimetres(.multitouchPositionX, fallback: gesture.device.surfaceWidthMM),
            high: millimetres(.multitouchPositionY, fallback: gesture.device.surfaceHeightMM))
    }

    /// "an evemu recording", … for messages.
    static func describedFormat(_ format: InteropFormat) -> String {
        switch format {
        case .evemu: "an evemu recording"
        case .libinputRecord: "a libinput record file"
        case .androidUinput: "an Android uinput command file"
        case .webdriver: "a WebDriver actions payload"
        case .unknown: "in no known format"
        }
    }

    /// The text formats frames are written in.
    enum TextFormat {
        case evemu, libinput, androidUinput
        /// WebDriver actions in a viewport (always given by the time frames
        /// are written), moves kept only for a bend at least `tick` ms apart.
        /// `gliding`: see ``GestureInterop/WebDriverActionsWriter/gliding``.
        /// `moveCost`: see ``GestureInterop/WebDriverActionsWriter/moveCost``.
        /// `framePeriod`: see ``GestureInterop/WebDriverActionsWriter/framePeriod``.
        case webdriver(WebDriverViewport?, tick: Int64, gliding: Bool, moveCost: Int64, framePeriod: Int64?)
    }

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
        if case .webdriver(let viewport, let tick, let gliding, let moveCost, let framePeriod) = format {
            // Source by source: the frames are made once per source, so
            // memory stays small (see WebDriverActionsWriter).
            let writer = WebDriverActionsWriter(
                description: description, viewport: viewport ?? defaultViewport(for: description, gesture: gesture), minimumTick: tick,
                gliding: gliding, moveCost: moveCost, framePeriod: framePeriod)
            try builder.forEachFrame(for: gesture) { _, _ in false }  // every check before anything is written
            try GestureOutput.writeStream(to: output, force: force, context: context) { write in
                try writer.write(
                    frames: { body in try builder.forEachFrame(for: gesture) { frame, _ in body(frame) } }, write: write)
            }
            return
        }
        try GestureOutput.writeByteStream(to: output, force: force, context: context) { write in
            var bytes: [UInt8] = []
            var evemu = EvemuWriter.EventWriter()
            var libinput = LibinputRecordWriter.EventWriter()
            var android = AndroidUinputWriter.EventWriter()
            var text = ""
            switch format {
            case .evemu: bytes.append(contentsOf: (EvemuWriter.description(description) + EvemuWriter.eventsBanner).utf8)
            case .libinput: bytes.append(contentsOf: LibinputRecordWriter.header(description: description).utf8)
            case .androidUinput, .webdriver: bytes.append(contentsOf: AndroidUinputWriter.header(description: description).utf8)
            }
            bytes.reserveCapacity(chunkBytes + 4_096)
            var failure: (any Error)?
            try builder.forEachFrame(for: gesture) { frame, _ in
                // evemu and libinput record format straight into bytes.
                switch format {
                case .evemu: evemu.append(frame, to: &bytes)
                case .libinput: libinput.append(frame, to: &bytes)
                case .androidUinput, .webdriver:
                    android.append(frame, to: &text)
                    bytes.append(contentsOf: text.utf8)
                    text.removeAll(keepingCapacity: true)
                }
                guard bytes.count >= chunkBytes else { return true }
                do {
                    try write(bytes)
                } catch {
                    failure = error
                    return false
                }
                bytes.removeAll(keepingCapacity: true)
                return true
            }
            if let failure { throw failure }
            try write(bytes)
        }
    }
}
