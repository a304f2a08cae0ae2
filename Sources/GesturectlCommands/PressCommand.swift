import CommandKit
import GestureEngine
import GestureModel
import GesturePlayback
import OperatingSystem

/// `press`: a button (volume, lock, screenshot, home, …) through a virtual
/// keyboard, locally or through the daemon.
enum PressCommand {
    /// The button or key to press.
    static let button: TypedArgument<String> = .required("button", help: "The button (volume-up, …) or KEY_* name to press.")

    /// `press`'s options (`--gadget` is ``DeviceOutput/gadget``).
    enum Options {
        static let hold: TypedOption<Microseconds> = .duration(
            "hold", valueName: "time", help: "How long a tap holds the key down.",
            type: .duration(in: KeyPress.minimumHold.rawValue...KeyPress.maximumHold.rawValue), default: KeyPress.defaultHold)
        static let down: TypedOption<Bool> = .flag(
            "down", help: "Press the key and hold it until Ctrl-C or SIGTERM (through the daemon only).")
        static let up: TypedOption<Bool> = .flag("up", help: "Release a key held with --down (through the daemon only).")
        static let force: TypedOption<Bool> = .flag("force", help: "Allow power, which can switch the machine off.")
        static let leadIn: TypedOption<Microseconds> = .duration(
            "lead-in", valueName: "time", help: "Wait this long after the keyboard is ready before pressing (lets readers open it).",
            type: .duration(in: 0...60_000_000), default: PlayRequest.defaultLeadIn)
        static let linger: TypedOption<Microseconds> = .duration(
            "linger", valueName: "time", help: "Keep the keyboard this long after the release so readers receive it.",
            type: .duration(in: 0...60_000_000), default: PlaybackSession.defaultLinger)
        static let startOnFD: TypedOption<Int?> = .integer(
            "start-on-fd", valueName: "n",
            help: "Make the keyboard, then wait until descriptor N is readable (a byte written, or its writer closing it) before the lead-in and the press.",
            type: .integer(in: 0...Int(Int32.max)))
        static let to: TypedOption<DeviceOutput.Word> = .choice(
            "to", valueName: "output",
            help: "How the keyboard is made: uinput (the default), uhid (HID consumer-control and keyboard buttons the kernel's HID drivers read), gadget (the buttons of the USB gadget 'gesturectl gadget up --buttons' made: the host it is plugged into receives the key).",
            default: DeviceOutput.Word(output: .uinput))
    }

    static let command = Command(
        name: "press", abstract: "Press a button (volume, mute, lock, screenshot, home, back, menu, power) on a virtual keyboard.",
        discussion: """
            Creates a virtual keyboard through uinput ("gesturectl virtual
            keyboard", vendor 0x4753, product 0x0005), waits until udev has set
            it up, and taps the key: down, held --hold (50 ms), up. The keyboard
            has only the keys it may send, nothing else.

            Buttons (a KEY_* name works too):
            \(buttonTable)

            Other keys, by their kernel name:
            \(extraKeyLines)

            Any other KEY_* is refused: no letters, modifiers, or keys that
            suspend, hibernate or reboot.

            power needs --force: it can switch the machine off (logind's
            HandlePowerKey).

            --down presses the key and holds it until Ctrl-C or SIGTERM (then
            releases it; exit status 130), --up releases a key held down: only
            through the daemon (--socket, --daemon or $GESTURECTL_SOCKET). The
            daemon holds a key only while the connection that pressed it is
            open, and releases every key when it stops. Locally --down and --up
            are refused: a local keyboard is destroyed when gesturectl exits,
            which releases every key.

            Ctrl-C, SIGTERM or SIGHUP mid-press release the key; the exit
            status is then 130.

            Examples:
              gesturectl press volume-up
              gesturectl press screenshot --hold 200ms
              gesturectl press KEY_PLAYPAUSE
              gesturectl press power --force
              gesturectl --daemon press home --down &   # held until killed
              kill $!
            """,
        section: DevicesCommand.section,
        arguments: [button],
        options: [
            Options.hold, Options.down, Options.up, Options.force, Options.leadIn, Options.linger, Options.startOnFD, Options.to,
            DeviceOutput.gadget,
        ]
    ) { values, context in
        let name = values[button]
        let action = try action(values)
        if context.goesThroughDaemon(values) {
            try await pressThroughDaemon(name: name, action: action, values: values, context: context)
            return
        }
        if action != .tap {
            throw CommandFailure.usage(
                "--\(action.rawValue) needs the daemon (gesturectl --daemon press \(name) --\(action.rawValue)): "
                    + "a local keyboard is destroyed when gesturectl exits, which releases every key")
        }
        let key: VirtualKeyboard.Key
        do throws(KeyNameError) {
            key = try VirtualKeyboard.key(named: name)
        } catch {
            throw CommandFailure.usage(error.description)
        }
        if VirtualKeyboard.needsForce.contains(key.code) && !values[Options.force] {
            throw CommandFailure.usage(
                "\(key.name) (\(key.kernelName)) can switch the machine off (logind's HandlePowerKey); add --force to press it")
        }
        let request = PressRequest(
            press: KeyPress(key: key.code, action: .tap, hold: values[Options.hold]), leadIn: values[Options.leadIn],
            linger: values[Options.linger], output: try DeviceOutput.output(values, to: Options.to, gadget: DeviceOutput.gadget),
            startGate: try PlayCommand.startGate(values, Options.startOnFD))
        let job = try await context.engine.startPressWithoutBlocking(request)
        context.cancelledBySignals(job.handle)
        if !job.session.isInitialisedByUdev {
            context.warn("udev did not announce \(Unknown.device(job.devnode, what: "the keyboard")) in time; pressing anyway")
        }
        let through = request.output == .uinput ? "" : ", through \(request.output.word)"
        context.note("pressing \(key.name) (\(key.kernelName)) on \(Unknown.node(job.devnode)) (\(job.session.profile.description.name)\(through))")
        let result = await context.untilFinished(job)
        switch result.outcome {
        case .completed:
            return
        case .cancelled:
            context.note("interrupted; \(key.kernelName) released")
            throw CommandFailure.exit(.interrupted)
        case .failed(let error, _):
            throw CommandFailure.failure("pressing \(key.name) failed: \(error); every key released")
        }
    }

    /// The named buttons, one a line: `  volume-up     KEY_VOLUMEUP`.
    static var buttonTable: String {
        VirtualKeyboard.buttons.map { "  " + $0.name + String(repeating: " ", count: max(1, 14 - $0.name.count)) + $0.kernelName }
            .joined(separator: "\n")
    }

    /// The other keys, a few a line.
    static var extraKeyLines: String {
        let names = VirtualKeyboard.extraKeys.map(\.kernelName)
        return stride(from: 0, to: names.count, by: 4).map { "  " + names[$0..<min($0 + 4, names.count)].joined(separator: ", ") }
            .joined(separator: "\n")
    }

    /// Tap (the default), down or up, from the flags.
    static func action(_ values: ParsedValues) throws -> KeyPress.Action {
        switch (values[Options.down], values[Options.up]) {
        case (true, true): throw CommandFailure.usage("--down and --up exclude each other")
        case (true, false), (false, true):
            if values.isGiven(Options.hold) {
                throw CommandFailure.usage("--hold is for a tap; with --down the key stays down until --up")
            }
            return values[Options.down] ? .down : .up
        case (false, false): return .tap
        }
    }
}
