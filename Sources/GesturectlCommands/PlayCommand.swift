import CommandKit
import GestureEditing
import GestureEngine
import GestureInterop
import GestureModel
import GesturePlayback
import InputSystem
import OperatingSystem

/// `play`: a gesture through uinput onto a virtual device, with exact timing.
enum PlayCommand {
    /// The kinds of virtual device a gesture plays on.
    static let kinds: [DeviceKind] = [.touchscreen, .touchpad, .mouse, .tablet]

    /// `play`'s own options (`--to` and `--gadget` are ``deviceOutputOptions``).
    enum Options {
        static let kind: TypedOption<DeviceKind> = .choice(
            "as", valueName: "kind", help: "The virtual device to play on.", choices: kinds, default: .touchscreen)
        static let clone: TypedOption<String?> = .string(
            "clone", valueName: "device",
            help: "Play on a uinput copy of this real device's description (node, link, name or vendor:product).",
            completion: .files)
        static let speed: TypedOption<Double> = .number(
            "speed", valueName: "factor", help: "Play faster (2) or slower (0.5).", type: .double(in: 0.01...100),
            default: PlaybackOptions.defaultSpeed)
        static let repeatCount: TypedOption<Int> = .integer(
            "repeat", valueName: "n", help: "Play the gesture N times.", type: .integer(in: 1...GestureLimits.maximumRepeatCount),
            default: PlaybackOptions.defaultRepeatCount)
        static let repeatGap: TypedOption<Microseconds> = .duration(
            "repeat-gap", valueName: "time", help: "Pause between repeats.",
            type: .duration(in: 0...PlaybackOptions.maximumRepeatGap.rawValue), default: PlaybackOptions.defaultRepeatGap)
        static let physicalSize: TypedOption<Bool> = .flag(
            "physical-size", help: "Keep the gesture's size in mm instead of its place on the surface.")
        static let at: TypedOption<String?> = .string(
            "at", valueName: "x,y",
            help: "Put the gesture's centre here: mm from the top-left corner, or percents of the surface (80%,90%).")
        static let scale: TypedOption<Double?> = .number(
            "scale", valueName: "factor", help: "Make the gesture larger (2) or smaller (0.5) about its centre.")
        static let rotate: TypedOption<Double?> = .number(
            "rotate", valueName: "degrees", help: "Turn the gesture about its centre (clockwise positive).")
        static let leadIn: TypedOption<Microseconds> = .duration(
            "lead-in", valueName: "time",
            help: "Wait this long after the device is ready before the first frame (lets readers open it).",
            type: .duration(in: 0...60_000_000), default: PlayRequest.defaultLeadIn)
        static let linger: TypedOption<Microseconds> = .duration(
            "linger", valueName: "time", help: "Keep the device this long after the last frame so readers receive it.",
            type: .duration(in: 0...60_000_000), default: PlaybackSession.defaultLinger)
        static let startOnFD: TypedOption<Int?> = .integer(
            "start-on-fd", valueName: "n",
            help: "Make the device, then wait until descriptor N is readable (a byte written, or its writer closing it) before the lead-in and the first frame.",
            type: .integer(in: 0...Int(Int32.max)))
        static let print: TypedOption<Bool> = .flag("print", help: "Write evemu text (description and events) instead of playing.")
        static let json: TypedOption<Bool> = .flag(
            "json", help: "After playing, print the outcome and timing (lateness of frames) as JSON.")
        static let realtime: TypedOption<Bool> = .flag(
            "realtime", help: "Play at SCHED_FIFO priority 40 (needs CAP_SYS_NICE or RLIMIT_RTPRIO >= 40).")
    }

    /// The gesture `play` plays.
    static let gestureArgument: TypedArgument<String> = .required(
        "gesture", help: "The gesture to play (NAME|FILE).", completion: .gesture)

    static let command = Command(
        name: "play", abstract: "Play a gesture onto a virtual touchscreen, touchpad, mouse or tablet.",
        discussion: """
            Creates a virtual device through uinput (named "gesturectl virtual
            touchscreen" and so on, vendor 0x4753: see the README to map it to a
            monitor), waits until udev has set it up, and plays every frame at
            its absolute deadline on CLOCK_MONOTONIC, so timing never drifts.
            Positions are mapped to the device by their place on the surface
            (--physical-size keeps their size in mm instead).

            --at X,Y puts the gesture's centre (the centre of the box around
            all its samples) at that point of its surface: mm from the
            top-left corner, as transform --translate and --about take them,
            or percents of the surface's width and height (0% left/top, 100%
            right/bottom), so a rig taps the button it means without editing
            files. --scale and --rotate resize and turn the gesture about
            that centre first (positive degrees turn clockwise on the
            screen). Samples pushed off the surface are clipped to its edge
            with a warning, as transform does; an --at off the surface is
            refused. On a mouse only movements count (the pointer starts
            wherever it is), so --at moves nothing there.

            Ctrl-C, SIGTERM, SIGHUP or an error lift every finger and release
            every button in one last frame; the device then stays a moment so
            that readers get that frame, and the exit status is 130.

            --realtime plays on a thread scheduled SCHED_FIFO at priority 40
            (above every normal process, below the kernel's interrupt threads
            at 50), so that a busy machine does not delay frames. It needs
            CAP_SYS_NICE (root, or `setcap cap_sys_nice+ep` on the binary) or
            an RLIMIT_RTPRIO of at least 40 (`ulimit -r`; rtprio in
            /etc/security/limits.conf); without either it is refused before a
            device is made. Where permitted (CAP_IPC_LOCK, or an
            RLIMIT_MEMLOCK as large as the process) it also locks the
            process's memory once the frames are built, so that no frame waits
            for a page fault; --json says "memory_locked": true or false.

            --start-on-fd N holds the play on its ready device until descriptor
            N is readable: a byte written to it, or its writer closing it. The
            device exists (its node is printed) and the playing thread is
            waiting; the lead-in and the first frame follow. A script starts
            its observers (libinput debug-events, evemu-record), waits until
            they read the device, then writes one byte, instead of guessing a
            lead-in long enough. Ctrl-C while it waits ends the play with
            nothing written.

            When the player falls behind (a busy machine, a stopped process),
            every frame is still written, in order, so the path is the
            gesture's own, but a late frame never follows the previous one
            sooner than half its interval after that write ended: the frames
            after a stall catch up at twice the gesture's speed at most, and a
            stall of S puts the play back on its deadlines after 2 × S. Written
            back to back instead, they would reach readers microseconds apart,
            and libinput throws such a touch away as a jump. On a touchpad a
            late frame also waits until no finger's step grows by more than
            libinput accepts (6 mm per 12 ms more than its last, 18 mm at
            most; never over 30 ms): a fast stroke's catch-up starts slower,
            and takes a few frames longer.

            --print writes the device description and the events as evemu text
            instead of creating a device (works without uinput; evemu-device
            and evemu-play replay it).

            --to uhid makes a real HID device through /dev/uhid instead: a
            multitouch digitizer (for --as touchscreen) or a mouse (--as
            mouse) whose report descriptor is generated from the surface, which
            the kernel's own drivers bind (hid-multitouch for the
            touchscreen, as a USB touchscreen is bound) and turn into the
            evdev node the play then reports. Same timing, lead-in, linger
            and lifting on Ctrl-C as through uinput. It needs the uhid module
            ('modprobe uhid') and write access to /dev/uhid (the group
            gesturectl, with the rule in udev-rules/). Touchpads and tablets
            have no HID description here: they play through uinput. --clone
            cannot be combined with it: a clone reproduces a device's evdev
            description, and a HID driver makes its own.

            Examples:
              gesturectl play pinch-in
              gesturectl play three-finger-swipe-left --as touchpad
              gesturectl play my-gesture --repeat 100 --speed 1.5
              gesturectl play tap --at 80%,90%
              gesturectl play pinch-in --at 60,40 --scale 1.5 --rotate 45
              gesturectl play tap --clone /dev/input/by-id/usb-ELAN_Touchscreen-event-if00
              gesturectl play rotate --print > rotate.evemu
              gesturectl play pinch-in --to uhid
              gesturectl play swipe-up --lead-in 0 --start-on-fd 3 3<>gate.fifo
            """,
        section: DevicesCommand.section,
        arguments: [gestureArgument],
        options: [
            Options.kind, Options.clone, Options.speed, Options.repeatCount, Options.repeatGap, Options.physicalSize, Options.at,
            Options.scale, Options.rotate, Options.leadIn, Options.linger, Options.startOnFD, Options.print, Options.json,
            Options.realtime,
        ] + deviceOutputOptions
    ) { values, context in
        let placement = try placement(values)
        if !values[Options.print], context.goesThroughDaemon(values) {
            // Refused before the daemon is reached.
            let localOnly: [any OptionDeclaration] = [
                Options.clone, Options.physicalSize, Options.repeatGap, Options.leadIn, Options.linger, Options.realtime,
                DeviceOutput.gadget, Options.startOnFD,
            ]
            for option in localOnly where values.isGiven(option) {
                throw CommandFailure.usage("\(option.declaration.longName) is not available through the daemon (it plays on its ready devices)")
            }
        }
        if !values[Options.print], context.goesThroughDaemon(values) {
            try await playThroughDaemon(values: values, placement: placement, context: context)
            return
        }
        let input = values[gestureArgument]
        let gesture = try context.loadGesture(input)
        if values[Options.physicalSize], !gesture.device.isSizeKnown {
            context.note(
                "\(shown(input)) has no known size (width_mm/height_mm 0 and no resolution): --physical-size cannot keep it; it plays by its place on the surface")
        }
        if let at = placement?.at, at.x.isMillimetres || at.y.isMillimetres {
            AssumedSize.note(gesture.device, of: shown(input), options: ["at"], context: context)
        }
        let kind = values[Options.kind]
        let target: PlayTarget =
            if let clone = values[Options.clone] {
                .clone(device: clone, as: values.isGiven(Options.kind) ? kind : nil)
            } else {
                .kind(kind)
            }
        let unplaced = PlayRequest(
            gesture: gesture, target: target,
            options: PlaybackOptions(
                physicalSize: values[Options.physicalSize], speed: values[Options.speed],
                repeatCount: values[Options.repeatCount], repeatGap: values[Options.repeatGap]),
            leadIn: values[Options.leadIn], linger: values[Options.linger], placement: placement,
            realtimePriority: values[Options.realtime] ? DedicatedThread.defaultRealtimePriority : nil,
            output: try output(values), startGate: try startGate(values, Options.startOnFD))
        if unplaced.output == .uhid, values.isGiven(Options.clone) {
            throw CommandFailure.usage(
                "--clone cannot play --to uhid: a clone copies a device's evdev description, which only uinput"
                    + " reproduces (through uhid the HID driver makes its own); drop --clone, or play --to uinput")
        }
        // Placed here rather than in the engine, so that its warnings are told.
        let request: PlayRequest
        do throws(Placement.Failure) {
            let resolved = try unplaced.resolvingPlacement()
            request = resolved.request
            for warning in resolved.warnings { context.warn(warning) }
        } catch {
            throw usage(error)
        }
        if values[Options.print] {
            // Written frame by frame: any length, any number of repetitions.
            let stream = try context.engine.frameStream(for: request)
            try InteropCommands.writeFrames(
                of: stream.gesture, with: stream.builder, format: .evemu, to: GestureOutput.standardOutput, force: false,
                context: context)
            return
        }
        let job = try await context.engine.startPlayWithoutBlocking(request)
        context.cancelledBySignals(job.handle)
        if !job.session.isInitialisedByUdev {
            context.warn("udev did not announce \(Unknown.device(job.devnode)) in time; playing anyway")
        }
        let through = request.output == .uinput ? "" : ", through \(request.output.word)"
        context.note("playing on \(Unknown.node(job.devnode)) (\(job.session.profile.description.name)\(through))")
        let result = await context.untilFinished(job)
        // Known at once after a completed play. After an interrupted one,
        // once the frames it did not play are counted (issue 39: they are
        // built as the play goes): at once for a short gesture, a minute for
        // an hour's, which ^C must not wait for. Then it is not told (null).
        let frameCount: Int?
        if case .completed = result.outcome {
            frameCount = await job.countedFrames()
        } else {
            frameCount = await Self.count(of: job, within: .seconds(1))
        }
        let ofTotal = frameCount.map { " of \($0)" } ?? ""
        if values[Options.json] {
            context.print(json(result, frames: frameCount, device: job.devnode, memoryLocked: job.memoryLocked))
        }
        switch result.outcome {
        case .completed:
            return
        case .cancelled(let written):
            context.note("interrupted after \(written)\(ofTotal) frames; every finger lifted")
            throw CommandFailure.exit(.interrupted)
        case .failed(let error, let written):
            // A gadget's host that stops reading does not take the lift either.
            let lift: String
            if let liftError = result.liftAllError {
                lift = "the lift could not be written either" + ("\(liftError)" == "\(error)" ? "" : " (\(liftError))")
            } else {
                lift = "every finger lifted"
            }
            throw CommandFailure.failure(
                "playing failed after \(written)\(ofTotal) frames: \(error); \(lift)")
        }
    }

    /// The play's frame count if it is known within `limit`; nil otherwise
    /// (the rest of a long gesture still being counted).
    static func count(of job: PlayJob, within limit: Duration) async -> Int? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            if let count = job.frameTally.count { return count }
            if clock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The descriptor `--start-on-fd` names, checked to be open now, so that
    /// a wrong number is refused before a device is made.
    static func startGate(_ values: ParsedValues, _ option: TypedOption<Int?>) throws -> FileDescriptor? {
        guard let number = values[option] else { return nil }
        let descriptor = FileDescriptor(rawValue: Int32(clamping: number))
        do {
            _ = try descriptor.status()
        } catch {
            throw CommandFailure.usage("--start-on-fd \(number): descriptor \(number) is not open (pass it to gesturectl, e.g. '\(number)< FIFO')")
        }
        return descriptor
    }

    /// `--to` and `--gadget`: how the device is made (``output(_:)`` reads them). `fingertips` has them too.
    static let deviceOutputOptions: [any OptionDeclaration] = [DeviceOutput.to, DeviceOutput.gadget]

    /// The output `--to` (and `--gadget`) ask for. `fingertips` uses it too: read only the options both commands declare.
    static func output(_ values: ParsedValues) throws -> PlayOutput {
        try DeviceOutput.output(values, to: DeviceOutput.to, gadget: DeviceOutput.gadget)
    }

    /// The placement the options ask for (`nil` without --at, --scale or
    /// --rotate), checked as far as it can be without the gesture.
    static func placement(_ values: ParsedValues) throws -> Placement? {
        guard values.isGiven(Options.at) || values.isGiven(Options.scale) || values.isGiven(Options.rotate) else { return nil }
        var placement = Placement()
        do {
            if let text = values[Options.at] { placement.at = try Placement.Point(parsing: text) }
            if let scale = values[Options.scale] { placement.scale = scale }
            if let degrees = values[Options.rotate] { placement.degrees = degrees }
            try placement.validate()
        } catch {
            throw usage(error)
        }
        return placement
    }

    /// A placement's failure as a usage error naming the option.
    private static func usage(_ failure: Placement.Failure) -> CommandFailure {
        CommandFailure.usage("--\(failure.part.rawValue): \(failure.message)")
    }

    private static func json(_ result: PlaybackResult, frames: Int?, device: String?, memoryLocked: Bool? = nil) -> String {
        let outcome: String
        switch result.outcome {
        case .completed: outcome = "completed"
        case .cancelled: outcome = "cancelled"
        case .failed: outcome = "failed"
        }
        var fields = [
            ("outcome", JSONText.string(outcome)), ("device", JSONText.stringOrNull(device)),
            ("frames", frames.map { String($0) } ?? "null"),
            ("lateness_max_us", String(result.lateness.maximum.rawValue)),
            ("lateness_p50_us", String(result.lateness.median.rawValue)),
            ("lateness_p99_us", String(result.lateness.percentile99.rawValue)),
        ]
        // Only with --realtime: whether the memory could be locked too.
        if let memoryLocked { fields.append(("memory_locked", memoryLocked ? "true" : "false")) }
        return JSONText.object(fields)
    }
}

