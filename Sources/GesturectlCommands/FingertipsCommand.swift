import CommandKit
import GestureEditing
import GestureEngine
import GestureModel
import OperatingSystem

/// `fingertips`: one finger, a mouse, a trackball, a head pointer, a
/// touchpad or a pen moves 2–10 virtual fingertips live.
enum FingertipsCommand {
    /// How many fingertips.
    static let countArgument: TypedArgument<Int> = .integer(
        "count", help: "How many fingertips (2–10; AssistiveTouch offers 2 to 5).", type: .integer(in: FingertipsOptions.countRange))

    /// `fingertips`' own options (`--to` and `--gadget` are ``DeviceOutput``'s).
    enum Options {
        static let device: TypedOption<String?> = .string(
            "device", short: "d", valueName: "device",
            help: "The source: an event node, a /dev/input/by-id or by-path link, a name, or vendor:product (default: the only touch or pointer device).",
            completion: .files)
        static let layout: TypedOption<FingerLayout> = .choice(
            "layout", valueName: "layout", help: "Fingertips in a straight row or on an arc.", default: .row)
        static let spacing: TypedOption<Double> = .number(
            "spacing", valueName: "mm", help: "Distance between neighbouring fingertips.", type: .double(above: 0),
            default: GestureEditor.defaultFingerSpacingMM)
        static let speed: TypedOption<Double> = .number(
            "speed", valueName: "factor", help: "How far relative motion moves the fingertips: 2 twice as far, 0.5 half.",
            type: .double(in: FingertipsOptions.speedRange), default: FingertipsOptions.defaultSpeed)
        static let absolute: TypedOption<Bool> = .flag(
            "absolute", help: "Map a touchpad's or tablet's surface onto the target instead of moving by its motion.")
        static let noHover: TypedOption<Bool> = .flag(
            "no-hover", help: "No hover pen showing where the fingertips will land while they are up.")
        static let idle: TypedOption<Microseconds> = .duration(
            "idle", valueName: "seconds", help: "Go away after this long without input while the fingertips are up; 0 means never.",
            type: .duration(in: 0...86_400_000_000), default: FingertipsOptions.defaultIdle)
        /// No default: without it, a copy of a touchscreen source, else a touchscreen.
        static let kind: TypedOption<DeviceKind?> = .choice(
            "as", valueName: "kind",
            help: "Show the fingertips on a virtual touchscreen or touchpad (default: a copy of a touchscreen source, else a touchscreen).",
            choices: kinds)
        static let clone: TypedOption<String?> = .string(
            "clone", valueName: "device",
            help: "Show the fingertips on a uinput copy of this real device (node, link, name or vendor:product).", completion: .files)
    }

    static let command = Command(
        name: "fingertips", abstract: "Move 2–10 virtual fingertips live with one finger, a mouse or a head pointer.",
        discussion: """
            AssistiveTouch's live multi-finger input: for as long as it runs,
            the source (--device) is taken for gesturectl alone (EVIOCGRAB)
            and a virtual touchscreen gets N fingertips that move together,
            --spacing mm apart in a row or on an arc around the point the
            source drives. Scroll a page with three fingers by as much as
            you need, or pinch a map until it is as large as you want.

            A touchscreen source: the first contact drives every fingertip
            and a tap is an N-finger tap; further contacts are ignored (said
            once). The virtual touchscreen is a copy of the source's
            description, its geometry and vendor:product included (named
            "gesturectl clone of NAME"), so udev and libinput treat it as
            they treat the screen. On several monitors it must land on the
            source's output: a mapping by vendor:product (GNOME's
            touchscreen output setting) covers the copy too; one by name
            (sway's map_to_output, xinput map-to-output, a udev rule setting
            LIBINPUT_CALIBRATION_MATRIX) needs a line for "gesturectl clone
            of NAME" (see the README, "Mapping the virtual touchscreen to
            one monitor").

            A mouse, trackball or head pointer: its motion moves the
            fingertips (at --speed 1, 1920 counts cross the target's width),
            a held button puts them down, and a click is an N-finger tap.
            A touchpad: a finger's motion moves them and the pad's button
            puts them down; a tablet: the pen's motion moves them and its
            tip puts them down. With --absolute, a touchpad's or tablet's
            surface maps onto the target instead (a touchpad's contact then
            touches, as on a touchscreen). The fingertips never leave the
            target's surface.

            Turn and spread: the secondary button (right or middle) held
            puts the fingertips down in turn mode. Their centre stays where
            it is, and the motion drags an invisible handle that starts on
            the layout's circle where the rightmost fingertip is, as if you
            dragged that fingertip around the others: moving it around the
            centre turns every fingertip by the handle's change of angle,
            moving it away from or towards the centre spreads them or
            brings them together (a quarter to four times the layout, never
            closer than 8 mm, never off the surface). So a drag along an arc
            is a rotation and a drag straight out or in is a pinch. They
            lift, and the layout comes back, when every button is up; a
            click of the secondary button is still an N-finger tap. On a
            touchpad (relative) the pad's right or middle button, or a click
            with two fingers on the pad, is the secondary one; a clickpad
            without either needs the two-finger click. On a tablet
            (relative), the tip touching with a side button held. Not with
            --absolute, nor from a touchscreen.

            Hover: while no button is held, a second virtual device, a pen
            named after the fingertips' device ("gesturectl virtual
            touchscreen pen"), is in proximity at the fingertips' centre, so
            the desktop draws a cursor where they will land. It leaves
            proximity before the fingertips touch, comes back when they
            lift, and leaves before it is removed with the fingertips'
            device. From their documented behaviour (not tested here):
            GNOME (mutter) draws its cursor for a tablet tool in proximity,
            and KDE Plasma (KWin) shows its tablet cursor; on X11 a pen in
            proximity moves the pointer itself. A screen pen is mapped as
            any screen tablet: on several monitors, map it to the same
            output as the fingertips. --no-hover turns it off. No hover from
            a touchscreen source (the finger itself shows where), and none
            through --to uhid or --to gadget (not offered yet).

            --as touchpad shows them on a virtual touchpad instead (the
            desktop's 3- and 4-finger swipes and pinches); --clone DEVICE
            shows them on a copy of another device, e.g. a pointer source
            onto a copy of the real touchscreen. --to uhid makes the device
            through uhid (the kernel's HID drivers drive it), and --to
            gadget through the USB gadget 'gesturectl gadget up' made, so a
            head-pointer user operates the phone or computer it is plugged
            into, as `play --to` does.

            The fingertips go away after --idle seconds without input while
            they are up (default 5 s; 0 means never), on Ctrl-C or SIGTERM,
            and when the source is unplugged: every fingertip is lifted, the
            source is given back, and the virtual device is removed. Each
            state is one line on standard output, for a screen reader:
            "3 fingertips ready: move the pointer, hold the button to
            touch.", "3 fingertips down.", "3 fingertips up.", "3 fingertips
            gone: ...". The ready line comes only once the source is grabbed
            and being read and the virtual device exists.

            Refused: a source another program has grabbed, and one of
            gesturectl's own virtual devices. An unplugged source ends it
            with exit status 1. Reading the source needs the 'input' group,
            and making the device write access to /dev/uinput.

            Examples:
              gesturectl fingertips 3 --device "Logitech USB Optical Mouse"
              gesturectl fingertips 2 --device "ELAN Touchscreen" --layout arc
              gesturectl fingertips 4 --device 046d:c077 --as touchpad --idle 0
              gesturectl fingertips 3 --device "Head Mouse" --clone "ELAN Touchscreen" --speed 0.5
            """,
        section: DevicesCommand.section,
        arguments: [countArgument],
        options: [
            Options.device, Options.layout, Options.spacing, Options.speed, Options.absolute, Options.noHover, Options.idle,
            Options.kind, Options.clone,
        ] + PlayCommand.deviceOutputOptions
    ) { values, context in
        if context.goesThroughDaemon(values) { return try await fingertipsThroughDaemon(values, context: context) }
        let count = values[countArgument]
        let idle = values[Options.idle]
        let options = FingertipsOptions(
            count: count, layout: values[Options.layout], spacingMM: values[Options.spacing], speed: values[Options.speed],
            absolute: values[Options.absolute], idle: idle == .zero ? nil : idle)
        let output = try PlayCommand.output(values)
        let kind = values[Options.kind]
        let target: FingertipsTarget =
            if let clone = values[Options.clone] {
                .clone(device: clone, as: kind)
            } else if let kind {
                .kind(kind)
            } else {
                .automatic
            }
        let job = try await context.engine.startFingertipsWithoutBlocking(
            FingertipsRequest(
                device: values[Options.device], options: options, target: target, output: output,
                hover: !values[Options.noHover]),
            events: { event in
                switch event {
                case .ready(let line): context.print(line)
                case .touching(let down): context.print("\(count) fingertips \(down ? "down" : "up").")
                case .notice(let notice): context.note("\(notice)")
                }
            })
        context.cancelledBySignals(job.handle)
        if !job.isInitialisedByUdev {
            context.warn("udev did not announce \(Unknown.device(job.devnode)) in time; the desktop may not see it")
        }
        let through = output == .uinput ? "" : ", through \(output.word)"
        var stop = "Ctrl-C"
        if let idle = options.idle { stop += " or \(DurationText.format(microseconds: idle.rawValue)) without input" }
        var hover = ""
        if let pen = job.hoverDevnode { hover = "; hover pen on \(pen)" }
        context.note(
            "reading \(job.source.node) (\(job.source.name)), fingertips on \(Unknown.node(job.devnode)) (\(job.profile.description.name)\(through))\(hover); stop with \(stop)")
        let outcome = await context.untilFinished(job.handle)
        var lift = "every fingertip lifted"
        if let error = outcome.liftAllError { lift = "the lift could not be written (\(error)); removing the device lifted them" }
        switch outcome.reason {
        case .idle:
            context.print("\(count) fingertips gone: no input for \(DurationText.format(microseconds: idle.rawValue)).")
        case .cancelled:
            context.print("\(count) fingertips gone: stopped.")
        case .sourceVanished:
            context.print("\(count) fingertips gone: the source was unplugged.")
            throw CommandFailure.failure(
                "\(job.source.name) (\(job.source.node)) was unplugged; \(lift), the virtual device removed")
        case .failed(let error):
            context.print("\(count) fingertips gone: an error.")
            throw CommandFailure.failure("fingertips stopped: \(error); \(lift)")
        }
    }

    /// The kinds `--as` takes: the fingertips are touches.
    static let kinds: [DeviceKind] = [.touchscreen, .touchpad]
}
