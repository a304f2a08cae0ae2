import CommandKit
import GestureEngine
import GestureFormat
import GestureLibrary
import GestureModel
import GestureRecording
import GestureRender
import OperatingSystem

/// `record`: strokes from a real evdev device into a gesture file.
enum RecordCommand {
    /// `record`'s options (`--save` and `--force` are ``GestureOutput``'s).
    enum Options {
        static let device: TypedOption<String?> = .string(
            "device", short: "d", valueName: "device",
            help: "An event node, a /dev/input/by-id or by-path link, a name, or vendor:product (default: the only touch or pointer device).",
            completion: .files)
        static let output: TypedOption<String?> = .string(
            "output", short: "o", valueName: "file", help: "Write the gesture to FILE.", completion: .files)
        static let sequential: TypedOption<Bool> = .flag(
            "sequential", help: "Each contact is a stroke; all strokes start together when saved.")
        static let grab: TypedOption<Bool> = .flag(
            "grab", help: "Take the device for gesturectl alone while recording (EVIOCGRAB): the desktop does not react.")
        /// No default of its own: `--sequential` has ``OptionDefault/idleTimeout``, a plain recording none.
        static let idleTimeout: TypedOption<Microseconds?> = .duration(
            "idle-timeout", valueName: "seconds",
            help: "Stop after this long with no contact (default: \(OptionDefault.idleTimeout.rawValue / 1_000_000) with --sequential, none otherwise).",
            type: .duration(minimum: 1))
        static let maximumDuration: TypedOption<Microseconds?> = .duration(
            "max-duration", valueName: "seconds", help: "Stop this long after the first contact.", type: .duration(minimum: 1))
        static let screen: TypedOption<String> = .string(
            "screen", valueName: "WxH", help: "Virtual screen for relative pointers, in pixels.", default: OptionDefault.screen)
        static let name: TypedOption<String?> = .string("name", valueName: "name", help: "The name stored in the gesture.")
        static let realtime: TypedOption<Bool> = .flag(
            "realtime", help: "Record at SCHED_FIFO priority 40 (needs CAP_SYS_NICE or RLIMIT_RTPRIO >= 40).")
    }

    static let command = Command(
        name: "record", abstract: "Record a gesture from a touchscreen, touchpad, tablet or mouse.",
        discussion: """
            Recording starts at the first contact and stops on Ctrl-C, after
            --idle-timeout seconds with no contact, after --max-duration, or
            when Enter is pressed (when standard input is a terminal). What
            was recorded is always written (atomically), also when the device
            is unplugged (then the exit status is 1).

            With a mouse, trackball or head pointer, a press–drag–release is
            one stroke; its position is followed on a virtual screen
            (--screen). --sequential is AssistiveTouch's "Create New
            Gesture": draw one stroke after another, and they are saved as
            one gesture in which all start together (one finger per stroke).

            Without --output or --save, the gesture goes to
            gesture-YYYYMMDD-HHMMSS.gesture.json in the current folder, and
            the path is printed. Reading a device needs membership in the
            'input' group. Through the daemon (--socket, --daemon or
            $GESTURECTL_SOCKET) the daemon reads the device, --save goes to
            its library, and the file is written here. Times are the kernel's (CLOCK_MONOTONIC); events
            the kernel dropped are resynchronised, counted and stored. A stop
            (Ctrl-C, Enter, a timeout) first reads what the device has already
            sent, so a stroke lifted just before it is kept. A recording in
            which no contact was made writes and saves nothing, and exits 1.

            --realtime reads on a thread scheduled SCHED_FIFO at priority 40
            (above every normal process, below the kernel's interrupt threads
            at 50), so that a busy machine does not keep the recorder from a
            fast device until the kernel drops events for it. It needs
            CAP_SYS_NICE (root, or `setcap cap_sys_nice+ep` on the binary) or
            an RLIMIT_RTPRIO of at least 40 (`ulimit -r`; rtprio in
            /etc/security/limits.conf); without either it is refused before
            the device is opened.

            Examples:
              gesturectl record --device "ELAN Touchscreen" -o swipe.gesture.json
              gesturectl record --sequential --device 046d:c077 --save my-gesture
            """,
        section: DevicesCommand.section,
        options: [
            Options.device, Options.output, GestureOutput.save,
            Options.sequential, Options.grab, Options.idleTimeout, Options.maximumDuration, Options.screen, Options.name,
            Options.realtime, GestureOutput.force,
        ]
    ) { values, context in
        let screen = try parseScreen(values[Options.screen])
        // Refuse a bad name now, not after the user has drawn.
        if let name = values[GestureOutput.save], let problem = GestureName.problem(with: name) {
            throw CommandFailure.usage(problem)
        }
        // And an output that can never be a file (empty, a folder).
        if let output = values[Options.output], output != GestureOutput.standardOutput {
            try GestureOutput.checkOutputPath(output, context: context)
        }
        let sequential = values[Options.sequential]
        let idle = values[Options.idleTimeout] ?? (sequential ? OptionDefault.idleTimeout : nil)
        let fileName = "gesture-" + Timestamp.compact() + GestureName.fileSuffix
        if context.goesThroughDaemon(values) {
            if values.isGiven(Options.screen) {
                throw CommandFailure.usage("--screen is not available through the daemon (it records on its own virtual screen of \(OptionDefault.screen))")
            }
            if values.isGiven(Options.realtime) {
                throw CommandFailure.usage("--realtime is not available through the daemon (it records on its own thread)")
            }
        }
        if context.goesThroughDaemon(values) {
            try await recordThroughDaemon(values: values, idle: idle, defaultFile: fileName, context: context)
            return
        }
        let live = StatusLine(context: context)
        let job = try context.engine.startRecording(
            RecordRequest(
                device: values[Options.device], grab: values[Options.grab], sequential: sequential,
                recorderOptions: RecorderOptions(virtualScreenWidth: screen.width, virtualScreenHeight: screen.height),
                sessionOptions: RecordingSessionOptions(
                    idleTimeout: idle, maximumDuration: values[Options.maximumDuration],
                    enterDescriptor: context.isStandardInputTerminal ? .standardInput : nil),
                details: RecordingDetails(
                    name: gestureName(values, defaultFile: fileName), recordedAt: Timestamp.iso8601(),
                    tool: "gesturectl \(Gesturectl.version)"),
                realtimePriority: values[Options.realtime] ? DedicatedThread.defaultRealtimePriority : nil),
            notices: { notice in live.warn("\(notice)") })
        context.cancelledBySignals(job.handle)
        job.handle.observeProgress { live.update($0.description) }
        context.note("recording from \(job.device.node) (\(job.device.name)); \(stopHint(context: context, idle: idle))")
        let outcome = await context.untilFinished(job.handle)
        live.finish()
        let recorded: RecordedGesture
        switch outcome.gesture {
        case .success(let gesture): recorded = gesture
        case .failure(let error):
            if outcome.stopReason.isFailure {
                throw CommandFailure.failure("\(outcome.stopReason); \(error)")
            }
            throw CommandFailure.failure("\(error); \(nothingWritten(values))")
        }
        for warning in recorded.warnings { context.warn(warning) }
        let path = try write(recorded.gesture, values: values, defaultFile: fileName, context: context)
        // With '-o -' the gesture itself went to standard output.
        if path != "-" { context.print(path) }
        context.note("\(describe(recorded.gesture)) (stopped: \(outcome.stopReason))")
        if case .deviceVanished(let error) = outcome.stopReason {
            throw CommandFailure.failure("the device vanished while recording (\(error)); what was recorded is in \(path)")
        }
        if outcome.stopReason.isFailure {
            throw CommandFailure.failure("recording stopped: \(outcome.stopReason); what was recorded is in \(path)")
        }
    }

    /// The name stored in the recording: `--name`, else `--save`'s, else
    /// the default file's without its suffix.
    static func gestureName(_ values: ParsedValues, defaultFile: String) -> String {
        values[Options.name] ?? values[GestureOutput.save] ?? String(defaultFile.dropLast(GestureName.fileSuffix.count))
    }

    /// What a recording with nothing in it did not do: "nothing was
    /// written", and with `--save` also "nothing was saved as NAME" (a
    /// save that saved nothing is no success: issue 40).
    static func nothingWritten(_ values: ParsedValues) -> String {
        guard let save = values[GestureOutput.save] else { return "nothing was written" }
        return "nothing was written, and nothing was saved as \"\(save)\""
    }

    private static func stopHint(context: CommandContext, idle: Microseconds?) -> String {
        var ways = ["Ctrl-C"]
        if context.isStandardInputTerminal { ways.append("Enter") }
        if let idle { ways.append("\(DurationText.format(microseconds: idle.rawValue)) without contact") }
        return "stop with " + ways.joined(separator: ", ")
    }

    /// Writes the recording; never loses it: when the asked-for file or name
    /// cannot be used, it goes to the default file instead, with a warning.
    /// `save` does `--save NAME` and returns the saved file's path (by
    /// default into the local library; through the daemon, the daemon did it).
    static func write(
        _ gesture: Gesture, values: ParsedValues, defaultFile: String, context: CommandContext,
        save: ((String) throws -> String)? = nil
    ) throws -> String {
        let force = values[GestureOutput.force]
        do {
            if let name = values[GestureOutput.save] {
                let path: String
                if let save {
                    path = try save(name)
                } else {
                    let entry = try context.library.save(gesture, as: name, overwrite: force)
                    if entry.hidesBuiltin { context.noteHidesBuiltin(name) }
                    path = entry.path
                }
                if let output = values[Options.output] {
                    try GestureOutput.writeGesture(gesture, to: output, force: force, context: context)
                }
                return path
            }
            if let output = values[Options.output] {
                try GestureOutput.writeGesture(gesture, to: output, force: force, context: context)
                return output
            }
        } catch {
            let failure = ErrorMapping.commandFailure(for: error)
            context.warn("\(failure.description); writing the recording to \(defaultFile) instead")
        }
        try GestureOutput.writeGesture(gesture, to: defaultFile, force: false, context: context)
        return defaultFile
    }

    static func parseScreen(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 2, height >= 2,
            width <= RecorderOptions.maximumVirtualScreenSide, height <= RecorderOptions.maximumVirtualScreenSide
        else {
            throw CommandFailure.usage("--screen: \"\(text)\" is not a screen size like 1920x1080")
        }
        return (width, height)
    }
}
