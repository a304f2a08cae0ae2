import CommandKit
import GestureAssist
import GestureEngine
import GestureModel
import GestureRecording
import GestureRender
import OperatingSystem

/// The options `create` and `menu` share: the drawing device, one switch
/// and its scanning, and how lines are shown (plain, spoken); declared and
/// read once here.
enum AssistOptions {
    /// The drawing device and what Create New Gesture records, plays and writes.
    static let drawingOptions: [Option] = [
        .option(
            "device", short: "d", valueName: "device",
            help: "The drawing device: an event node, a by-id or by-path link, a name, or vendor:product (default: the only touch or pointer device).",
            completion: .files),
        .flag("no-grab", help: "Leave the drawing device live while recording (strokes then also act on the desktop)."),
        .option(
            "idle-timeout", valueName: "seconds", help: "Recording ends this long after the last contact lifted.",
            type: ValueType.duration(in: 500_000...600_000_000), default: OptionDefault.duration(OptionDefault.idleTimeout)),
        .option("screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: OptionDefault.screen),
        .option(
            "as", valueName: "kind", help: "The virtual device gestures are played on (\"Play on a virtual device\").",
            type: .choice(PlayCommand.kinds), default: DeviceKind.touchscreen.rawValue),
        .option(
            "picture", valueName: "file", help: "Where Review writes the SVG picture ('' for none; a device or FIFO is written into).",
            default: "gesturectl-review.svg", completion: .files),
    ]

    /// `--switch`, `--switch-key`, `--grab-switch` and the scanning's timings.
    static let switchOptions: [Option] = [
        .option(
            "switch", valueName: "device", help: "Operate it with one switch on this device (a by-id or by-path link, a name, or vendor:product).",
            completion: .files),
        .option("switch-key", valueName: "key", help: "The switch's key or button (KEY_* or BTN_*), with --switch."),
        .flag("grab-switch", help: "Take the switch device for gesturectl alone (for a dedicated switch, never a shared keyboard)."),
        .option(
            "scan-interval", valueName: "time", help: "How long scanning highlights each item (0.3 s to 10 s).",
            type: ValueType.duration(in: ScanSettings.minimumInterval.rawValue...ScanSettings.maximumInterval.rawValue), default: OptionDefault.duration(ScanSettings.defaultInterval)),
        .option(
            "first-item-hold", valueName: "time", help: "How much longer the first item stays highlighted.",
            type: ValueType.duration(in: 0...10_000_000), default: OptionDefault.duration(ScanSettings.defaultFirstItemHold)),
        .option(
            "scan-loops", valueName: "n", help: "Loops through the items before scanning pauses.", type: .integer(in: 1...100),
            default: String(ScanSettings.defaultLoops)),
        .option(
            "debounce", valueName: "time", help: "Ignore a press that starts this soon after the previous release.",
            type: ValueType.duration(in: 0...5_000_000), default: OptionDefault.duration(ScanSettings.defaultDebounce)),
        .option(
            "long-press", valueName: "time", help: "Holding the switch this long goes back.",
            type: ValueType.duration(in: 100_000...2_900_000), default: OptionDefault.duration(ScanSettings.defaultLongPress)),
        .flag("switch-stops-recording", help: "A press of the switch during recording stops it."),
    ]

    /// `--plain` and `--speak`.
    static let outputOptions: [Option] = [
        .flag("plain", help: "Print only plain lines, one per state change, with no escape sequences."),
        .flag("speak", help: "Also speak every line with spd-say (speech-dispatcher)."),
    ]

    /// The switch, its scanning and its press timings, from the options;
    /// `nil` without `--switch`.
    static func switchSetup(_ values: ParsedValues) throws -> SwitchSetup? {
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
            interval: Microseconds(values.durationOrDefault("scan-interval")),
            firstItemHold: Microseconds(values.durationOrDefault("first-item-hold")),
            loops: values.integerOrDefault("scan-loops"), debounce: Microseconds(values.durationOrDefault("debounce")),
            longPress: Microseconds(values.durationOrDefault("long-press")))
        if let problem = scanning.problem { throw CommandFailure.usage(problem) }
        do {
            let trigger = try TriggerRequest(device: device, key: key, timings: scanning.press, grab: values.flag("grab-switch"))
            return SwitchSetup(trigger: trigger, scanning: scanning, stopsRecording: values.flag("switch-stops-recording"))
        } catch {
            throw CommandFailure.usage("--switch: \(error.message)")
        }
    }

    /// The display on standard output: plain with `--plain`, when standard
    /// output is no terminal or TERM is dumb; colour unless NO_COLOR;
    /// spoken with `--speak` when spd-say is installed (else a warning).
    static func display(_ values: ParsedValues, context: CommandContext) -> TerminalDisplay {
        let plain = values.flag("plain") || !context.isStandardOutputTerminal || context.environment["TERM"] == "dumb"
        let colour = (context.environment["NO_COLOR"] ?? "").isEmpty
        var speaker: String?
        if values.flag("speak") {
            speaker = TerminalDisplay.findSpeaker(path: context.environment["PATH"])
            if speaker == nil { context.warn("--speak: spd-say is not installed (Debian: apt install speech-dispatcher); the lines are only printed") }
        }
        let output = context.standardOutput
        return TerminalDisplay(output: { output.write(bytes: $0) }, style: plain ? .plain : .terminal(colour: colour), speaker: speaker)
    }

    /// Keys from standard input when it is a terminal, a pipe or a file of
    /// scripted keys; not from /dev/null or a closed descriptor (then only
    /// the switch operates the flow, and nobody is told to press Return).
    static func keyboard(terminal: Bool) -> KeyboardInput? {
        if terminal { return KeyboardInput(fileDescriptor: .standardInput) }
        // Harmless: fstat fails only on a closed descriptor (EBADF), which is documented to give no keys.
        guard let status = try? FileDescriptor.standardInput.status() else { return nil }
        switch status.type {
        case .fifo, .regular, .socket: return KeyboardInput(fileDescriptor: .standardInput)
        default: return nil
        }
    }

    /// Standard input (`input`) in character mode when it is a terminal
    /// (restore it after); a pipe (scripts, tests) is read as it is. A
    /// terminal that refuses character mode is warned about: its keys then
    /// come only with Return.
    static func keyboardMode(_ context: CommandContext, input: FileDescriptor = .standardInput) -> TerminalMode? {
        guard context.isStandardInputTerminal else { return nil }
        do {
            return try TerminalMode.characterMode(input)
        } catch {
            context.warn("cannot read single keys from the terminal (\(error)); each key takes effect only after Return")
            return nil
        }
    }

    /// What Create New Gesture records with, plays on and saves into, from
    /// the drawing options; and the kind of virtual device gestures play on.
    static func createSetup(_ values: ParsedValues, context: CommandContext) throws -> (CreateSetup, DeviceKind) {
        let screen = try RecordCommand.parseScreen(values.stringOrDefault("screen"))
        let kind = DeviceKind(rawValue: values.stringOrDefault("as")) ?? .touchscreen
        // The picture goes where -o would put it, by the same rules; never
        // to standard output, where the flow's lines are.
        // An empty --picture writes none.
        let picture = values.stringOrDefault("picture")
        if picture == "-" || GestureOutput.isStandardOutput(picture) {
            throw CommandFailure.usage("--picture: the picture cannot go to standard output, where the flow's lines are; give a file")
        }
        if !picture.isEmpty { try GestureOutput.checkOutputPath(picture, option: "--picture", context: context) }
        let setup = CreateSetup(
            engine: context.engine,
            record: RecordRequest(
                device: values.string("device"), grab: !values.flag("no-grab"),
                recorderOptions: RecorderOptions(virtualScreenWidth: screen.width, virtualScreenHeight: screen.height),
                sessionOptions: RecordingSessionOptions(idleTimeout: values.duration("idle-timeout").map { Microseconds($0) }),
                details: RecordingDetails(name: "created", recordedAt: Timestamp.iso8601(), tool: "gesturectl \(Gesturectl.version)")),
            play: { PlayRequest(gesture: $0, target: .kind(kind)) }, library: context.library,
            picture: { gesture in
                guard !picture.isEmpty else { return nil }
                // Replaced at every review: it is the review's own picture.
                try GestureOutput.writeText(renderSVG(gesture), to: picture, force: true, context: context)
                return context.resolve(picture)
            })
        return (setup, kind)
    }

    /// The create menu's label for playing for real on `kind`.
    static func playLabel(_ kind: DeviceKind) -> String { "Play on a virtual \(kind.rawValue) (acts on the desktop)" }
}
