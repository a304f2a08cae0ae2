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
    /// `create`'s and `menu`'s options, declared once.
    enum Options {
        static let device: TypedOption<String?> = .string(
            "device", short: "d", valueName: "device",
            help: "The drawing device: an event node, a by-id or by-path link, a name, or vendor:product (default: the only touch or pointer device).",
            completion: .files)
        static let noGrab: TypedOption<Bool> = .flag(
            "no-grab", help: "Leave the drawing device live while recording (strokes then also act on the desktop).")
        static let idleTimeout: TypedOption<Microseconds> = .duration(
            "idle-timeout", valueName: "seconds", help: "Recording ends this long after the last contact lifted.",
            type: .duration(in: 500_000...600_000_000), default: OptionDefault.idleTimeout)
        static let screen: TypedOption<String> = .string(
            "screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: OptionDefault.screen)
        static let kind: TypedOption<DeviceKind> = .choice(
            "as", valueName: "kind", help: "The virtual device gestures are played on (\"Play on a virtual device\").",
            choices: PlayCommand.kinds, default: .touchscreen)
        static let picture: TypedOption<String> = .string(
            "picture", valueName: "file", help: "Where Review writes the SVG picture ('' for none; a device or FIFO is written into).",
            default: "gesturectl-review.svg", completion: .files)

        static let switchDevice: TypedOption<String?> = .string(
            "switch", valueName: "device",
            help: "Operate it with one switch on this device (a by-id or by-path link, a name, or vendor:product).",
            completion: .files)
        static let switchKey: TypedOption<String?> = .string(
            "switch-key", valueName: "key", help: "The switch's key or button (KEY_* or BTN_*), with --switch.")
        static let grabSwitch: TypedOption<Bool> = .flag(
            "grab-switch", help: "Take the switch device for gesturectl alone (for a dedicated switch, never a shared keyboard).")
        static let scanInterval: TypedOption<Microseconds> = .duration(
            "scan-interval", valueName: "time", help: "How long scanning highlights each item (0.3 s to 10 s).",
            type: .duration(in: ScanSettings.minimumInterval.rawValue...ScanSettings.maximumInterval.rawValue),
            default: ScanSettings.defaultInterval)
        static let firstItemHold: TypedOption<Microseconds> = .duration(
            "first-item-hold", valueName: "time", help: "How much longer the first item stays highlighted.",
            type: .duration(in: 0...10_000_000), default: ScanSettings.defaultFirstItemHold)
        static let scanLoops: TypedOption<Int> = .integer(
            "scan-loops", valueName: "n", help: "Loops through the items before scanning pauses.", type: .integer(in: 1...100),
            default: ScanSettings.defaultLoops)
        static let debounce: TypedOption<Microseconds> = .duration(
            "debounce", valueName: "time", help: "Ignore a press that starts this soon after the previous release.",
            type: .duration(in: 0...5_000_000), default: ScanSettings.defaultDebounce)
        static let longPress: TypedOption<Microseconds> = .duration(
            "long-press", valueName: "time", help: "Holding the switch this long goes back.",
            type: .duration(in: 100_000...2_900_000), default: ScanSettings.defaultLongPress)
        static let switchStopsRecording: TypedOption<Bool> = .flag(
            "switch-stops-recording", help: "A press of the switch during recording stops it.")

        static let plain: TypedOption<Bool> = .flag(
            "plain", help: "Print only plain lines, one per state change, with no escape sequences.")
        static let speak: TypedOption<Bool> = .flag("speak", help: "Also speak every line with spd-say (speech-dispatcher).")
    }

    /// The drawing device and what Create New Gesture records, plays and writes.
    static let drawingOptions: [any OptionDeclaration] = [
        Options.device, Options.noGrab, Options.idleTimeout, Options.screen, Options.kind, Options.picture,
    ]

    /// `--switch`, `--switch-key`, `--grab-switch` and the scanning's timings.
    static let switchOptions: [any OptionDeclaration] = [
        Options.switchDevice, Options.switchKey, Options.grabSwitch, Options.scanInterval, Options.firstItemHold,
        Options.scanLoops, Options.debounce, Options.longPress, Options.switchStopsRecording,
    ]

    /// `--plain` and `--speak`.
    static let outputOptions: [any OptionDeclaration] = [Options.plain, Options.speak]

    /// The switch, its scanning and its press timings, from the options;
    /// `nil` without `--switch`.
    static func switchSetup(_ values: ParsedValues) throws -> SwitchSetup? {
        let device = values[Options.switchDevice]
        let key = values[Options.switchKey]
        guard device != nil || key != nil else {
            let needingASwitch: [any OptionDeclaration] = [
                Options.scanInterval, Options.firstItemHold, Options.scanLoops, Options.debounce, Options.longPress,
                Options.switchStopsRecording, Options.grabSwitch,
            ]
            for option in needingASwitch where values.isGiven(option) {
                throw CommandFailure.usage("\(option.declaration.longName) needs a switch (--switch DEVICE --switch-key KEY)")
            }
            return nil
        }
        guard let device, let key else {
            throw CommandFailure.usage(device == nil ? "--switch-key needs --switch DEVICE" : "--switch needs --switch-key KEY (e.g. KEY_ENTER or BTN_0)")
        }
        let scanning = ScanSettings(
            interval: values[Options.scanInterval], firstItemHold: values[Options.firstItemHold],
            loops: values[Options.scanLoops], debounce: values[Options.debounce], longPress: values[Options.longPress])
        if let problem = scanning.problem { throw CommandFailure.usage(problem) }
        do {
            let trigger = try TriggerRequest(device: device, key: key, timings: scanning.press, grab: values[Options.grabSwitch])
            return SwitchSetup(trigger: trigger, scanning: scanning, stopsRecording: values[Options.switchStopsRecording])
        } catch {
            throw CommandFailure.usage("--switch: \(error.message)")
        }
    }

    /// The display on standard output: plain with `--plain`, when standard
    /// output is no terminal or TERM is dumb; colour unless NO_COLOR;
    /// spoken with `--speak` when spd-say is installed (else a warning).
    static func display(_ values: ParsedValues, context: CommandContext) -> TerminalDisplay {
        let plain = values[Options.plain] || !context.isStandardOutputTerminal || context.environment["TERM"] == "dumb"
        let colour = !context.hasValue("NO_COLOR")
        var speaker: String?
        if values[Options.speak] {
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
        let screen = try RecordCommand.parseScreen(values[Options.screen])
        let kind = values[Options.kind]
        // The picture goes where -o would put it, by the same rules; never
        // to standard output, where the flow's lines are.
        // An empty --picture writes none.
        let picture = values[Options.picture]
        if picture == "-" || GestureOutput.isStandardOutput(picture) {
            throw CommandFailure.usage("--picture: the picture cannot go to standard output, where the flow's lines are; give a file")
        }
        if !picture.isEmpty { try GestureOutput.checkOutputPath(picture, option: "--picture", context: context) }
        let setup = CreateSetup(
            engine: context.engine,
            record: RecordRequest(
                device: values[Options.device], grab: !values[Options.noGrab],
                recorderOptions: RecorderOptions(virtualScreenWidth: screen.width, virtualScreenHeight: screen.height),
                sessionOptions: RecordingSessionOptions(idleTimeout: values[Options.idleTimeout]),
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
