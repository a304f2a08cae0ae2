import CommandKit
import GestureAssist
import GestureEngine
import GestureLibrary
import GestureModel
import GestureRecording
import GestureRender
import OperatingSystem

/// `create`: AssistiveTouch's "Create New Gesture" as a guided flow in the
/// terminal, by keys or by one switch.
enum CreateCommand {
    static let section = "Assistive"

    static let command = Command(
        name: "create", abstract: "Create a gesture step by step: draw strokes one after another, review, save (keys or one switch).",
        discussion: """
            AssistiveTouch's "Create New Gesture". Recording starts at the first
            touch (or the first button-down of a mouse, trackball or head
            pointer); each stroke you lift becomes a finger, and all of them
            play together. Each stroke is announced as it lands:
              Stroke 2: swipe down · 0.60 s · 40 mm
            Stop with Return (or after --idle-timeout without a touch), then
            choose: Review (a picture in the terminal, and an SVG written to
            --picture), Save, Add a stroke, Undo last stroke, Record again,
            Play on a virtual device (this acts on the live desktop), Discard.
            Return picks the highlighted choice (never a destructive one by
            default), arrows and Tab move, 1-9 pick directly, Escape goes
            back. Discard, and saving over an existing name, ask first.

            With one switch (--switch DEVICE --switch-key KEY, the device named
            by a stable identity as 'gesturectl devices' shows it) menus scan:
            one item is highlighted at a time (--scan-interval, default 1 s;
            the first item --first-item-hold longer, default 0.7 s), two loops
            (--scan-loops), then scanning pauses until the next press. A press
            picks the highlighted item, a long press (--long-press, 800 ms)
            goes back, holding 3 s is the emergency stop: everything is
            cancelled and released. Presses that follow a release within
            --debounce are ignored. While recording, presses do nothing unless
            --switch-stops-recording; recording ends after --idle-timeout. By
            switch, Save offers the suggested name (rename it later).

            The drawing device is grabbed while recording, so strokes do not
            act on the desktop (--no-grab keeps it live). Every state change
            is one line of plain text; --plain (automatic when standard output
            is no terminal or TERM is dumb) prints only those lines, with no
            escape sequences. --speak also speaks them with spd-say
            (speech-dispatcher), in words: "2 fingers, swipe down, 0.6
            seconds, 40 millimetres". Colour is never the only signal, and
            NO_COLOR turns it off.

            Exit status: 0 when saved, 1 when discarded or failed, 130 after
            Ctrl-C or the emergency stop (nothing is saved then).

            Examples:
              gesturectl create --device "ELAN Touchscreen"
              gesturectl create --switch usb-Ablenet_Switch-event-kbd --switch-key KEY_ENTER --scan-interval 1.5s
              gesturectl create --plain --speak
            """,
        section: section,
        options: [
            .option(
                "device", short: "d", valueName: "device",
                help: "The drawing device: an event node, a by-id or by-path link, a name, or vendor:product (default: the only touch or pointer device).",
                completion: .files),
            .flag("no-grab", help: "Leave the drawing device live while recording (strokes then also act on the desktop)."),
            .option(
                "idle-timeout", valueName: "seconds", help: "Recording ends this long after the last contact lifted.",
                type: .duration(in: 500_000...600_000_000), default: "3s"),
            .option("screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: "1920x1080"),
            .option("as", valueName: "kind", help: "The virtual device \"Play on a virtual device\" uses.", type: .choice(PlayCommand.kinds), default: "touchscreen"),
            .option("picture", valueName: "file", help: "Where Review writes the SVG picture.", default: "gesturectl-review.svg", completion: .files),
            .option(
                "switch", valueName: "device", help: "Operate the flow with one switch on this device (a by-id or by-path link, a name, or vendor:product).",
                completion: .files),
            .option("switch-key", valueName: "key", help: "The switch's key or button (KEY_* or BTN_*), with --switch."),
            .flag("grab-switch", help: "Take the switch device for gesturectl alone (for a dedicated switch, never a shared keyboard)."),
            .option(
                "scan-interval", valueName: "time", help: "How long scanning highlights each item (0.3 s to 10 s).",
                type: .duration(in: ScanSettings.minimumInterval.rawValue...ScanSettings.maximumInterval.rawValue), default: "1s"),
            .option(
                "first-item-hold", valueName: "time", help: "How much longer the first item stays highlighted.",
                type: .duration(in: 0...10_000_000), default: "700ms"),
            .option("scan-loops", valueName: "n", help: "Loops through the items before scanning pauses.", type: .integer(in: 1...100), default: "2"),
            .option(
                "debounce", valueName: "time", help: "Ignore a press that starts this soon after the previous release.",
                type: .duration(in: 0...5_000_000), default: "0"),
            .option(
                "long-press", valueName: "time", help: "Holding the switch this long goes back.",
                type: .duration(in: 100_000...2_900_000), default: "800ms"),
            .flag("switch-stops-recording", help: "A press of the switch during recording stops it."),
            .flag("plain", help: "Print only plain lines, one per state change, with no escape sequences."),
            .flag("speak", help: "Also speak every line with spd-say (speech-dispatcher)."),
        ]
    ) { values, context in
        let screen = try RecordCommand.parseScreen(values.string("screen") ?? "1920x1080")
        let switchSetup = try switchSetup(values)
        let library = context.library
        if let problem = context.libraryFolderProblem { throw CommandFailure.failure(problem) }
        let plain = values.flag("plain") || !context.isStandardOutputTerminal || context.environment["TERM"] == "dumb"
        let colour = (context.environment["NO_COLOR"] ?? "").isEmpty
        var speaker: String?
        if values.flag("speak") {
            speaker = TerminalDisplay.findSpeaker(path: context.environment["PATH"])
            if speaker == nil { context.warn("--speak: spd-say is not installed (Debian: apt install speech-dispatcher); the lines are only printed") }
        }
        let output = context.standardOutput
        let display = TerminalDisplay(
            output: { output.write(bytes: $0) }, style: plain ? .plain : .terminal(colour: colour), speaker: speaker)
        let kind = DeviceKind(rawValue: values.string("as") ?? "touchscreen") ?? .touchscreen
        let picture = values.string("picture").map { $0.isEmpty ? nil : context.resolve($0) } ?? nil
        let services = EngineCreateServices(
            engine: context.engine,
            record: RecordRequest(
                device: values.string("device"), grab: !values.flag("no-grab"),
                recorderOptions: RecorderOptions(virtualScreenWidth: screen.width, virtualScreenHeight: screen.height),
                sessionOptions: RecordingSessionOptions(idleTimeout: values.duration("idle-timeout").map { Microseconds($0) }),
                details: RecordingDetails(name: "created", recordedAt: Timestamp.iso8601(), tool: "gesturectl \(Gesturectl.version)")),
            playTarget: .kind(kind), library: library, picturePath: picture,
            picture: { renderSVG($0) })

        // Keys come from standard input: a terminal in character mode, or a
        // pipe (scripts, tests). Without either, only the switch operates it.
        var terminal: TerminalMode?
        if context.isStandardInputTerminal {
            terminal = try? TerminalMode.characterMode(.standardInput)
        }
        defer { terminal?.restore() }
        let keys = keyboard(terminal: context.isStandardInputTerminal)
        if keys == nil && switchSetup == nil {
            throw CommandFailure.usage(
                "nothing can operate the flow: standard input is no terminal, pipe or file of keys, and no --switch was given")
        }
        let flow = CreateFlow(library: LibraryNames(library), playLabel: "Play on a virtual \(kind.rawValue) (acts on the desktop)")
        let handle = try CreateSession.start(
            flow: flow, services: services, display: display, keyboard: keys,
            switchSetup: switchSetup)
        let result = await context.untilFinished(handle)
        switch result {
        case .success(.saved(_, let path)):
            context.note("saved in \(shown(path))")
        case .success(.discarded):
            throw CommandFailure.exit(.failure)
        case .success(.emergencyStopped):
            throw CommandFailure.exit(.interrupted)
        case .failure(let failure):
            throw CommandFailure.failure(failure.message)
        }
    }

    /// Keys from standard input when it is a terminal, a pipe or a file of
    /// scripted keys; not from /dev/null or a closed descriptor (then only
    /// the switch operates the flow, and nobody is told to press Return).
    private static func keyboard(terminal: Bool) -> KeyboardInput? {
        if terminal { return KeyboardInput(fileDescriptor: .standardInput) }
        guard let status = try? FileDescriptor.standardInput.status() else { return nil }
        switch status.type {
        case .fifo, .regular, .socket: return KeyboardInput(fileDescriptor: .standardInput)
        default: return nil
        }
    }

    /// The switch, its scanning and its press timings, from the options.
    private static func switchSetup(_ values: ParsedValues) throws -> SwitchSetup? {
        let device = values.string("switch")
        let key = values.string("switch-key")
        guard device != nil || key != nil else {
            for option in ["scan-interval", "first-item-hold", "scan-loops", "debounce", "long-press", "switch-stops-recording", "grab-switch"]
            where values.isGiven(option) {
                throw CommandFailure.usage("--\(option) needs a switch (--switch DEVICE --switch-key KEY)")
            }
            return nil
        }
        guard let device, let key else {
            throw CommandFailure.usage(device == nil ? "--switch-key needs --switch DEVICE" : "--switch needs --switch-key KEY (e.g. KEY_ENTER or BTN_0)")
        }
        let scanning = ScanSettings(
            interval: Microseconds(values.duration("scan-interval") ?? 1_000_000),
            firstItemHold: Microseconds(values.duration("first-item-hold") ?? 700_000),
            loops: values.integer("scan-loops") ?? 2, debounce: Microseconds(values.duration("debounce") ?? 0),
            longPress: Microseconds(values.duration("long-press") ?? 800_000))
        if let problem = scanning.problem { throw CommandFailure.usage(problem) }
        do {
            let trigger = try TriggerRequest(device: device, key: key, timings: scanning.press, grab: values.flag("grab-switch"))
            return SwitchSetup(trigger: trigger, scanning: scanning, stopsRecording: values.flag("switch-stops-recording"))
        } catch {
            throw CommandFailure.usage("--switch: \(error.message)")
        }
    }
}
